package dev.handoff.clickhouse.hash;

import static java.nio.charset.StandardCharsets.UTF_8;

import dev.handoff.api.TableSchema;
import dev.handoff.api.row.RowAccessor;
import dev.handoff.api.row.ValueKind;
import dev.handoff.clickhouse.type.ClickHouseType;
import dev.handoff.clickhouse.type.TypeKind;
import java.math.BigInteger;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;

/** One column of a sharding expression: where a row holds it, and how its value is hashed. */
final class KeyColumn {
  private final String name;
  private final int index;
  private final ClickHouseType type;
  private final ClickHouseType inner;

  private KeyColumn(String name, int index, ClickHouseType type, ClickHouseType inner) {
    this.name = name;
    this.index = index;
    this.type = type;
    this.inner = inner;
  }

  static KeyColumn resolve(String name, TableSchema schema, HashFunction function) {
    int index = schema.indexOf(name);
    if (index < 0) {
      throw new IllegalArgumentException("sharding key column " + name
          + " is not a column of the table; its columns are " + schema.columns().stream()
              .map(c -> c.name()).toList());
    }
    ClickHouseType type = ClickHouseType.parse(schema.column(index).type());
    ClickHouseType inner = ShardingKey.hashable(name, type, function);
    return new KeyColumn(name, index, type, inner);
  }

  String name() {
    return name;
  }

  ClickHouseType type() {
    return type;
  }

  int width() {
    return inner.kind().fixedWidth();
  }

  boolean isPlainInteger() {
    return switch (inner.kind()) {
      case INT8, INT16, INT32, INT64, UINT8, UINT16, UINT32, UINT64 -> true;
      default -> false;
    };
  }

  boolean isIntegerLike() {
    return isPlainInteger() || inner.kind() == TypeKind.DATE || inner.kind() == TypeKind.DATETIME;
  }

  /** Reads the column as an integer of its type, sign- or zero-extended to 64 bits. */
  <T> long integer(RowAccessor<T> accessor, T row) {
    return integer(inner, accessor, row, index);
  }

  /**
   * Folds this column of {@code row} into {@code hash}, the hash of the arguments before it (none
   * if {@code first}), and returns the result.
   */
  <T> long fold(HashFunction function, boolean first, long hash, RowAccessor<T> accessor, T row) {
    return fold(function, first, hash, inner, accessor, row, index);
  }

  /*
   * An array is not hashed on its own and then combined: its length's hash is combined into the
   * running hash, then each element's hash in turn (18.16's executeArray), so cityHash64(f, g)
   * differs from combine(cityHash64(f), cityHash64(g)). Elements are hashed as first arguments.
   */
  @SuppressWarnings("unchecked")
  private <R> long fold(HashFunction f, boolean first, long hash, ClickHouseType t,
      RowAccessor<R> accessor, R row, int field) {
    if (t.kind() == TypeKind.ARRAY) {
      if (accessor.kind(row, field) != ValueKind.SEQUENCE) {
        throw invalid(accessor.getObject(row, field), "is not a sequence for " + t);
      }
      Object array = accessor.getObject(row, field);
      RowAccessor<Object> elements = (RowAccessor<Object>) accessor.nested(row, field);
      int length = elements.size(array);
      long h = first ? f.hashArrayLength(length) : f.combine(hash, f.hashArrayLength(length));
      ClickHouseType element = t.element().kind() == TypeKind.NULLABLE
          ? t.element().element() : t.element();
      for (int i = 0; i < length; i++) {
        h = f.combine(h, fold(f, true, 0, element, elements, array, i));
      }
      return h;
    }
    long h = hash(f, t, accessor, row, field);
    return first ? h : f.combine(hash, h);
  }

  private <R> long hash(
      HashFunction f, ClickHouseType t, RowAccessor<R> accessor, R row, int field) {
    ValueKind kind = accessor.kind(row, field);
    if (kind == ValueKind.NULL) {
      throw invalid(null, "is NULL, and a NULL sharding key has no shard");
    }
    switch (t.kind()) {
      case FLOAT32:
        return f.hashFloat32((float) number(accessor, row, field, kind));
      case FLOAT64:
        return f.hashFloat64(number(accessor, row, field, kind));
      case STRING:
      case FIXED_STRING: {
        byte[] bytes = kind == ValueKind.BYTES ? accessor.getBytes(row, field)
            : kind == ValueKind.TEXT ? accessor.getText(row, field).toString().getBytes(UTF_8)
            : null;
        if (bytes == null) {
          throw invalid(accessor.getObject(row, field), "is not text or bytes");
        }
        if (t.kind() == TypeKind.FIXED_STRING && bytes.length != t.length()) {
          if (bytes.length > t.length()) {
            throw invalid(accessor.getObject(row, field), "has " + bytes.length
                + " bytes, more than the " + t.length() + " of " + t);
          }
          bytes = java.util.Arrays.copyOf(bytes, t.length()); // zero padding, as stored
        }
        return f.hashBytes(bytes, 0, bytes.length);
      }
      default:
        return f.hashInteger(integer(t, accessor, row, field), t.kind().fixedWidth());
    }
  }

