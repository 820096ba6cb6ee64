package dev.handoff.encoders.testsupport;

import static dev.handoff.encoders.testsupport.DiffModel.pick;
import static dev.handoff.encoders.testsupport.DiffModel.pickDouble;
import static dev.handoff.encoders.testsupport.DiffModel.pickFloat;

import dev.handoff.clickhouse.type.ClickHouseType;
import dev.handoff.clickhouse.type.TypeKind;
import dev.handoff.encoders.testsupport.DiffModel.V;
import dev.handoff.encoders.testsupport.DiffValues.F32;
import dev.handoff.encoders.testsupport.DiffValues.F64;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Seeded values of the number families for the differential properties: Int and UInt of 8 to
 * 256 bits, Float32, Float64 and Decimal, edge values included, each in one of the input forms
 * the conversions accept (boxed numbers, BigInteger, BigDecimal, text, ...).
 */
public final class DiffNumbers {
  private DiffNumbers() {}

  /** 2^53, the largest magnitude up to which every integer is a double. */
  public static final BigInteger TWO_53 = BigInteger.ONE.shiftLeft(53);

  /** Returns the width of integer family {@code k} in bits. */
  public static int bits(TypeKind k) {
    return k.fixedWidth() * 8;
  }

  /** Returns whether integer family {@code k} is signed. */
  public static boolean signed(TypeKind k) {
    return k.name().startsWith("INT");
  }

  /** Returns a random integer in the range of family {@code k}: edges, small, any magnitude. */
  public static BigInteger intValue(SplittableRandom r, TypeKind k) {
    int bits = bits(k);
    boolean signed = signed(k);
    BigInteger min = signed ? BigInteger.ONE.shiftLeft(bits - 1).negate() : BigInteger.ZERO;
    BigInteger max = signed ? BigInteger.ONE.shiftLeft(bits - 1).subtract(BigInteger.ONE)
        : BigInteger.ONE.shiftLeft(bits).subtract(BigInteger.ONE);
    switch (r.nextInt(5)) {
      case 0: {
        List<BigInteger> edges = new ArrayList<>(List.of(min, max, BigInteger.ZERO,
            BigInteger.ONE, min.add(BigInteger.ONE), max.subtract(BigInteger.ONE)));
        for (long e : new long[] {-1, 127, 128, 255, 256, 32767, 32768, 65535, 65536,
            Integer.MAX_VALUE, 1L << 31, 0xFFFF_FFFFL, Long.MAX_VALUE, Long.MIN_VALUE}) {
          edges.add(BigInteger.valueOf(e));
        }
        edges.add(BigInteger.ONE.shiftLeft(63));
        edges.add(BigInteger.ONE.shiftLeft(64).subtract(BigInteger.ONE));
        edges.add(BigInteger.ONE.shiftLeft(127).negate());
        edges.removeIf(e -> e.compareTo(min) < 0 || e.compareTo(max) > 0);
        return edges.get(r.nextInt(edges.size()));
      }
      case 1: {
        BigInteger v = BigInteger.valueOf(r.nextInt(-300, 300));
        return signed ? v.max(min).min(max) : v.abs().min(max);
      }
      default: {
        byte[] bytes = new byte[bits / 8];
        for (int i = 0; i < bytes.length; i++) {
          bytes[i] = (byte) r.nextInt(256);
        }
        BigInteger v = signed ? new BigInteger(bytes) : new BigInteger(1, bytes);
        return v.shiftRight(r.nextInt(bits)); // every magnitude, sign kept
      }
    }
  }

