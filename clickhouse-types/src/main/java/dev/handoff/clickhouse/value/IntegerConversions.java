package dev.handoff.clickhouse.value;

import static dev.handoff.clickhouse.value.ConversionErrors.failure;
import static dev.handoff.clickhouse.value.ConversionErrors.nonNull;
import static dev.handoff.clickhouse.value.ConversionErrors.notANumber;
import static dev.handoff.clickhouse.value.ConversionErrors.notAccepted;
import static dev.handoff.clickhouse.value.ConversionErrors.outOfRange;

import dev.handoff.api.row.RowAccessor;
import dev.handoff.api.row.ValueKind;
import dev.handoff.clickhouse.type.ClickHouseType;
import dev.handoff.clickhouse.type.TypeKind;
import java.math.BigDecimal;
import java.math.BigInteger;

/**
 * Converts to the integer types, Int8..Int256 and UInt8..UInt256: {@link Conversions#toLong} and
 * {@link Conversions#toBigInteger}, with their range checks. It also reads a BigInteger as a
 * {@code long} for the date, time and IPv4 conversions ({@link #longOrOutOfRange}).
 */
final class IntegerConversions {
  private IntegerConversions() {}

  /** Implements {@link Conversions#toLong}. */
  static <R> long toLong(RowAccessor<R> acc, R row, int field, ClickHouseType type,
      String column) {
    TypeKind tk = type.kind();
    if (bitsOf(tk) > 64) {
      throw new IllegalArgumentException("toLong does not read " + type);
    }
    try {
      ValueKind kind = acc.kind(row, field);
      switch (kind) {
        case LONG:
          return checkLong(acc.getLong(row, field), type);
        case BOOLEAN:
          return acc.getBoolean(row, field) ? 1 : 0;
        case DOUBLE:
          return longOfDouble(acc.getDouble(row, field), type);
        case BIG_INTEGER:
          return longOfBig(acc.getBigInteger(row, field), type);
        case BIG_DECIMAL:
          return longOfBig(integral(acc.getBigDecimal(row, field), type), type);
        case TEXT:
          return longOfText(acc.getText(row, field), type);
        default:
          throw notAccepted(kind, type);
      }
    } catch (RuntimeException e) {
      throw failure(acc, row, field, type, column, e);
    }
  }

  /** Implements {@link Conversions#toBigInteger}. */
  static <R> BigInteger toBigInteger(RowAccessor<R> acc, R row, int field,
      ClickHouseType type, String column) {
    bitsOf(type.kind());
    try {
      ValueKind kind = acc.kind(row, field);
      switch (kind) {
        case LONG:
          return checkBig(BigInteger.valueOf(acc.getLong(row, field)), type);
        case BOOLEAN:
          return acc.getBoolean(row, field) ? BigInteger.ONE : BigInteger.ZERO;
        case DOUBLE:
          return checkBig(bigOfDouble(acc.getDouble(row, field), type), type);
        case BIG_INTEGER:
          return checkBig(nonNull(acc.getBigInteger(row, field)), type);
        case BIG_DECIMAL:
          return checkBig(integral(acc.getBigDecimal(row, field), type), type);
        case TEXT:
          return checkBig(bigOfText(acc.getText(row, field), type), type);
        default:
          throw notAccepted(kind, type);
      }
    } catch (RuntimeException e) {
      throw failure(acc, row, field, type, column, e);
    }
  }

  /** Returns the width in bits of an integer type, or throws for any other type. */
  /** Implements {@link Conversions#minLong}. */
  static long minLong(ClickHouseType type) {
    TypeKind tk = type.kind();
    int bits = rangeBits(tk, type);
    return isUnsigned(tk) ? 0 : bits == 64 ? Long.MIN_VALUE : -(1L << (bits - 1));
  }

  /** Implements {@link Conversions#maxLong}. */
  static long maxLong(ClickHouseType type) {
    TypeKind tk = type.kind();
    int bits = rangeBits(tk, type);
    if (bits == 64) {
      return Long.MAX_VALUE; // UInt64 too: a LONG above it would be negative
    }
    return isUnsigned(tk) ? (1L << bits) - 1 : (1L << (bits - 1)) - 1;
  }

  private static int rangeBits(TypeKind tk, ClickHouseType type) {
    int bits = bitsOf(tk);
    if (bits > 64) {
      throw new IllegalArgumentException("a long does not hold every " + type);
    }
    return bits;
  }

  private static int bitsOf(TypeKind tk) {
    switch (tk) {
      case INT8: case UINT8: return 8;
      case INT16: case UINT16: return 16;
      case INT32: case UINT32: return 32;
      case INT64: case UINT64: return 64;
      case INT128: case UINT128: return 128;
      case INT256: case UINT256: return 256;
      default: throw new IllegalArgumentException(tk + " is not an integer type");
    }
  }