  private <R> double number(RowAccessor<R> accessor, R row, int field, ValueKind kind) {
    return switch (kind) {
      case DOUBLE -> accessor.getDouble(row, field);
      case LONG -> accessor.getLong(row, field);
      default -> throw invalid(accessor.getObject(row, field), "is not a number");
    };
  }

  /** Reads an integer-like value of type {@code t}, range-checked and extended to 64 bits. */
  private <R> long integer(ClickHouseType t, RowAccessor<R> accessor, R row, int field) {
    ValueKind kind = accessor.kind(row, field);
    long value;
    switch (kind) {
      case NULL:
        throw invalid(null, "is NULL, and a NULL sharding key has no shard");
      case LONG:
        value = accessor.getLong(row, field);
        break;
      case BIG_INTEGER: {
        BigInteger big = accessor.getBigInteger(row, field);
        if (t.kind() != TypeKind.UINT64 || big.signum() < 0 || big.bitLength() > 64) {
          throw invalid(big, "is out of the range of " + t);
        }
        return big.longValue();
      }
      case TEXT:
        if (t.kind() == TypeKind.ENUM8 || t.kind() == TypeKind.ENUM16) {
          String text = accessor.getText(row, field).toString();
          Integer enumValue = t.enumValueOf(text);
          if (enumValue == null) {
            throw invalid(text, "is not a name of " + t);
          }
          return enumValue;
        }
        throw invalid(accessor.getObject(row, field), "is text, not a number of " + t);
      case TEMPORAL:
        return temporal(t, accessor.getObject(row, field));
      default:
        throw invalid(accessor.getObject(row, field), "is not a number of " + t);
    }
    long min;
    long max;
    switch (t.kind()) {
      case INT8, ENUM8 -> { min = Byte.MIN_VALUE; max = Byte.MAX_VALUE; }
      case INT16, ENUM16 -> { min = Short.MIN_VALUE; max = Short.MAX_VALUE; }
      case INT32 -> { min = Integer.MIN_VALUE; max = Integer.MAX_VALUE; }
      case UINT8 -> { min = 0; max = 0xff; }
      case UINT16, DATE -> { min = 0; max = 0xffff; }
      case UINT32, DATETIME -> { min = 0; max = 0xffffffffL; }
      default -> { min = Long.MIN_VALUE; max = Long.MAX_VALUE; } // Int64; UInt64 by its bits
    }
    if (value < min || value > max) {
      throw invalid(value, "is out of the range of " + t + " (" + min + ".." + max + ")");
    }
    return value;
  }

  private long temporal(ClickHouseType t, Object value) {
    if (t.kind() == TypeKind.DATE && value instanceof LocalDate date) {
      return integerInRange(date.toEpochDay(), 0, 0xffff, value, t);
    }
    if (t.kind() == TypeKind.DATETIME) {
      long seconds;
      if (value instanceof Instant instant) {
        seconds = instant.getEpochSecond();
      } else if (value instanceof OffsetDateTime odt) {
        seconds = odt.toEpochSecond();
      } else if (value instanceof ZonedDateTime zdt) {
        seconds = zdt.toEpochSecond();
      } else if (value instanceof LocalDateTime ldt) {
        seconds = ldt.atZone(t.timeZone() == null ? ZoneOffset.UTC : t.zone()).toEpochSecond();
      } else {
        throw invalid(value, "is not a date-time for " + t);
      }
      return integerInRange(seconds, 0, 0xffffffffL, value, t);
    }
    throw invalid(value, "is a " + value.getClass().getSimpleName() + ", not a value of " + t);
  }

  private long integerInRange(long n, long min, long max, Object value, ClickHouseType t) {
    if (n < min || n > max) {
      throw invalid(value, "is out of the range of " + t);
    }
    return n;
  }

  private IllegalArgumentException invalid(Object value, String reason) {
    return new IllegalArgumentException("sharding key column " + name + " (" + type + "): value "
        + value + " " + reason);
  }
}
