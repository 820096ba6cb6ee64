package dev.handoff.clickhouse.value;

import static dev.handoff.clickhouse.value.ConversionErrors.failure;
import static dev.handoff.clickhouse.value.ConversionErrors.notANumber;
import static dev.handoff.clickhouse.value.ConversionErrors.notAccepted;

import dev.handoff.api.row.RowAccessor;
import dev.handoff.api.row.ValueKind;
import dev.handoff.clickhouse.type.ClickHouseType;
import java.math.BigDecimal;
import java.math.BigInteger;

/**
 * Converts to Float64, Float32 and Bool: {@link Conversions#toDouble}, {@link
 * Conversions#toFloat} and {@link Conversions#toBool}. An integer must be exactly representable;
 * a finite value never silently becomes infinite or zero.
 */
final class FloatAndBoolConversions {
  private FloatAndBoolConversions() {}

  /** Implements {@link Conversions#toDouble}. */
  static <R> double toDouble(RowAccessor<R> acc, R row, int field, ClickHouseType type,
      String column) {
    try {
      ValueKind kind = acc.kind(row, field);
      switch (kind) {
        case DOUBLE:
          return acc.getDouble(row, field);
        case LONG:
          return exactDouble(acc.getLong(row, field));
        case BIG_INTEGER:
          return exactDouble(acc.getBigInteger(row, field));
        case BIG_DECIMAL:
          return nearestDouble(acc.getBigDecimal(row, field));
        case TEXT:
          return doubleOfText(acc.getText(row, field));
        default:
          throw notAccepted(kind, type);
      }
    } catch (RuntimeException e) {
      throw failure(acc, row, field, type, column, e);
    }
  }

  /** Implements {@link Conversions#toFloat}. */
  static <R> float toFloat(RowAccessor<R> acc, R row, int field, ClickHouseType type,
      String column) {
    try {
      ValueKind kind = acc.kind(row, field);
      switch (kind) {
        case DOUBLE: {
          double d = acc.getDouble(row, field);
          if (d != d) {
            // NaN: widening a Float to double and narrowing it back may set the quiet bit of a
            // signalling NaN, depending on whether the code is interpreted or compiled. Take a
            // Float's own bits; map a double NaN's payload by bit shifting, never by a cast.
            Object boxed = acc.getObject(row, field);
            return boxed instanceof Float ? (Float) boxed : nanFloat(d);
          }
          return floatOfDouble(d);
        }
        case LONG:
          return exactFloat(acc.getLong(row, field));
        case BIG_INTEGER:
          return exactFloat(acc.getBigInteger(row, field));
        case BIG_DECIMAL:
          return nearestFloat(acc.getBigDecimal(row, field));
        case TEXT:
          return floatOfText(acc.getText(row, field));
        default:
          throw notAccepted(kind, type);
      }
    } catch (RuntimeException e) {
      throw failure(acc, row, field, type, column, e);
    }
  }

  /*
   * Float64 and Float32 apply the same rules with their own primitive type; the checks that do
   * not depend on it, and every message, are shared below (binary format: its name, significand
   * bits and largest magnitude in bits).
   */
  private static final String FLOAT64 = "Float64";
  private static final String FLOAT32 = "Float32";

  private static Rejected notExact(String format, int significand) {
    return new Rejected("is not exactly representable as a " + format + " (it has more than "
        + significand + " significant bits)");
  }

  private static Rejected outOfRange(String format) {
    return new Rejected("is out of range for a " + format);
  }

  private static Rejected tooSmall(String format) {
    return new Rejected("is too small for a " + format + " (it would become 0)");
  }

  /** Rejects an integer of more than 63 bits that the format cannot hold exactly. */
  private static void checkExact(BigInteger b, String format, int significand, int maxBits) {
    BigInteger magnitude = b.abs();
    if (magnitude.bitLength() > maxBits) {
      throw outOfRange(format);
    }
    if (magnitude.bitLength() - magnitude.getLowestSetBit() > significand) {
      throw notExact(format, significand);
    }
  }

  /** Rejects a correctly rounded value that became infinite, or zero from a non-zero number. */
  private static void checkRounded(boolean infinite, boolean zeroFromNonZero, String format) {
    if (infinite) {
      throw outOfRange(format);
    }
    if (zeroFromNonZero) {
      throw tooSmall(format);
    }
  }

  /** Rejects a parsed integer text whose value differs from the text's. */
  private static void checkExactText(double parsed, String text, String format, int significand) {
    if (new BigDecimal(parsed).compareTo(new BigDecimal(text)) != 0) {
      throw notExact(format, significand);
    }
  }

  private static double exactDouble(long v) {
    double d = v;
    // (long) 2^63 saturates to Long.MAX_VALUE, which 2^63 is not.
    if ((long) d == v && d != 0x1p63) {
      return d;
    }
    throw notExact(FLOAT64, 53);
  }

  private static double exactDouble(BigInteger b) {
    if (b.bitLength() <= 63) {
      return exactDouble(b.longValue());
    }
    checkExact(b, FLOAT64, 53, 1024);
    return b.doubleValue();
  }

