package dev.handoff.encoders.clickhouse;

import static org.assertj.core.api.Assertions.assertThat;

import dev.handoff.api.ChunkBuffer;
import dev.handoff.api.ErrorClass;
import dev.handoff.api.HandoffException;
import dev.handoff.api.ColumnSpec;
import dev.handoff.api.spi.RowEncoder;
import dev.handoff.api.TableSchema;
import dev.handoff.clickhouse.row.RowAccessors;
import dev.handoff.encoders.clickhouse.internal.NativeEncoderProvider;
import dev.handoff.encoders.rowbinary.internal.RowBinaryEncoderProvider;
import dev.handoff.testkit.Gen;
import dev.handoff.testkit.SeedSweep;
import dev.handoff.testkit.Shrink;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.UUID;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

/**
 * Per-row atomicity of the {@code native} encoder, over seeded random schemas (any
 * nesting of Nullable, LowCardinality, Map, Tuple and Array over every scalar family) and random
 * rows, a third of them carrying one bad value at a random column (a string into an Int column,
 * an out-of-range integer, a too-long FixedString, an unknown enum name, a null into a
 * non-Nullable column, a bad element deep inside arrays, tuples and maps, a tuple of the wrong
 * arity), with finishChunk at random points.
 *
 * <p>Which rows are bad is decided by the {@code rowbinary} encoder over the same schema, which
 * shares the conversions: the native encoder must refuse exactly those rows, with a {@code DATA}
 * error and the same message. Then, after any sequence:
 *
 * <ul>
 *   <li>each block finishChunk writes equals, byte for byte, the block a fresh encoder writes
 *       for only that block's good rows (so the block decodes cleanly and holds exactly them:
 *       offsets, null maps, nested buffers and LowCardinality dictionaries all rolled back);
 *   <li>{@code bufferedBytes()} after every row equals the size of the block the good rows so far
 *       make, and is unchanged by a refused row.
 * </ul>
 *
 * Failures are shrunk (steps, then columns) and report the seed: rerun with {@code
 * -Dhandoff.seed=N}.
 */
final class NativeRollbackProperties {

  private static final NativeEncoderProvider NATIVE = new NativeEncoderProvider();
  private static final RowBinaryEncoderProvider ROWBINARY = new RowBinaryEncoderProvider();

  /** Rows the sweep saw refused and accepted: the property must actually exercise rollback. */
  private static int refused;
  private static int refusedPastColumn0;
  private static int accepted;

  @Test
  void finishedBlock_equalsTheBlockOfOnlyTheGoodRows_afterAnySequence() {
    refused = 0;
    refusedPastColumn0 = 0;
    accepted = 0;
    SeedSweep.run("native block after refused rows == block of the good rows only", 1, 400,
        CASES::sample, c -> check(c, false), SHRINK);
    // The generator is meant to make about a third of the rows bad; rowbinary decides which are.
    assertThat(refused).as("rows refused in the sweep").isGreaterThan(accepted / 4);
    assertThat(refusedPastColumn0).as("refused rows whose bad value was not in column 0")
        .isGreaterThan(refused / 3);
  }

  @Test
  void bufferedBytes_equalsTheFinishedBlockSize_afterEveryRow() {
    SeedSweep.run("bufferedBytes() == size of the block the good rows so far make", 10_001,
        200, CASES::sample, c -> check(c, true), SHRINK);
  }

  /* ------------------------------------------------------------------ the property */

