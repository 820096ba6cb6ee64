package dev.handoff.testkit;

import java.lang.reflect.Method;
import java.util.function.LongSupplier;

/**
 * The JVM's count of bytes the current thread allocated, for tests that pin "no allocation per
 * row". Read reflectively through {@code com.sun.management.ThreadMXBean}, so that no module
 * needs {@code java.management} and a JVM without the counter makes the test skip, not fail.
 */
public final class Allocations {
  private Allocations() {}

  /**
   * Returns a reader of the bytes the calling thread has allocated so far, or {@code null} when
   * this JVM does not count them.
   */
  public static LongSupplier currentThread() {
    try {
      Class<?> factory = Class.forName("java.lang.management.ManagementFactory");
      Object bean = factory.getMethod("getThreadMXBean").invoke(null);
      Class<?> api = Class.forName("com.sun.management.ThreadMXBean");
      if (!api.isInstance(bean)) {
        return null;
      }
      Method m = api.getMethod("getCurrentThreadAllocatedBytes");
      if ((long) m.invoke(bean) < 0) {
        return null;
      }
      return () -> {
        try {
          return (long) m.invoke(bean);
        } catch (ReflectiveOperationException e) {
          throw new IllegalStateException(e);
        }
      };
    } catch (ReflectiveOperationException | RuntimeException e) {
      return null;
    }
  }
}
