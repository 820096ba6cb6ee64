package dev.handoff.clickhouse.value;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.RecordComponent;

/**
 * Reads a Java record nested in a row as a Tuple value (a geo {@code Point} such as {@code record
 * Point(double x, double y)}, any {@code Tuple(...)}): its components in declaration order, or
 * for a named tuple its component names and values. The accessors are looked up once per record
 * class; each read allocates the array it returns (and boxes primitive components).
 *
 * <p>The record class must be accessible to this module: public in an exported (or unnamed)
 * package, or in a package opened to {@code dev.handoff.clickhouse.types}. An inaccessible one
 * fails as a {@code DATA} error of the value ("could not be read").
 */
public final class RecordValues {
  private RecordValues() {}

  private static final ClassValue<Method[]> ACCESSORS = new ClassValue<>() {
    @Override
    protected Method[] computeValue(Class<?> type) {
      RecordComponent[] components = type.getRecordComponents();
      Method[] m = new Method[components.length];
      for (int i = 0; i < m.length; i++) {
        m[i] = components[i].getAccessor();
        try {
          m[i].setAccessible(true);
        } catch (RuntimeException e) {
          // Not open to this module: invoke() then fails with IllegalAccessException, reported.
        }
      }
      return m;
    }
  };

  private static final ClassValue<String[]> NAMES = new ClassValue<>() {
    @Override
    protected String[] computeValue(Class<?> type) {
      RecordComponent[] components = type.getRecordComponents();
      String[] n = new String[components.length];
      for (int i = 0; i < n.length; i++) {
        n[i] = components[i].getName();
      }
      return n;
    }
  };

  /** Returns whether {@code value} is a record. */
  public static boolean isRecord(Object value) {
    return value instanceof Record;
  }

  /**
   * Returns the components of {@code record} in declaration order.
   *
   * @throws IllegalStateException if a component cannot be read (inaccessible class, or its
   *     accessor threw)
   */
  public static Object[] components(Record record) {
    Method[] m = ACCESSORS.get(record.getClass());
    Object[] out = new Object[m.length];
    for (int i = 0; i < m.length; i++) {
      out[i] = read(m[i], record);
    }
    return out;
  }

  /**
   * Returns {@code {name0, value0, name1, value1, ...}} of {@code record}: the flattened form of a
   * map, which a named tuple reads by element name.
   *
   * @throws IllegalStateException if a component cannot be read
   */
  public static Object[] namedComponents(Record record) {
    Method[] m = ACCESSORS.get(record.getClass());
    String[] names = NAMES.get(record.getClass());
    Object[] out = new Object[2 * m.length];
    for (int i = 0; i < m.length; i++) {
      out[2 * i] = names[i];
      out[2 * i + 1] = read(m[i], record);
    }
    return out;
  }

  private static Object read(Method accessor, Record record) {
    try {
      return accessor.invoke(record);
    } catch (IllegalAccessException e) {
      throw new IllegalStateException("record component " + accessor.getName() + " of "
          + record.getClass().getName() + " is not accessible to dev.handoff.clickhouse.types"
          + " (make the record public in an exported package, or open its package)", e);
    } catch (InvocationTargetException e) {
      throw new IllegalStateException("record component " + accessor.getName() + " threw "
          + e.getCause(), e.getCause());
    }
  }
}