  private static double nearestDouble(BigDecimal bd) {
    double d = bd.doubleValue(); // correctly rounded
    checkRounded(Double.isInfinite(d), d == 0 && bd.signum() != 0, FLOAT64);
    return d;
  }

  private static double doubleOfText(CharSequence text) {
    switch (NumberText.classify(text)) {
      case NumberText.NAN:
        return Double.NaN;
      case NumberText.POSITIVE_INFINITY:
        return Double.POSITIVE_INFINITY;
      case NumberText.NEGATIVE_INFINITY:
        return Double.NEGATIVE_INFINITY;
      case NumberText.INTEGER: {
        if (NumberText.integerDigits(text) <= 15) { // below 2^53: always exact
          double d = NumberText.parseSmallInteger(text);
          return d == 0 && text.charAt(0) == '-' ? -0.0 : d;
        }
        String s = text.toString();
        double d = Double.parseDouble(s);
        checkRounded(Double.isInfinite(d), false, FLOAT64);
        checkExactText(d, s, FLOAT64, 53);
        return d;
      }
      case NumberText.DECIMAL: {
        double d = Double.parseDouble(text.toString()); // correctly rounded
        checkRounded(Double.isInfinite(d), d == 0 && !NumberText.isZero(text), FLOAT64);
        return d;
      }
      default:
        throw notANumber();
    }
  }

  /** The Float32 NaN with the sign and the top 23 payload bits of a Float64 NaN. */
  private static float nanFloat(double d) {
    long bits = Double.doubleToRawLongBits(d);
    int payload = (int) ((bits >>> 29) & 0x7FFFFF);
    int sign = (int) (bits >>> 32) & 0x80000000;
    return Float.intBitsToFloat(sign | 0x7F800000 | (payload == 0 ? 0x400000 : payload));
  }

  private static float floatOfDouble(double d) {
    float f = (float) d;
    if (Float.isInfinite(f) && !Double.isInfinite(d)) {
      throw new Rejected("is out of range for a Float32 (|x| > 3.4028235E38)");
    }
    if (f == 0 && d != 0) {
      throw tooSmall(FLOAT32);
    }
    return f;
  }

  private static float exactFloat(long v) {
    float f = v;
    if ((long) f == v && f != 0x1p63f) {
      return f;
    }
    throw notExact(FLOAT32, 24);
  }

  private static float exactFloat(BigInteger b) {
    if (b.bitLength() <= 63) {
      return exactFloat(b.longValue());
    }
    checkExact(b, FLOAT32, 24, 128);
    return b.floatValue();
  }

  private static float nearestFloat(BigDecimal bd) {
    float f = bd.floatValue(); // correctly rounded
    checkRounded(Float.isInfinite(f), f == 0 && bd.signum() != 0, FLOAT32);
    return f;
  }

  private static float floatOfText(CharSequence text) {
    switch (NumberText.classify(text)) {
      case NumberText.NAN:
        return Float.NaN;
      case NumberText.POSITIVE_INFINITY:
        return Float.POSITIVE_INFINITY;
      case NumberText.NEGATIVE_INFINITY:
        return Float.NEGATIVE_INFINITY;
      case NumberText.INTEGER: {
        if (NumberText.integerDigits(text) <= 7) { // below 2^24: always exact
          float f = NumberText.parseSmallInteger(text);
          return f == 0 && text.charAt(0) == '-' ? -0.0f : f;
        }
        String s = text.toString();
        float f = Float.parseFloat(s);
        checkRounded(Float.isInfinite(f), false, FLOAT32);
        checkExactText(f, s, FLOAT32, 24); // a float widens to double exactly
        return f;
      }
      case NumberText.DECIMAL: {
        float f = Float.parseFloat(text.toString()); // correctly rounded, no double rounding
        checkRounded(Float.isInfinite(f), f == 0 && !NumberText.isZero(text), FLOAT32);
        return f;
      }
      default:
        throw notANumber();
    }
  }

  /** Implements {@link Conversions#toBool}. */
  static <R> boolean toBool(RowAccessor<R> acc, R row, int field, ClickHouseType type,
      String column) {
    try {
      ValueKind kind = acc.kind(row, field);
      switch (kind) {
        case BOOLEAN:
          return acc.getBoolean(row, field);
        case LONG: {
          long v = acc.getLong(row, field);
          if (v == 0 || v == 1) {
            return v == 1;
          }
          throw new Rejected("is not a boolean (expected 0 or 1)");
        }
        case TEXT: {
          CharSequence s = acc.getText(row, field);
          int n = s.length();
          if (n == 4 && NumberText.matchesIgnoreCase(s, 0, "true")
              || n == 1 && s.charAt(0) == '1') {
            return true;
          }
          if (n == 5 && NumberText.matchesIgnoreCase(s, 0, "false")
              || n == 1 && s.charAt(0) == '0') {
            return false;
          }
          throw new Rejected("is not a boolean (expected true, false, 1 or 0)");
        }
        default:
          throw notAccepted(kind, type);
      }
    } catch (RuntimeException e) {
      throw failure(acc, row, field, type, column, e);
    }
  }
}
