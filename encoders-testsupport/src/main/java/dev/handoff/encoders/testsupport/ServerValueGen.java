package dev.handoff.encoders.testsupport;

import static java.nio.charset.StandardCharsets.UTF_8;

import dev.handoff.clickhouse.type.ClickHouseType;
import dev.handoff.encoders.testsupport.ServerCanon.Bytes;
import dev.handoff.encoders.testsupport.ServerCanon.Cell;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.UUID;

/**
 * Seeded random values of any ClickHouse 18.16 type, each as a {@link Cell}: a Java input in one
 * of the forms the conversions accept (picked at random: a Long or its text, a BigDecimal or a
 * double, a LocalDate or an epoch day, ...) and the canonical value it stands for. Edge values
 * (the type's limits, -0.0, NaN, infinities, subnormals, P-digit decimals, empty and long
 * strings, day 0, the last printable second) come up about one time in six.
 *
 * <p>Dates stay within 1970-01-01..2105-12-31 and date-times within 0..4291747199 (2105-12-31
 * 23:59:59 UTC), the range 18.16 prints correctly, since every value is also checked through the
 * server's text output.
 *
 * <p>Float32 values drawn from random bits include signaling NaNs, unless the generator is made
 * with {@link FloatNaNs#QUIET} (see there).
 */
public final class ServerValueGen {
  /** The last day 18.16 prints: 2105-12-31. */
  public static final int LAST_PRINTABLE_DAY = 49_672;
  /** The last second 18.16 prints correctly: 2105-12-31 23:59:59 UTC. */
  public static final long LAST_PRINTABLE_SECOND = 4_291_747_199L;

  /** Which NaNs the Float32 values drawn from random bits may be. */
  public enum FloatNaNs {
    /** Any NaN bit pattern, signaling NaNs included. */
    ANY,
    /**
     * Quiet NaNs only (a signaling NaN gets its quiet bit set): {@code Conversions.toFloat}
     * widens a Float to a double and back, which on HotSpot/x86 sets the quiet bit of a
     * signaling NaN in interpreted code but not in JIT-compiled code, so the bytes of a signaling
     * NaN depend on JIT state. Reported; not a Native-format question.
     */
    QUIET
  }

  private static final ZoneId[] ZONES = {
    ZoneOffset.UTC, ZoneId.of("Asia/Tokyo"), ZoneId.of("America/New_York"),
    ZoneId.of("Asia/Kolkata"), ZoneOffset.ofHours(-11)
  };

  private final SplittableRandom rnd;
  private final FloatNaNs floatNaNs;

  /** Makes a generator of seed {@code seed} whose Float32 values may be any NaN. */
  public ServerValueGen(long seed) {
    this(seed, FloatNaNs.ANY);
  }

  /** Makes a generator of seed {@code seed} whose Float32 NaNs are as {@code floatNaNs} says. */
  public ServerValueGen(long seed, FloatNaNs floatNaNs) {
    this.rnd = new SplittableRandom(seed);
    this.floatNaNs = floatNaNs;
  }

  /** Returns a random array length for a Nested group, whose arrays must have equal lengths. */
  public int arraySize() {
    return rnd.nextInt(6);
  }

  private boolean edge() {
    return rnd.nextInt(6) == 0;
  }

  private <T> T pick(List<T> options) {
    return options.get(rnd.nextInt(options.size()));
  }

  /** Returns a random value of {@code t}. */
  public Cell cell(ClickHouseType t) {
    return cell(t, 0);
  }

  /** Returns a random Array value of {@code t} with exactly {@code size} elements (for Nested). */
  public Cell array(ClickHouseType t, int size) {
    return arrayOf(t, size, 1);
  }

  /**
   * Returns a random row for columns {@code names} of {@code types}: a {@link Cell} per column,
   * where the columns of one Nested (or split Array(Tuple)), named {@code group.element}, get
   * arrays of one length.
   */
  public Object[] row(List<String> names, List<ClickHouseType> types) {
    Object[] row = new Object[names.size()];
    Map<String, Integer> sizes = new LinkedHashMap<>();
    for (int c = 0; c < row.length; c++) {
      String name = names.get(c);
      int dot = name.indexOf('.');
      if (dot > 0) {
        int size = sizes.computeIfAbsent(name.substring(0, dot), k -> arraySize());
        row[c] = array(types.get(c), size);
      } else {
        row[c] = cell(types.get(c));
      }
    }
    return row;
  }