  private static boolean check(Case c, boolean sizes) {
    TableSchema schema = c.schema();
    RowEncoder<Object[]> encoder = NATIVE.create(schema, RowAccessors.objectArray(), Map.of());
    RowEncoder<Object[]> oracle = ROWBINARY.create(schema, RowAccessors.objectArray(), Map.of());
    ChunkBuffer out = new ChunkBuffer(64);
    ChunkBuffer scratch = new ChunkBuffer(64);
    List<Object[]> good = new ArrayList<>(); // the good rows of the current block
    int stepNo = 0;
    for (Object[] step : c.steps()) {
      stepNo++;
      if (step == FINISH) {
        finishAndCompare(c, schema, encoder, out, good, stepNo);
        continue;
      }
      String expectedError = null;
      scratch.truncate(0);
      try {
        oracle.encode(step, scratch);
      } catch (HandoffException e) {
        expectedError = e.getMessage();
      }
      int bufferedBefore = encoder.bufferedBytes();
      int outBefore = out.length();
      try {
        encoder.encode(step, out);
        if (expectedError != null) {
          throw new AssertionError("step " + stepNo + ": native accepted a row rowbinary refuses"
              + " with [" + expectedError + "]: " + render(step));
        }
        good.add(step);
        accepted++;
      } catch (HandoffException e) {
        if (expectedError == null) {
          throw new AssertionError("step " + stepNo + ": native refused a row rowbinary accepts: "
              + e.getMessage() + ": " + render(step), e);
        }
        if (e.errorClass() != ErrorClass.DATA || !e.getMessage().equals(expectedError)) {
          throw new AssertionError("step " + stepNo + ": expected DATA [" + expectedError
              + "], got " + e.errorClass() + " [" + e.getMessage() + "]", e);
        }
        refused++;
        if (!e.getMessage().contains("column \"c0\"")) {
          refusedPastColumn0++;
        }
        if (sizes && encoder.bufferedBytes() != bufferedBefore) {
          throw new AssertionError("step " + stepNo + ": bufferedBytes() went from "
              + bufferedBefore + " to " + encoder.bufferedBytes() + " over a refused row");
        }
      }
      if (out.length() != outBefore) {
        throw new AssertionError("step " + stepNo + ": encode wrote into the chunk buffer");
      }
      if (sizes) {
        int expected = blockOf(schema, good).length;
        if (encoder.bufferedBytes() != expected) {
          throw new AssertionError("step " + stepNo + ": bufferedBytes() is "
              + encoder.bufferedBytes() + ", the block of the " + good.size()
              + " good row(s) so far is " + expected + " bytes");
        }
      }
    }
    finishAndCompare(c, schema, encoder, out, good, stepNo + 1);
    return true;
  }

  private static void finishAndCompare(Case c, TableSchema schema, RowEncoder<Object[]> encoder,
      ChunkBuffer out, List<Object[]> good, int stepNo) {
    int before = out.length();
    encoder.finishChunk(out);
    byte[] actual = Arrays.copyOfRange(out.toByteArray(), before, out.length());
    byte[] expected = blockOf(schema, good);
    if (!Arrays.equals(actual, expected)) {
      int at = 0;
      while (at < Math.min(actual.length, expected.length) && actual[at] == expected[at]) {
        at++;
      }
      int from = Math.max(0, at - 8);
      throw new AssertionError("finishChunk at step " + stepNo + ": the block of " + good.size()
          + " good row(s) differs from a fresh encoder's at offset " + at + " (expected "
          + expected.length + " bytes, got " + actual.length + ")"
          + "\n  expected [" + from + "..]: " + hex(expected, from, at + 24)
          + "\n  actual   [" + from + "..]: " + hex(actual, from, at + 24));
    }
    if (encoder.bufferedBytes() != 0) {
      throw new AssertionError("bufferedBytes() is " + encoder.bufferedBytes()
          + " after finishChunk");
    }
    good.clear();
  }

  /** The block a fresh encoder writes for {@code rows}. */
  private static byte[] blockOf(TableSchema schema, List<Object[]> rows) {
    RowEncoder<Object[]> fresh = NATIVE.create(schema, RowAccessors.objectArray(), Map.of());
    ChunkBuffer b = new ChunkBuffer(64);
    for (Object[] r : rows) {
      fresh.encode(r, b);
    }
    fresh.finishChunk(b);
    return b.toByteArray();
  }

  private static String hex(byte[] b, int from, int to) {
    return HexFormat.ofDelimiter(" ").formatHex(b, Math.min(from, b.length),
        Math.min(to, b.length));
  }

  /* ------------------------------------------------------------------ cases */

  /** A marker step: call finishChunk here. */
  private static final Object[] FINISH = new Object[0];

