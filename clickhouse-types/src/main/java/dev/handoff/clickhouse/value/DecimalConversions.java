package dev.handoff.clickhouse.value;

import static dev.handoff.clickhouse.value.ConversionErrors.failure;
import static dev.handoff.clickhouse.value.ConversionErrors.nonNull;
import static dev.handoff.clickhouse.value.ConversionErrors.notANumber;
import static dev.handoff.clickhouse.value.ConversionErrors.notAccepted;

import dev.handoff.api.row.RowAccessor;
import dev.handoff.api.row.ValueKind;
import dev.handoff.clickhouse.type.ClickHouseType;
import dev.handoff.clickhouse.type.TypeKind;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;

/**
 * Converts to Decimal(P, S): {@link Conversions#toDecimalLong} and {@link
 * Conversions#toDecimalBig}, exactly (a Decimal is never rounded), with an allocation-free path
 * for doubles and short BigDecimals. It holds the powers of ten that DateTime64 uses too.
 */
final class DecimalConversions {
  private DecimalConversions() {}

  /** 10^0 .. 10^18 as longs. */
  static final long[] POW10 = new long[19];
  /** 10^0 .. 10^22 as doubles, all exact. */
  static final double[] POW10_DOUBLE = new double[23];

  static {
    long p = 1;
    for (int i = 0; i < POW10.length; i++, p *= 10) {
      POW10[i] = p;
    }
    double d = 1;
    for (int i = 0; i < POW10_DOUBLE.length; i++, d *= 10) {
      POW10_DOUBLE[i] = d;
    }
  }

  /**
   * Below this magnitude of {@code d * 10^S} at most one decimal with S fraction digits rounds to
   * {@code d}, and {@code Math.round(d * 10^S)} finds it; above it the exact path decides.
   */
  static final double FAST_DECIMAL_LIMIT = 0x1p50;

  /** Implements {@link Conversions#toDecimalLong}. */
  static <R> long toDecimalLong(RowAccessor<R> acc, R row, int field, ClickHouseType type,
      String column) {
    if (type.kind() != TypeKind.DECIMAL || type.precision() > 18) {
      throw new IllegalArgumentException("toDecimalLong does not read " + type);
    }
    try {
      ValueKind kind = acc.kind(row, field);
      switch (kind) {
        case LONG:
          return decimalOfLong(acc.getLong(row, field), type);
        case DOUBLE:
          return decimalOfDouble(acc.getDouble(row, field), type);
        case BIG_INTEGER:
          return decimalLongOf(new BigDecimal(acc.getBigInteger(row, field)), type);
        case BIG_DECIMAL: {
          BigDecimal bd = nonNull(acc.getBigDecimal(row, field));
          return isFastDecimal(bd, type) ? fastDecimal(bd, type) : decimalLongOf(bd, type);
        }
        case TEXT: {
          CharSequence text = acc.getText(row, field);
          int syntax = decimalSyntax(text);
          if (syntax == NumberText.INTEGER && NumberText.integerDigits(text) <= 18) {
            return decimalOfLong(NumberText.parseSmallInteger(text), type);
          }
          return decimalLongOf(NumberText.parseBigDecimal(text), type);
        }
        default:
          throw notAccepted(kind, type);
      }
    } catch (RuntimeException e) {
      throw failure(acc, row, field, type, column, e);
    }
  }

  /** Implements {@link Conversions#toDecimalBig}. */
  static <R> BigInteger toDecimalBig(RowAccessor<R> acc, R row, int field,
      ClickHouseType type, String column) {
    if (type.kind() != TypeKind.DECIMAL) {
      throw new IllegalArgumentException("toDecimalBig does not read " + type);
    }
    if (type.precision() <= 18) {
      return BigInteger.valueOf(toDecimalLong(acc, row, field, type, column));
    }
    try {
      ValueKind kind = acc.kind(row, field);
      switch (kind) {
        case LONG:
          return decimalOf(BigDecimal.valueOf(acc.getLong(row, field)), type);
        case DOUBLE:
          return decimalOfDoubleBig(acc.getDouble(row, field), type);
        case BIG_INTEGER:
          return decimalOf(new BigDecimal(acc.getBigInteger(row, field)), type);
        case BIG_DECIMAL:
          return decimalOf(nonNull(acc.getBigDecimal(row, field)), type);
        case TEXT: {
          CharSequence text = acc.getText(row, field);
          decimalSyntax(text);
          return decimalOf(NumberText.parseBigDecimal(text), type);
        }
        default:
          throw notAccepted(kind, type);
      }
    } catch (RuntimeException e) {
      throw failure(acc, row, field, type, column, e);
    }
  }