  private Cell cell(ClickHouseType t, int depth) {
    switch (t.kind()) {
      case NULLABLE:
        return rnd.nextInt(5) == 0 ? new Cell(null, null) : cell(t.element(), depth);
      case LOW_CARDINALITY:
        return cell(t.element(), depth);
      case INT8: case INT16: case INT32: case INT64:
      case UINT8: case UINT16: case UINT32: case UINT64:
        return integer(t);
      case FLOAT32:
        return float32();
      case FLOAT64:
        return float64();
      case DECIMAL:
        return decimal(t);
      case STRING:
        return string(depth);
      case FIXED_STRING:
        return fixedString(t.length());
      case DATE:
        return date();
      case DATETIME:
        return dateTime(t.zone());
      case UUID:
        return uuid();
      case ENUM8:
      case ENUM16: {
        int i = rnd.nextInt(t.enumSize());
        Object input = rnd.nextBoolean() ? t.enumName(i) : (Object) (long) t.enumValue(i);
        return new Cell(input, t.enumName(i));
      }
      case ARRAY:
        return arrayOf(t, rnd.nextInt(depth == 0 ? 6 : 4), depth + 1);
      case TUPLE: {
        int n = t.elements().size();
        Object[] in = new Object[n];
        List<Object> exp = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
          Cell c = cell(t.elements().get(i), depth + 1);
          in[i] = c.input();
          exp.add(c.expected());
        }
        return new Cell(rnd.nextBoolean() ? in : Arrays.asList(in), exp);
      }
      default:
        throw new IllegalArgumentException("no generator for " + t);
    }
  }

  private Cell arrayOf(ClickHouseType t, int size, int depth) {
    ClickHouseType e = t.element();
    Object[] in = new Object[size];
    List<Object> exp = new ArrayList<>(size);
    for (int i = 0; i < size; i++) {
      Cell c = cell(e, depth);
      in[i] = c.input();
      exp.add(c.expected());
    }
    // Primitive arrays are read without boxing: use them where the elements allow.
    if (rnd.nextInt(3) == 0) {
      switch (e.kind()) {
        case INT32: {
          int[] a = new int[size];
          for (int i = 0; i < size; i++) {
            a[i] = ((BigInteger) exp.get(i)).intValueExact();
          }
          return new Cell(a, exp);
        }
        case INT64: {
          long[] a = new long[size];
          for (int i = 0; i < size; i++) {
            a[i] = ((BigInteger) exp.get(i)).longValueExact();
          }
          return new Cell(a, exp);
        }
        case FLOAT64: {
          double[] a = new double[size];
          for (int i = 0; i < size; i++) {
            a[i] = (Double) exp.get(i);
          }
          return new Cell(a, exp);
        }
        default:
          break;
      }
    }
    return new Cell(rnd.nextBoolean() ? in : new ArrayList<>(Arrays.asList(in)), exp);
  }

  /* ------------------------------------------------------------------ scalars */

  private static BigInteger[] range(ClickHouseType t) {
    int bits = t.fixedWidth() * 8;
    boolean unsigned = t.kind().name().startsWith("U");
    return unsigned
        ? new BigInteger[] {BigInteger.ZERO, BigInteger.ONE.shiftLeft(bits).subtract(BigInteger.ONE)}
        : new BigInteger[] {BigInteger.ONE.shiftLeft(bits - 1).negate(),
            BigInteger.ONE.shiftLeft(bits - 1).subtract(BigInteger.ONE)};
  }

  private Cell integer(ClickHouseType t) {
    BigInteger[] r = range(t);
    boolean unsigned = r[0].signum() == 0;
    int bits = t.fixedWidth() * 8;
    BigInteger v;
    if (edge()) {
      v = pick(List.of(r[0], r[1], BigInteger.ZERO, BigInteger.ONE, r[0].add(BigInteger.ONE),
          r[1].subtract(BigInteger.ONE), unsigned ? BigInteger.TWO : BigInteger.ONE.negate()));
    } else {
      int magnitudeBits = 1 + rnd.nextInt(unsigned ? bits : bits - 1); // spread the magnitudes
      long raw = magnitudeBits == 64 ? rnd.nextLong() : rnd.nextLong() & ((1L << magnitudeBits) - 1);
      v = raw >= 0 ? BigInteger.valueOf(raw) : BigInteger.valueOf(raw).add(BigInteger.ONE.shiftLeft(64));
      if (!unsigned && rnd.nextBoolean()) {
        v = v.negate().subtract(BigInteger.ONE);
      }
    }
    Object input;
    if (v.bitLength() < 64) {
      long l = v.longValue();
      switch (rnd.nextInt(7)) {
        case 0: input = v.toString(); break;
        case 1: input = v; break;
        case 2: input = new BigDecimal(v).setScale(rnd.nextInt(3)); break;
        case 3: input = Math.abs(l) <= (1L << 53) ? (Object) (double) l : (Object) l; break;
        case 4: input = l == (int) l ? (Object) (int) l : (Object) l; break;
        default: input = l; break;
      }
    } else {
      input = rnd.nextBoolean() ? v : v.toString();
    }
    return new Cell(input, v);
  }

  private static final List<Float> FLOAT_EDGES = List.of(-0.0f, 0.0f, Float.NaN,
      Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY, Float.MIN_VALUE, -Float.MIN_VALUE,
      Float.MIN_NORMAL, Float.intBitsToFloat(0x007F_FFFF), Float.MAX_VALUE, -Float.MAX_VALUE,
      0.1f, 1e-7f, 16_777_216f, Float.intBitsToFloat(0x7FC0_0001));

  private Cell float32() {
    float f;
    if (edge()) {
      f = pick(FLOAT_EDGES);
    } else if (rnd.nextBoolean()) {
      int bits = rnd.nextInt();
      if (floatNaNs == FloatNaNs.QUIET
          && (bits & 0x7F80_0000) == 0x7F80_0000 && (bits & 0x007F_FFFF) != 0) {
        bits |= 0x0040_0000; // see FloatNaNs.QUIET
      }
      f = Float.intBitsToFloat(bits);
    } else {
      f = (rnd.nextInt(2_000_001) - 1_000_000) / 64f;
    }
    Object input;
    switch (rnd.nextInt(4)) {
      case 0: input = Float.toString(f); break; // NaN, Infinity, 1.4E-45: all accepted
      case 1: input = (double) f; break;
      default: input = f; break;
    }
    return new Cell(input, f);
  }

  private static final List<Double> DOUBLE_EDGES = List.of(-0.0, 0.0, Double.NaN,
      Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, Double.MIN_VALUE, -Double.MIN_VALUE,
      Double.MIN_NORMAL, Double.longBitsToDouble(0x000F_FFFF_FFFF_FFFFL), Double.MAX_VALUE,
      -Double.MAX_VALUE, 0.1, 1e-300, 9_007_199_254_740_992.0,
      Double.longBitsToDouble(0xFFF8_0000_0000_0001L));

  private Cell float64() {
    double d;
    if (edge()) {
      d = pick(DOUBLE_EDGES);
    } else if (rnd.nextBoolean()) {
      d = Double.longBitsToDouble(rnd.nextLong());
    } else {
      d = (rnd.nextLong(2_000_000_001L) - 1_000_000_000L) / 1024.0;
    }
    Object input;
    if (rnd.nextInt(4) == 0) {
      input = Double.toString(d);
    } else if (rnd.nextInt(4) == 0 && d == Math.rint(d) && Math.abs(d) < 0x1p53
        && Double.doubleToRawLongBits(d) != Double.doubleToRawLongBits(-0.0)) {
      input = (long) d;
    } else {
      input = d;
    }
    return new Cell(input, d);
  }

  private Cell decimal(ClickHouseType t) {
    int p = t.precision();
    int s = t.scale();
    BigInteger max = BigInteger.TEN.pow(p).subtract(BigInteger.ONE);
    BigInteger unscaled;
    if (edge()) {
      unscaled = pick(List.of(max, max.negate(), BigInteger.ZERO, BigInteger.ONE,
          BigInteger.ONE.negate()));
    } else {
      int digits = 1 + rnd.nextInt(p);
      StringBuilder sb = new StringBuilder();
      for (int i = 0; i < digits; i++) {
        sb.append((char) ('0' + rnd.nextInt(10)));
      }
      unscaled = new BigInteger(sb.toString());
      if (rnd.nextBoolean()) {
        unscaled = unscaled.negate();
      }
    }
    BigDecimal v = new BigDecimal(unscaled, s);
    Object input;
    switch (rnd.nextInt(5)) {
      case 0:
        input = v.toPlainString();
        break;
      case 1:
        input = v.setScale(s + 2).toPlainString(); // trailing zeros: exact, accepted
        break;
      case 2:
        if (unscaled.abs().bitLength() < 49 && v.precision() <= 15) {
          input = v.doubleValue();
        } else {
          input = v;
        }
        break;
      case 3:
        input = s == 0 && unscaled.bitLength() < 64 ? (Object) unscaled.longValue() : v.toString();
        break;
      default:
        input = v;
        break;
    }
    return new Cell(input, v);
  }

  private static final String ALPHABET =
      "abcXYZ019 _-'\"\\\t\n\r\0\b\f[](),;é€中\uD83D\uDE00";

  private Cell string(int depth) {
    int length;
    int shape = rnd.nextInt(10_000);
    if (shape < 800) {
      length = 0;
    } else if (shape < 9_800) {
      length = rnd.nextInt(24);
    } else if (shape < 9_998) {
      length = pick(List.of(127, 128, 129, 200, 1000));
    } else {
      length = depth > 0 ? 300 : pick(List.of(16_383, 16_384, 16_385, 20_000));
    }
    if (rnd.nextInt(4) == 0) {
      byte[] b = new byte[length];
      for (int i = 0; i < length; i++) {
        b[i] = (byte) rnd.nextInt(256); // any bytes: invalid UTF-8, NULs
      }
      return new Cell(b, new Bytes(b));
    }
    StringBuilder sb = new StringBuilder();
    while (sb.length() < length) {
      if (rnd.nextInt(3) == 0) {
        int at = rnd.nextInt(ALPHABET.length() - 1);
        if (Character.isHighSurrogate(ALPHABET.charAt(at))) {
          sb.append(ALPHABET, at, at + 2);
        } else if (!Character.isLowSurrogate(ALPHABET.charAt(at))) {
          sb.append(ALPHABET.charAt(at));
        }
      } else {
        sb.append((char) ('a' + rnd.nextInt(26)));
      }
    }
    String s = sb.toString();
    Object input;
    switch (rnd.nextInt(5)) {
      case 0: input = new StringBuilder(s); break;
      case 1: input = s.toCharArray(); break;
      case 2: input = s.getBytes(UTF_8); break;
      default: input = s; break;
    }
    return new Cell(input, Bytes.utf8(s));
  }

  private Cell fixedString(int n) {
    if (rnd.nextBoolean()) {
      byte[] b = new byte[rnd.nextInt(n + 1)];
      for (int i = 0; i < b.length; i++) {
        b[i] = (byte) rnd.nextInt(256);
      }
      return new Cell(b, new Bytes(b));
    }
    StringBuilder sb = new StringBuilder();
    int budget = rnd.nextInt(n + 1);
    while (true) {
      String c = rnd.nextInt(4) == 0 ? pick(List.of("é", "€", "\0", "'", "\\")) : "x";
      if (sb.toString().getBytes(UTF_8).length + c.getBytes(UTF_8).length > budget) {
        break;
      }
      sb.append(c);
    }
    return new Cell(sb.toString(), Bytes.utf8(sb.toString()));
  }

  private Cell date() {
    int day = edge() ? pick(List.of(0, 1, LAST_PRINTABLE_DAY, 11_016, 19_797))
        : rnd.nextInt(LAST_PRINTABLE_DAY + 1);
    LocalDate d = LocalDate.ofEpochDay(day);
    Object input;
    switch (rnd.nextInt(5)) {
      case 0: input = (long) day; break;
      case 1: input = d.toString(); break;
      case 2: input = d.atTime(LocalTime.ofSecondOfDay(rnd.nextInt(86_400))); break;
      case 3: input = d.atStartOfDay(ZoneOffset.UTC).toInstant().plusSeconds(rnd.nextInt(86_400));
        break;
      default: input = d; break;
    }
    return new Cell(input, d);
  }

  private Cell dateTime(ZoneId zone) {
    long second = edge() ? pick(List.of(0L, 1L, LAST_PRINTABLE_SECOND, 1_710_513_000L, 86_399L))
        : rnd.nextLong(LAST_PRINTABLE_SECOND + 1);
    Instant at = Instant.ofEpochSecond(second);
    Object input;
    switch (rnd.nextInt(7)) {
      case 0: input = second; break;
      case 1: input = Long.toString(second); break;
      case 2: input = at.plusNanos(rnd.nextInt(1_000_000_000)); break; // fraction: floored
      case 3: input = at.atZone(ZONES[rnd.nextInt(ZONES.length)]); break;
      case 4: input = OffsetDateTime.ofInstant(at, ZONES[rnd.nextInt(ZONES.length)]); break;
      case 5:
        // Local time in the column's zone; UTC and Asia/Tokyo have no DST after 1970.
        input = LocalDateTime.ofInstant(at, zone);
        break;
      default:
        input = at.toString();
        break;
    }
    return new Cell(input, at);
  }

  private Cell uuid() {
    UUID u = edge() ? pick(List.of(new UUID(0, 0), new UUID(-1, -1),
        UUID.fromString("00112233-4455-6677-8899-aabbccddeeff")))
        : new UUID(rnd.nextLong(), rnd.nextLong());
    Object input = switch (rnd.nextInt(3)) {
      case 0 -> u.toString();
      case 1 -> u.toString().toUpperCase(Locale.ROOT);
      default -> u;
    };
    return new Cell(input, u);
  }
}