  /** Column types, and steps: rows (one value per column) or {@link #FINISH}. */
  record Case(List<String> types, List<Object[]> steps) {
    TableSchema schema() {
      List<ColumnSpec> cols = new ArrayList<>();
      for (int i = 0; i < types.size(); i++) {
        cols.add(new ColumnSpec("c" + i, types.get(i)));
      }
      return new TableSchema(cols);
    }

    @Override
    public String toString() {
      StringBuilder sb = new StringBuilder("schema ").append(types).append(", steps:");
      for (Object[] s : steps) {
        sb.append("\n    ").append(s == FINISH ? "finishChunk" : render(s));
      }
      return sb.toString();
    }
  }

  static final Gen<Case> CASES = NativeRollbackProperties::randomCase;

  private static Case randomCase(SplittableRandom rnd) {
    int columns = 1 + rnd.nextInt(5);
    List<String> types = new ArrayList<>();
    for (int i = 0; i < columns; i++) {
      types.add(type(rnd, 0));
    }
    List<Object[]> steps = new ArrayList<>();
    int n = 1 + rnd.nextInt(25);
    for (int s = 0; s < n; s++) {
      if (rnd.nextInt(10) == 0) {
        steps.add(FINISH);
        continue;
      }
      Object[] row = new Object[columns];
      for (int i = 0; i < columns; i++) {
        row[i] = good(types.get(i), rnd);
      }
      if (rnd.nextInt(3) == 0) {
        // one bad value, at a column chosen at random; late columns make earlier ones roll back
        int start = rnd.nextInt(columns);
        for (int k = 0; k < columns; k++) {
          int col = (start + k) % columns;
          Object bad = bad(types.get(col), rnd);
          if (bad != NO_BAD) {
            row[col] = bad;
            break;
          }
        }
      }
      steps.add(row);
    }
    return new Case(types, steps);
  }

  private static final String[] SCALARS = {
    "Int8", "Int16", "Int32", "Int64", "UInt8", "UInt16", "UInt32", "UInt64", "Int128",
    "UInt128", "Int256", "UInt256", "Float32", "Float64", "Decimal(9, 2)", "Decimal(18, 4)",
    "Decimal(38, 10)", "Decimal(76, 6)", "String", "FixedString(3)", "Date", "Date32",
    "DateTime", "DateTime('Asia/Tokyo')", "DateTime64(3)", "UUID", "Enum8('a' = 1, 'b' = 2)",
    "Enum16('x' = -1000, 'y' = 1000)", "Bool", "IPv4", "IPv6",
    // ClickHouse 20-26 (issue 15)
    "BFloat16", "Time", "Time64(3)", "Point", "Ring", "QBit(Float32, 3)", "QBit(Int8, 16, 8)",
    "SimpleAggregateFunction(max, Int32)"
  };

  private static final String[] LC_INNER = {
    "String", "FixedString(3)", "Int32", "UInt64", "Nullable(String)", "Nullable(Int32)",
    "Date", "DateTime", "Float64", "Nullable(FixedString(3))", "BFloat16", "Nullable(Time)"
  };

  private static final String[] MAP_KEYS = {"String", "Int32", "LowCardinality(String)", "UUID"};

  private static String type(SplittableRandom rnd, int depth) {
    int pick = rnd.nextInt(depth >= 3 ? 6 : 12);
    switch (pick) {
      case 0: case 1: case 2: case 3:
        return SCALARS[rnd.nextInt(SCALARS.length)];
      case 4: {
        String scalar = SCALARS[rnd.nextInt(SCALARS.length)];
        return scalar.equals("Ring") ? scalar : "Nullable(" + scalar + ")"; // an array
      }
      case 5:
        return "LowCardinality(" + LC_INNER[rnd.nextInt(LC_INNER.length)] + ")";
      case 6: case 7: case 8:
        return "Array(" + type(rnd, depth + 1) + ")";
      case 9: {
        int k = 1 + rnd.nextInt(3);
        List<String> e = new ArrayList<>();
        for (int i = 0; i < k; i++) {
          e.add(type(rnd, depth + 1));
        }
        String tuple = "Tuple(" + String.join(", ", e) + ")";
        return rnd.nextInt(4) == 0 ? "Nullable(" + tuple + ")" : tuple; // 26.x
      }
      default:
        return "Map(" + MAP_KEYS[rnd.nextInt(MAP_KEYS.length)] + ", " + type(rnd, depth + 1)
            + ")";
    }
  }