  /** Returns INTEGER or DECIMAL for numeric text, else throws the reason. */
  private static int decimalSyntax(CharSequence text) {
    int syntax = NumberText.classify(text);
    switch (syntax) {
      case NumberText.INTEGER:
      case NumberText.DECIMAL:
        return syntax;
      case NumberText.NAN:
      case NumberText.POSITIVE_INFINITY:
      case NumberText.NEGATIVE_INFINITY:
        throw notFiniteDecimal();
      default:
        throw notANumber();
    }
  }

  /** {@code v * 10^S} for P &lt;= 18, where the product cannot overflow once the range holds. */
  private static long decimalOfLong(long v, ClickHouseType type) {
    long limit = POW10[type.precision() - type.scale()]; // |v| < 10^(P-S) <=> |v * 10^S| < 10^P
    if (v > -limit && v < limit) {
      return v * POW10[type.scale()];
    }
    throw decimalOutOfRange(type);
  }

  private static long decimalOfDouble(double d, ClickHouseType type) {
    if (!Double.isFinite(d)) {
      throw notFiniteDecimal();
    }
    int s = type.scale();
    double scaled = d * POW10_DOUBLE[s];
    if (Math.abs(scaled) < FAST_DECIMAL_LIMIT) {
      long u = Math.round(scaled);
      // u and 10^S are exact doubles, so the quotient is u / 10^S correctly rounded.
      if ((double) u / POW10_DOUBLE[s] == d) {
        if (u > -POW10[type.precision()] && u < POW10[type.precision()]) {
          return u;
        }
        throw decimalOutOfRange(type);
      }
    }
    return decimalLongOf(BigDecimal.valueOf(d), type);
  }

  /**
   * Whether {@link #fastDecimal} gives the unscaled value of {@code bd} at the type's scale: no
   * finer fraction than the scale, at most 15 digits, and {@code |bd * 10^S| < 2^50}.
   */
  private static boolean isFastDecimal(BigDecimal bd, ClickHouseType type) {
    int bs = bd.scale();
    return bs >= 0 && bs <= type.scale() && bd.precision() <= 15
        && Math.abs(bd.doubleValue() * POW10_DOUBLE[type.scale()]) < FAST_DECIMAL_LIMIT;
  }

  /**
   * The unscaled value of a decimal that {@link #isFastDecimal} accepts, without allocating (the
   * exact path's {@code setScale(S).unscaledValue()} allocates a BigInteger per value). Its
   * unscaled value m is below 10^15 &lt; 2^52 and its scale at most 22, so {@code doubleValue()}
   * is one correctly rounded division, no allocation; {@code d * 10^S} then differs from the
   * integer {@code U = bd * 10^S} by at most {@code |U| * 2^-52 < 0.25}, and rounding gives U
   * exactly. The range check is the exact path's ({@code |U| < 10^P}, same error).
   */
  private static long fastDecimal(BigDecimal bd, ClickHouseType type) {
    long u = Math.round(bd.doubleValue() * POW10_DOUBLE[type.scale()]);
    if (u > -POW10[type.precision()] && u < POW10[type.precision()]) {
      return u;
    }
    throw decimalOutOfRange(type);
  }