  /** Returns integer {@code v} in one of the forms the integer columns accept. */
  public static V intInput(SplittableRandom r, BigInteger v) {
    List<Object> forms = new ArrayList<>(List.of(v, v.toString(), new BigDecimal(v)));
    if (v.bitLength() <= 63) {
      forms.add(v.longValue());
      forms.add(v.longValue());
      forms.add(new AtomicLong(v.longValue()));
      forms.add((v.signum() >= 0 ? "+" : "") + v); // an explicit sign
    }
    if (v.bitLength() <= 31) {
      forms.add(v.intValue());
      forms.add(new AtomicInteger(v.intValue()));
    }
    if (v.signum() != 0 && v.mod(BigInteger.valueOf(1000)).signum() == 0) {
      forms.add(v.divide(BigInteger.valueOf(1000)) + "e3"); // an integer in exponent notation
    }
    if (v.bitLength() <= 15) {
      forms.add(v.shortValue());
    }
    if (v.bitLength() <= 7) {
      forms.add(v.byteValue());
    }
    if (v.abs().compareTo(TWO_53) <= 0) {
      forms.add(v.doubleValue()); // an integral double
      forms.add(new BigDecimal(v).setScale(2).toPlainString()); // "42.00"
    }
    if (v.equals(BigInteger.ZERO) || v.equals(BigInteger.ONE)) {
      forms.add(v.equals(BigInteger.ONE));
    }
    return V.of(forms.get(r.nextInt(forms.size())), v);
  }

  /**
   * Returns a random Float32 value (edges, any bits, NaN payloads included, or a double that
   * rounds to a float) in one of its input forms.
   */
  public static V float32Value(SplittableRandom r) {
    if (r.nextInt(6) == 0) {
      // A double that is not a float: rounded to the nearest float (text: straight to a float).
      double x = (r.nextDouble() - 0.5) * Math.pow(10, r.nextInt(-30, 30));
      float f = (float) x;
      if (f != 0 && !Float.isInfinite(f)) {
        // An integer (text or BigDecimal) must be exact, like a long: only a fraction rounds.
        return V.of(x == Math.rint(x) ? x : pick(r, x, new BigDecimal(x),
            new BigDecimal(x).toString()), new F32(f));
      }
    }
    float f;
    switch (r.nextInt(4)) {
      case 0:
        f = pickFloat(r, 0f, -0f, Float.NaN, Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY,
            Float.MIN_VALUE, -Float.MIN_VALUE, Float.MAX_VALUE, -Float.MAX_VALUE,
            Float.MIN_NORMAL, 1f, -1f, 0.1f, 16_777_216f, 16_777_217f);
        break;
      case 1:
        f = Float.intBitsToFloat(r.nextInt()); // any bits, NaN payloads included
        break;
      default:
        f = (float) ((r.nextDouble() - 0.5) * Math.pow(10, r.nextInt(-10, 12)));
    }
    List<Object> forms = new ArrayList<>(List.of(f, f, (double) f));
    if (Float.isNaN(f)) {
      forms.add(pick(r, "nan", "NaN", "-nan"));
    } else if (Float.isInfinite(f)) {
      forms.add(f > 0 ? pick(r, "inf", "+inf", "Infinity") : pick(r, "-inf", "-INF", "-infinity"));
    } else if (f != 0 || 1 / f > 0) { // BigDecimal and integer text have no -0.0
      forms.add(Float.toString(f));
      forms.add(new BigDecimal((double) f));
      forms.add(new BigDecimal((double) f).toString());
      if (f == Math.rint(f) && Math.abs(f) < 0x1p62) {
        forms.add((long) f);
      }
    } else {
      forms.add("-0.0"); // decimal text keeps the sign (BigDecimal cannot, integer text 0 is +0)
    }
    return V.of(forms.get(r.nextInt(forms.size())), new F32(f));
  }