  /* ------------------------------------------------------------------ values */

  private static final Object NO_BAD = new Object();

  /** A value of {@code type} the conversions accept. */
  static Object good(String type, SplittableRandom rnd) {
    if (type.startsWith("Nullable(")) {
      return rnd.nextInt(4) == 0 ? null : good(inner(type, "Nullable("), rnd);
    }
    if (type.startsWith("LowCardinality(")) {
      return good(inner(type, "LowCardinality("), rnd);
    }
    if (type.startsWith("Array(")) {
      String e = inner(type, "Array(");
      int n = rnd.nextInt(4);
      List<Object> list = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        list.add(good(e, rnd));
      }
      return list;
    }
    if (type.startsWith("Tuple(")) {
      List<String> es = split(inner(type, "Tuple("));
      List<Object> t = new ArrayList<>();
      for (String e : es) {
        t.add(good(e, rnd));
      }
      return rnd.nextBoolean() ? t : t.toArray();
    }
    if (type.startsWith("Map(")) {
      List<String> kv = split(inner(type, "Map("));
      Map<Object, Object> m = new LinkedHashMap<>();
      int n = rnd.nextInt(3);
      for (int i = 0; i < n; i++) {
        Object k = good(kv.get(0), rnd);
        if (!m.containsKey(k)) {
          m.put(k, good(kv.get(1), rnd));
        }
      }
      return m;
    }
    switch (type) {
      case "Int8": return (long) rnd.nextInt(-128, 128);
      case "Int16": return (long) rnd.nextInt(-32768, 32768);
      case "Int32": return rnd.nextInt(4) == 0 ? Integer.MIN_VALUE : rnd.nextInt(-5, 5);
      case "Int64": return rnd.nextLong();
      case "UInt8": return (long) rnd.nextInt(256);
      case "UInt16": return (long) rnd.nextInt(65536);
      case "UInt32": return rnd.nextLong(1L << 32);
      case "UInt64": return rnd.nextBoolean() ? (Object) rnd.nextLong(Long.MAX_VALUE)
          : new BigInteger("18446744073709551615");
      case "Int128": return new BigInteger(120, new java.util.Random(rnd.nextLong()))
          .multiply(BigInteger.valueOf(rnd.nextBoolean() ? 1 : -1));
      case "UInt128": return new BigInteger(128, new java.util.Random(rnd.nextLong()));
      case "Int256": return new BigInteger(250, new java.util.Random(rnd.nextLong())).negate();
      case "UInt256": return new BigInteger(256, new java.util.Random(rnd.nextLong()));
      case "Float32": return rnd.nextInt(10) == 0 ? Float.NaN : (float) rnd.nextInt(-100, 100) / 4;
      case "Float64": return rnd.nextInt(10) == 0 ? -0.0 : rnd.nextDouble();
      case "Decimal(9, 2)": return BigDecimal.valueOf(rnd.nextLong(-999_999_999L, 1_000_000_000L), 2);
      case "Decimal(18, 4)": return BigDecimal.valueOf(rnd.nextLong(-999_999_999_999L, 1L << 40), 4);
      case "Decimal(38, 10)": return new BigDecimal(new BigInteger(100, new java.util.Random(
          rnd.nextLong())), 10);
      case "Decimal(76, 6)": return new BigDecimal(new BigInteger(200, new java.util.Random(
          rnd.nextLong())).negate(), 6);
      case "String": return "s" + rnd.nextInt(6);
      case "FixedString(3)": return "abc".substring(0, rnd.nextInt(4));
      case "Date": return LocalDate.ofEpochDay(rnd.nextInt(3) * 10_000);
      case "Date32": return LocalDate.ofEpochDay(rnd.nextInt(-30_000, 30_000));
      case "DateTime": case "DateTime('Asia/Tokyo')":
        return Instant.ofEpochSecond(rnd.nextLong(4_000_000_000L));
      case "DateTime64(3)": return Instant.ofEpochMilli(rnd.nextLong(-1L << 40, 1L << 42));
      case "UUID": return new UUID(rnd.nextInt(3), rnd.nextLong());
      case "Enum8('a' = 1, 'b' = 2)": return rnd.nextBoolean() ? "a" : "b";
      case "Enum16('x' = -1000, 'y' = 1000)": return rnd.nextBoolean() ? "x" : "y";
      case "Bool": return rnd.nextBoolean();
      case "IPv4": return "10.0." + rnd.nextInt(3) + "." + rnd.nextInt(256);
      case "IPv6": return "2001:db8::" + Integer.toHexString(rnd.nextInt(3));
      default: return ModernValues.good(type, rnd);
    }
  }

  /**
   * A value of {@code type} the conversions refuse, or {@link #NO_BAD} if there is none in this
   * position (a String column takes any text; only a null would be bad, and a Nullable takes it).
   */
  static Object bad(String type, SplittableRandom rnd) {
    if (type.startsWith("Nullable(")) {
      Object b = bad(inner(type, "Nullable("), rnd);
      return b == null ? NO_BAD : b;
    }
    if (type.startsWith("LowCardinality(")) {
      Object b = bad(inner(type, "LowCardinality("), rnd);
      return b == null && type.startsWith("LowCardinality(Nullable(") ? NO_BAD : b;
    }
    if (type.startsWith("Array(")) {
      String e = inner(type, "Array(");
      Object b = bad(e, rnd);
      if (b == NO_BAD || rnd.nextInt(5) == 0) {
        return 5L; // not a list
      }
      List<Object> list = new ArrayList<>();
      int n = 1 + rnd.nextInt(3);
      int at = rnd.nextInt(n);
      for (int i = 0; i < n; i++) {
        list.add(i == at ? b : good(e, rnd));
      }
      return list;
    }
    if (type.startsWith("Tuple(")) {
      List<String> es = split(inner(type, "Tuple("));
      List<Object> t = new ArrayList<>();
      for (String e : es) {
        t.add(good(e, rnd));
      }
      if (rnd.nextInt(4) == 0) {
        t.add("extra"); // wrong arity
        return t;
      }
      int start = rnd.nextInt(es.size());
      for (int k = 0; k < es.size(); k++) {
        int i = (start + k) % es.size();
        Object b = bad(es.get(i), rnd);
        if (b != NO_BAD) {
          t.set(i, b);
          return t;
        }
      }
      t.add("extra");
      return t;
    }
    if (type.startsWith("Map(")) {
      List<String> kv = split(inner(type, "Map("));
      Map<Object, Object> m = new LinkedHashMap<>();
      m.put(good(kv.get(0), rnd), good(kv.get(1), rnd));
      Object badValue = bad(kv.get(1), rnd);
      Object badKey = bad(kv.get(0), rnd);
      if (badValue != NO_BAD && (badKey == NO_BAD || rnd.nextBoolean())) {
        Object k = good(kv.get(0), rnd);
        m.remove(k);
        m.put(k, badValue); // the bad pair last: the earlier pair was written first
      } else if (badKey != NO_BAD && badKey != null) {
        m.put(badKey, good(kv.get(1), rnd));
      } else {
        return 7L; // not a map
      }
      return m;
    }
    switch (rnd.nextInt(3) == 0 ? "null" : type) {
      case "null": return null;
      case "Int8": return rnd.nextBoolean() ? 128L : "x1";
      case "Int16": return rnd.nextBoolean() ? -32769L : "1,5";
      case "Int32": return rnd.nextBoolean() ? 1L << 31 : "twelve";
      case "Int64": return rnd.nextBoolean() ? BigInteger.ONE.shiftLeft(63) : 1.5;
      case "UInt8": return rnd.nextBoolean() ? 256L : -1L;
      case "UInt16": return 65536L;
      case "UInt32": return -1L;
      case "UInt64": return rnd.nextBoolean() ? -1L : BigInteger.ONE.shiftLeft(64);
      case "Int128": return BigInteger.ONE.shiftLeft(127);
      case "UInt128": return -1L;
      case "Int256": return "abc";
      case "UInt256": return BigInteger.ONE.shiftLeft(256);
      case "Float32": return rnd.nextBoolean() ? "nope" : 1e39;
      case "Float64": return "1,5";
      case "Decimal(9, 2)": return rnd.nextBoolean() ? "1.234" : "10000000";
      case "Decimal(18, 4)": return "abc";
      case "Decimal(38, 10)": return Double.NaN;
      case "Decimal(76, 6)": return "0.0000001";
      case "String": return null;
      case "FixedString(3)": return "abcd";
      case "Date": case "Date32": return "not a date";
      case "DateTime": case "DateTime('Asia/Tokyo')": case "DateTime64(3)": return "no time";
      case "UUID": return "zz";
      case "Enum8('a' = 1, 'b' = 2)": return rnd.nextBoolean() ? "c" : 3L;
      case "Enum16('x' = -1000, 'y' = 1000)": return "z";
      case "Bool": return "maybe";
      case "IPv4": return "300.1.1.1";
      case "IPv6": return "2001:db8:::1";
      default: return ModernValues.bad(type, rnd);
    }
  }

  private static String inner(String type, String prefix) {
    return type.substring(prefix.length(), type.length() - 1);
  }

  /** Splits top-level comma-separated type arguments. */
  private static List<String> split(String args) {
    List<String> out = new ArrayList<>();
    int depth = 0;
    boolean quoted = false;
    int from = 0;
    for (int i = 0; i < args.length(); i++) {
      char ch = args.charAt(i);
      if (ch == '\'') {
        quoted = !quoted;
      } else if (!quoted && ch == '(') {
        depth++;
      } else if (!quoted && ch == ')') {
        depth--;
      } else if (!quoted && depth == 0 && ch == ',') {
        out.add(args.substring(from, i).strip());
        from = i + 1;
      }
    }
    out.add(args.substring(from).strip());
    return out;
  }

  static String render(Object v) {
    if (v == FINISH) {
      return "finishChunk";
    }
    if (v instanceof Object[] a) {
      StringBuilder sb = new StringBuilder("[");
      for (int i = 0; i < a.length; i++) {
        sb.append(i == 0 ? "" : ", ").append(render(a[i]));
      }
      return sb.append(']').toString();
    }
    if (v instanceof List<?> l) {
      return render(l.toArray()).replace('[', '[');
    }
    if (v instanceof String s) {
      return '"' + s + '"';
    }
    if (v instanceof Map<?, ?> m) {
      StringBuilder sb = new StringBuilder("{");
      m.forEach((k, x) -> sb.append(sb.length() > 1 ? ", " : "").append(render(k)).append(": ")
          .append(render(x)));
      return sb.append('}').toString();
    }
    return v == null ? "null" : v + (v instanceof Long ? "L" : "");
  }

  /* ------------------------------------------------------------------ shrinking */

  /** Drops steps one at a time, then columns, while the case still fails. */
  static final Shrink<Case> SHRINK = NativeRollbackProperties::shrink;

  private static Case shrink(Case failing, Predicate<Case> stillFails) {
    Case best = failing;
    boolean progress = true;
    while (progress) {
      progress = false;
      for (int i = best.steps().size() - 1; i >= 0; i--) {
        List<Object[]> steps = new ArrayList<>(best.steps());
        steps.remove(i);
        Case candidate = new Case(best.types(), steps);
        if (stillFails.test(candidate)) {
          best = candidate;
          progress = true;
        }
      }
      for (int col = best.types().size() - 1; col >= 0 && best.types().size() > 1; col--) {
        List<String> types = new ArrayList<>(best.types());
        types.remove(col);
        List<Object[]> steps = new ArrayList<>();
        for (Object[] s : best.steps()) {
          if (s == FINISH) {
            steps.add(FINISH);
          } else {
            List<Object> r = new ArrayList<>(Arrays.asList(s));
            r.remove(col);
            steps.add(r.toArray());
          }
        }
        Case candidate = new Case(types, steps);
        if (stillFails.test(candidate)) {
          best = candidate;
          progress = true;
        }
      }
    }
    return best;
  }
}