  private static BigInteger decimalOfDoubleBig(double d, ClickHouseType type) {
    if (!Double.isFinite(d)) {
      throw notFiniteDecimal();
    }
    int s = type.scale();
    if (s < POW10_DOUBLE.length) {
      double scaled = d * POW10_DOUBLE[s];
      if (Math.abs(scaled) < FAST_DECIMAL_LIMIT) {
        long u = Math.round(scaled);
        if ((double) u / POW10_DOUBLE[s] == d) {
          return BigInteger.valueOf(u); // |u| < 2^50 < 10^19 <= 10^P
        }
      }
    }
    return decimalOf(BigDecimal.valueOf(d), type);
  }

  /**
   * Returns the unscaled value of {@code bd} at the type's scale, exactly: never rounded. The
   * digit count is checked before any scaling, so a huge exponent costs nothing.
   */
  private static BigInteger decimalOf(BigDecimal bd, ClickHouseType type) {
    return bd.signum() == 0 ? BigInteger.ZERO : atScale(bd, type).unscaledValue();
  }

  /**
   * As {@code decimalOf(bd, type).longValue()} for P at most 18, without the {@code BigInteger}
   * of {@code unscaledValue()}: moving the point of a value at the type's scale S places to the
   * right gives a scale-0 value of the same digits, whose {@code longValueExact()} is its
   * unscaled long (|U| < 10^18: it never overflows).
   */
  private static long decimalLongOf(BigDecimal bd, ClickHouseType type) {
    return bd.signum() == 0 ? 0 : atScale(bd, type).scaleByPowerOfTen(type.scale())
        .longValueExact();
  }

  /**
   * Returns {@code bd} at the type's scale, exactly: never rounded. The digit count is checked
   * before any scaling, so a huge exponent costs nothing.
   */
  private static BigDecimal atScale(BigDecimal bd, ClickHouseType type) {
    int p = type.precision();
    int s = type.scale();
    // precision - scale is the number of digits before the point: |bd| < 10^(P-S) iff <= P-S.
    if ((long) bd.precision() - bd.scale() > p - s) {
      throw decimalOutOfRange(type);
    }
    if (bd.scale() > s) {
      bd = bd.stripTrailingZeros();
      if (bd.scale() > s) {
        throw new Rejected("has more fraction digits than the scale " + s
            + " holds (a Decimal is never rounded)");
      }
    }
    return bd.setScale(s, RoundingMode.UNNECESSARY);
  }

  private static Rejected decimalOutOfRange(ClickHouseType type) {
    int p = type.precision();
    int s = type.scale();
    return new Rejected("is out of range: more than " + p + " digits (|x| < 10^" + (p - s)
        + " at scale " + s + ")");
  }

  private static Rejected notFiniteDecimal() {
    return new Rejected("is not finite; a Decimal holds no NaN or Infinity");
  }

  /** See {@link Conversions#decimalUnscaledFast}. */
  static long unscaledFast(Object v, int scale, double pow10Scale, long pow10ScaleLong,
      long integerLimit, long unscaledLimit) {
    if (v == null) {
      return Conversions.NOT_FAST;
    }
    Class<?> c = v.getClass();
    long u = Conversions.NOT_FAST; // below every unscaled limit
    if (c == Double.class) {
      double d = (Double) v;
      double scaled = d * pow10Scale; // NaN or infinite when d is: not here
      if (Math.abs(scaled) < FAST_DECIMAL_LIMIT) {
        long r = Math.round(scaled);
        // r and 10^S are exact doubles: r / 10^S == d iff the decimal r * 10^-S is d's.
        if ((double) r / pow10Scale == d) {
          u = r;
        }
      }
    } else if (c == Long.class || c == Integer.class) {
      long x = ((Number) v).longValue();
      if (x > -integerLimit && x < integerLimit) {
        u = x * pow10ScaleLong;
      }
    } else if (c == BigDecimal.class) {
      BigDecimal bd = (BigDecimal) v;
      int bs = bd.scale();
      if (bs >= 0 && bs <= scale && bd.precision() <= 15) {
        double scaled = bd.doubleValue() * pow10Scale;
        if (Math.abs(scaled) < FAST_DECIMAL_LIMIT) {
          u = Math.round(scaled);
        }
      }
    }
    return u > -unscaledLimit && u < unscaledLimit ? u : Conversions.NOT_FAST;
  }
}
