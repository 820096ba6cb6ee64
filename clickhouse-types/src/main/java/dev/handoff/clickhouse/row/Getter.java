package dev.handoff.clickhouse.row;

import dev.handoff.api.row.ValueKind;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodType;
import java.math.BigDecimal;
import java.math.BigInteger;

/**
 * Reads one property (a record component, a bean getter or a public field) of an object through
 * a {@link MethodHandle} resolved once. A primitive property gets a subclass that calls the
 * handle with its exact primitive return type, so its kind is a constant and its value is never
 * boxed (except by {@link #get}).
 */
abstract class Getter {
  private static final MethodType TO_LONG = MethodType.methodType(long.class, Object.class);
  private static final MethodType TO_DOUBLE = MethodType.methodType(double.class, Object.class);
  private static final MethodType TO_BOOLEAN = MethodType.methodType(boolean.class, Object.class);
  private static final MethodType TO_CHAR = MethodType.methodType(char.class, Object.class);
  private static final MethodType TO_OBJECT = MethodType.methodType(Object.class, Object.class);

  /** The property's name, for messages. */
  final String name;
  /** The handle, of one of the types above. */
  final MethodHandle handle;

  private Getter(String name, MethodHandle handle) {
    this.name = name;
    this.handle = handle;
  }

  /**
   * Returns the getter for {@code handle}, a handle of type {@code (T)X} that reads property
   * {@code name} of a {@code T}.
   */
  static Getter of(String name, MethodHandle handle) {
    Class<?> type = handle.type().returnType();
    if (type == long.class || type == int.class || type == short.class || type == byte.class) {
      return new LongGetter(name, handle.asType(TO_LONG));
    }
    if (type == double.class || type == float.class) {
      return new DoubleGetter(name, handle.asType(TO_DOUBLE));
    }
    if (type == boolean.class) {
      return new BooleanGetter(name, handle.asType(TO_BOOLEAN));
    }
    if (type == char.class) {
      return new CharGetter(name, handle.asType(TO_CHAR));
    }
    return new ObjectGetter(name, handle.asType(TO_OBJECT));
  }

  /** Returns the kind of the property of {@code row}. */
  abstract ValueKind kind(Object row);

  /** Returns the property as {@code getObject} gives it (boxed, or a container). */
  abstract Object get(Object row);

  boolean isNull(Object row) {
    return false;
  }

  long getLong(Object row) {
    return JavaValues.longValue(get(row));
  }

  double getDouble(Object row) {
    return JavaValues.doubleValue(get(row));
  }

  boolean getBoolean(Object row) {
    return JavaValues.booleanValue(get(row));
  }

  BigInteger getBigInteger(Object row) {
    return JavaValues.bigInteger(get(row));
  }

  BigDecimal getBigDecimal(Object row) {
    return JavaValues.bigDecimal(get(row));
  }

  CharSequence getText(Object row) {
    return JavaValues.text(get(row));
  }

  byte[] getBytes(Object row) {
    return JavaValues.bytes(get(row));
  }

  /** Returns what escapes a handle call: an unchecked throwable as it is, else wrapped. */
  final RuntimeException failure(Throwable t) {
    if (t instanceof RuntimeException r) {
      return r;
    }
    if (t instanceof Error e) {
      throw e;
    }
    return new IllegalStateException("reading property " + name + " failed: " + t, t);
  }

  /** A reference-typed property, classified per value by {@link JavaValues}. */
  static final class ObjectGetter extends Getter {
    ObjectGetter(String name, MethodHandle handle) {
      super(name, handle);
    }

    Object raw(Object row) {
      try {
        return (Object) handle.invokeExact(row);
      } catch (Throwable t) {
        throw failure(t);
      }
    }

    @Override
    ValueKind kind(Object row) {
      return JavaValues.kind(raw(row));
    }

    @Override
    Object get(Object row) {
      return JavaValues.container(raw(row));
    }

    @Override
    boolean isNull(Object row) {
      return raw(row) == null;
    }

    @Override
    long getLong(Object row) {
      return JavaValues.longValue(raw(row));
    }

    @Override
    double getDouble(Object row) {
      return JavaValues.doubleValue(raw(row));
    }

    @Override
    boolean getBoolean(Object row) {
      return JavaValues.booleanValue(raw(row));
    }

    @Override
    BigInteger getBigInteger(Object row) {
      return JavaValues.bigInteger(raw(row));
    }

    @Override
    BigDecimal getBigDecimal(Object row) {
      return JavaValues.bigDecimal(raw(row));
    }

    @Override
    CharSequence getText(Object row) {
      return JavaValues.text(raw(row));
    }

    @Override
    byte[] getBytes(Object row) {
      return JavaValues.bytes(raw(row));
    }
  }

  /** A {@code long}, {@code int}, {@code short} or {@code byte} property: LONG. */
  static final class LongGetter extends Getter {
    LongGetter(String name, MethodHandle handle) {
      super(name, handle);
    }

    @Override
    ValueKind kind(Object row) {
      return ValueKind.LONG;
    }

    @Override
    long getLong(Object row) {
      try {
        return (long) handle.invokeExact(row);
      } catch (Throwable t) {
        throw failure(t);
      }
    }

    @Override
    double getDouble(Object row) {
      return getLong(row);
    }

    @Override
    Object get(Object row) {
      return getLong(row);
    }
  }

  /** A {@code double} or {@code float} property: DOUBLE. */
  static final class DoubleGetter extends Getter {
    DoubleGetter(String name, MethodHandle handle) {
      super(name, handle);
    }

    @Override
    ValueKind kind(Object row) {
      return ValueKind.DOUBLE;
    }

    @Override
    double getDouble(Object row) {
      try {
        return (double) handle.invokeExact(row);
      } catch (Throwable t) {
        throw failure(t);
      }
    }

    @Override
    Object get(Object row) {
      return getDouble(row);
    }
  }

  /** A {@code boolean} property: BOOLEAN. */
  static final class BooleanGetter extends Getter {
    BooleanGetter(String name, MethodHandle handle) {
      super(name, handle);
    }

    @Override
    ValueKind kind(Object row) {
      return ValueKind.BOOLEAN;
    }

    @Override
    boolean getBoolean(Object row) {
      try {
        return (boolean) handle.invokeExact(row);
      } catch (Throwable t) {
        throw failure(t);
      }
    }

    @Override
    Object get(Object row) {
      return getBoolean(row);
    }
  }

  /** A {@code char} property: TEXT of one character (read as a new {@code String}). */
  static final class CharGetter extends Getter {
    CharGetter(String name, MethodHandle handle) {
      super(name, handle);
    }

    char getChar(Object row) {
      try {
        return (char) handle.invokeExact(row);
      } catch (Throwable t) {
        throw failure(t);
      }
    }

    @Override
    ValueKind kind(Object row) {
      return ValueKind.TEXT;
    }

    @Override
    CharSequence getText(Object row) {
      return String.valueOf(getChar(row));
    }

    @Override
    Object get(Object row) {
      return getChar(row);
    }
  }
}