  /**
   * Returns a random Float64 value (edges, any bits, or text with more digits than a double
   * holds) in one of its input forms.
   */
  public static V float64Value(SplittableRandom r) {
    if (r.nextInt(6) == 0) {
      // More digits than a double holds: rounded to the nearest double.
      StringBuilder digits = new StringBuilder(r.nextBoolean() ? "-" : "");
      digits.append(1 + r.nextInt(9)).append('.');
      for (int i = 0, n = 17 + r.nextInt(10); i < n; i++) {
        digits.append(r.nextInt(10));
      }
      String text = digits.append('e').append(r.nextInt(-300, 300)).toString();
      double d = Double.parseDouble(text);
      return V.of(pick(r, text, new BigDecimal(text)), new F64(d));
    }
    double d;
    switch (r.nextInt(4)) {
      case 0:
        d = pickDouble(r, 0d, -0d, Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY,
            Double.MIN_VALUE, -Double.MIN_VALUE, Double.MAX_VALUE, -Double.MAX_VALUE,
            Double.MIN_NORMAL, 1d, -1d, 0.1d, 0x1p53, 0x1p53 + 2, 1e300, 1e-300);
        break;
      case 1:
        d = Double.longBitsToDouble(r.nextLong());
        break;
      default:
        d = (r.nextDouble() - 0.5) * Math.pow(10, r.nextInt(-20, 20));
    }
    List<Object> forms = new ArrayList<>(List.of(d, d));
    if (Double.isNaN(d)) {
      forms.add(Float.NaN);
      forms.add(pick(r, "nan", "NAN"));
    } else if (Double.isInfinite(d)) {
      forms.add(d > 0 ? "inf" : "-inf");
      forms.add(d > 0 ? Float.POSITIVE_INFINITY : Float.NEGATIVE_INFINITY);
    } else if (d != 0 || 1 / d > 0) {
      forms.add(Double.toString(d));
      forms.add(BigDecimal.valueOf(d));
      if ((float) d == d) {
        forms.add((float) d);
      }
      if (d == Math.rint(d) && Math.abs(d) < 0x1p62) {
        forms.add((long) d);
      }
    } else {
      forms.add(-0f);
      forms.add("-0.0");
    }
    return V.of(forms.get(r.nextInt(forms.size())), new F64(d));
  }

  /** Returns a random value of Decimal type {@code t} (edges included) in one of its input forms. */
  public static V decimalValue(SplittableRandom r, ClickHouseType t) {
    int p = t.precision();
    int s = t.scale();
    BigInteger max = BigInteger.TEN.pow(p).subtract(BigInteger.ONE);
    BigInteger u;
    if (r.nextInt(3) == 0) {
      List<BigInteger> edges = new ArrayList<>(List.of(BigInteger.ZERO, BigInteger.ONE,
          BigInteger.ONE.negate(), max, max.negate(), BigInteger.TEN.pow(p - 1),
          BigInteger.TEN.pow(p - 1).negate()));
      if (s < p) {
        edges.add(BigInteger.TEN.pow(s)); // 1
        edges.add(BigInteger.TEN.pow(s).negate());
      }
      u = edges.get(r.nextInt(edges.size()));
    } else {
      int digits = 1 + r.nextInt(p);
      StringBuilder sb = new StringBuilder(r.nextBoolean() ? "-" : "");
      for (int i = 0; i < digits; i++) {
        sb.append((char) ('0' + r.nextInt(10)));
      }
      u = new BigInteger(sb.toString());
    }
    BigDecimal bd = new BigDecimal(u, s);
    List<Object> forms = new ArrayList<>(List.of(bd, bd, bd.toPlainString(), bd.toString(),
        bd.stripTrailingZeros(), bd.stripTrailingZeros().toString(),
        bd.setScale(s + 1 + r.nextInt(3))));
    if (bd.signum() == 0 || bd.stripTrailingZeros().scale() <= 0) {
      BigInteger whole = bd.toBigIntegerExact();
      forms.add(whole);
      if (whole.bitLength() <= 63) {
        forms.add(whole.longValue());
      }
    }
    double d = bd.doubleValue();
    if (BigDecimal.valueOf(d).compareTo(bd) == 0) {
      forms.add(d); // the double's shortest decimal is this value
    }
    return V.of(forms.get(r.nextInt(forms.size())), bd);
  }
}