  private static boolean isUnsigned(TypeKind tk) {
    switch (tk) {
      case UINT8: case UINT16: case UINT32: case UINT64: case UINT128: case UINT256: return true;
      default: return false;
    }
  }

  /**
   * Returns {@code v} if it is in the range of an integer type of up to 64 bits ({@link #minLong}
   * to {@link #maxLong}: for UInt64 a negative long is a negative number, not 2^64 - x).
   */
  private static long checkLong(long v, ClickHouseType type) {
    if (v >= minLong(type) && v <= maxLong(type)) {
      return v;
    }
    throw outOfRange(type);
  }

  /** Refuses a double that is not a finite integer: its fraction would be lost. */
  private static void requireIntegral(double d) {
    if (!Double.isFinite(d)) {
      throw new Rejected("is not finite; an integer column holds no NaN or Infinity");
    }
    if (d != Math.rint(d)) {
      throw new Rejected("is not an integer (its fraction would be lost)");
    }
  }

  private static long longOfDouble(double d, ClickHouseType type) {
    requireIntegral(d);
    if (type.kind() == TypeKind.UINT64) {
      if (d >= 0 && d < 0x1p64) {
        // Above 2^63 the double is a multiple of 2^11, so d - 2^63 is exact.
        return d < 0x1p63 ? (long) d : (long) (d - 0x1p63) ^ Long.MIN_VALUE;
      }
      throw outOfRange(type);
    }
    if (d >= -0x1p63 && d < 0x1p63) {
      return checkLong((long) d, type);
    }
    throw outOfRange(type);
  }

  private static long longOfBig(BigInteger b, ClickHouseType type) {
    if (b.bitLength() <= 63) {
      return checkLong(b.longValue(), type);
    }
    if (type.kind() == TypeKind.UINT64 && b.signum() > 0 && b.bitLength() == 64) {
      return b.longValue(); // the low 64 bits are the unsigned value
    }
    throw outOfRange(type);
  }

  private static long longOfText(CharSequence text, ClickHouseType type) {
    switch (NumberText.classify(text)) {
      case NumberText.INTEGER:
        if (NumberText.integerDigits(text) <= 18) {
          return checkLong(NumberText.parseSmallInteger(text), type);
        }
        return longOfBig(NumberText.parseBigInteger(text), type);
      case NumberText.DECIMAL:
        return longOfBig(integral(NumberText.parseBigDecimal(text), type), type);
      case NumberText.NAN:
      case NumberText.POSITIVE_INFINITY:
      case NumberText.NEGATIVE_INFINITY:
        throw new Rejected("is not finite; an integer column holds no NaN or Infinity");
      default:
        throw notANumber();
    }
  }

  private static BigInteger checkBig(BigInteger b, ClickHouseType type) {
    int bits = bitsOf(type.kind());
    boolean in = isUnsigned(type.kind())
        ? b.signum() >= 0 && b.bitLength() <= bits
        : b.bitLength() < bits;
    if (in) {
      return b;
    }
    throw outOfRange(type);
  }

  private static BigInteger bigOfDouble(double d, ClickHouseType type) {
    requireIntegral(d);
    if (Math.abs(d) >= 0x1p256) {
      throw outOfRange(type);
    }
    return new BigDecimal(d).toBigInteger(); // exact: d is an integer
  }

  private static BigInteger bigOfText(CharSequence text, ClickHouseType type) {
    switch (NumberText.classify(text)) {
      case NumberText.INTEGER:
        return NumberText.parseBigInteger(text);
      case NumberText.DECIMAL:
        return integral(NumberText.parseBigDecimal(text), type);
      case NumberText.NAN:
      case NumberText.POSITIVE_INFINITY:
      case NumberText.NEGATIVE_INFINITY:
        throw new Rejected("is not finite; an integer column holds no NaN or Infinity");
      default:
        throw notANumber();
    }
  }

  /**
   * Returns {@code bd} as an integer: an error if it has a non-zero fraction or obviously more
   * digits than any integer type holds (checked first, so {@code 1E+999999999} costs nothing).
   */
  private static BigInteger integral(BigDecimal bd, ClickHouseType type) {
    if (bd.signum() == 0) {
      return BigInteger.ZERO;
    }
    if ((long) bd.precision() - bd.scale() > 80) { // 2^256 has 78 digits
      throw outOfRange(type);
    }
    if (bd.scale() > 0) {
      bd = bd.stripTrailingZeros();
      if (bd.scale() > 0) {
        throw new Rejected("is not an integer (its fraction would be lost)");
      }
    }
    return bd.toBigInteger(); // exact: the scale is <= 0 now
  }

  /** Returns {@code b} as a {@code long}, or the type's out-of-range reason beyond 64 bits. */
  static long longOrOutOfRange(BigInteger b, ClickHouseType type) {
    if (b.bitLength() <= 63) {
      return b.longValue();
    }
    throw outOfRange(type);
  }
}
