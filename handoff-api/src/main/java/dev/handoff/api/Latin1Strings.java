package dev.handoff.api;

import java.lang.reflect.Field;

/**
 * Tells whether a {@code String} stores one byte per char (the JDK's compact "Latin-1" form, in
 * which every char is at most {@code 0xFF}), so that {@link ChunkBuffer} can copy it with {@code
 * String.getBytes(int, int, byte[], int)} (a bulk copy of that form) and check the copied bytes 8
 * at a time for ASCII, instead of reading every char through {@code charAt} first.
 *
 * <p><b>Why {@code sun.misc.Unsafe}.</b> The JDK has no public way to ask a String for its form,
 * and the per-char check was a quarter of the time of encoding a narrow row. The probe reads the
 * String's {@code coder} field (0 for Latin-1) with {@code Unsafe.getByte}, as JCTools and Netty
 * read JDK internals, and only where that is quiet and safe:
 *
 * <ul>
 *   <li>Java 17 to 23 only: from Java 24 on the memory-access methods of {@code Unsafe} print a
 *       warning (JEP 498), so the probe stays off there;
 *   <li>{@code jdk.unsupported} readable (this module {@code requires static} it: always so on the
 *       class path; on the module path when another module requires it, or with {@code
 *       --add-modules jdk.unsupported});
 *   <li>a self-check at class initialization: the field exists, is a {@code byte}, and reads 0
 *       for a new Latin-1 String and 1 for a String with a char above {@code 0xFF} (so with
 *       {@code -XX:-CompactStrings}, or on a JVM that lays Strings out otherwise, it stays off);
 *   <li>not turned off with the system property {@code handoff.noUnsafe=true}.
 * </ul>
 *
 * <p>Off, {@link #isLatin1} is never called and every String takes the per-char check: the bytes
 * written are the same either way ({@code ChunkBufferTest} runs both).
 */
final class Latin1Strings {
  private Latin1Strings() {}

  /** Whether {@link #isLatin1} may be called: the probe passed its self-check. */
  static final boolean ENABLED;

  private static final sun.misc.Unsafe UNSAFE;
  private static final long CODER_OFFSET;

  static {
    sun.misc.Unsafe unsafe = null;
    long offset = -1;
    boolean enabled = false;
    if (Runtime.version().feature() < 24 && !Boolean.getBoolean("handoff.noUnsafe")) {
      try {
        Field theUnsafe = sun.misc.Unsafe.class.getDeclaredField("theUnsafe");
        theUnsafe.setAccessible(true);
        unsafe = (sun.misc.Unsafe) theUnsafe.get(null);
        Field coder = String.class.getDeclaredField("coder");
        if (coder.getType() == byte.class) {
          offset = unsafe.objectFieldOffset(coder);
          String latin1 = new String(new char[] {'a', '\u00E9'});
          String utf16 = new String(new char[] {'a', '\u0100'});
          enabled = unsafe.getByte(latin1, offset) == 0 && unsafe.getByte(utf16, offset) == 1;
        }
      } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
        // No jdk.unsupported, no such field, or access refused: the per-char check it is.
        enabled = false;
      }
    }
    ENABLED = enabled;
    UNSAFE = enabled ? unsafe : null;
    CODER_OFFSET = offset;
  }

  /**
   * Whether {@code s} stores one byte per char, every char at most {@code 0xFF}. Call only when
   * {@link #ENABLED}. False says nothing about the chars (a String of the other form may, in
   * principle, hold only such chars).
   */
  static boolean isLatin1(String s) {
    return UNSAFE.getByte(s, CODER_OFFSET) == 0;
  }
}
