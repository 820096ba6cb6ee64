package dev.handoff.encoders.testsupport;

import static dev.handoff.encoders.testsupport.DiffJson.jsonLines;
import static dev.handoff.encoders.testsupport.DiffModel.ARRAY_ROWS;
import static dev.handoff.encoders.testsupport.DiffModel.JSON;
import static dev.handoff.encoders.testsupport.DiffModel.JSON_ROWS;
import static dev.handoff.encoders.testsupport.DiffModel.LIST_ROWS;
import static dev.handoff.encoders.testsupport.DiffShow.hex;
import static dev.handoff.encoders.testsupport.DiffValues.ip;
import static dev.handoff.encoders.testsupport.DiffValues.mapped;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.handoff.api.row.RowAccessor;
import dev.handoff.api.ColumnSpec;
import dev.handoff.api.TableSchema;
import dev.handoff.clickhouse.json.JsonRows;
import dev.handoff.clickhouse.row.RowAccessors;
import dev.handoff.clickhouse.type.ClickHouseType;
import dev.handoff.clickhouse.type.TypeKind;
import dev.handoff.encoders.testsupport.DiffModel.Case;
import dev.handoff.encoders.testsupport.DiffModel.Column;
import dev.handoff.encoders.testsupport.DiffModel.V;
import dev.handoff.encoders.testsupport.DiffValues.Bytes;
import dev.handoff.encoders.testsupport.DiffValues.F32;
import dev.handoff.encoders.testsupport.DiffValues.F64;
import dev.handoff.testkit.SeedSweep;
import dev.handoff.testkit.Shrink;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.IntFunction;
import java.util.function.LongFunction;
import java.util.function.ToIntFunction;
import java.util.function.UnaryOperator;

/**
 * The format-independent half of the differential checkers: handing a case's rows to an encoder
 * in the case's row shape, bringing what the independent reader decoded to the canonical form,
 * and comparing decoded rows with expected ones. The format's half (which encoder, which
 * reader, how blocks are cut) stays in each encoder module.
 */
public final class DiffCheck {
  private DiffCheck() {}

  /* ================================================================== Encoding */

  /** Encodes rows of one Java form into the bytes the format writes. */
  public interface RowsEncoder {
    /**
     * Returns the bytes of {@code rows} read through {@code accessor}, for a table of {@code
     * schema}.
     *
     * @param <T> the row type
     */
    <T> byte[] encode(TableSchema schema, RowAccessor<T> accessor, List<T> rows);
  }

  /** Returns the schema of {@code columns}, each type written as the type model prints it. */
  public static TableSchema schema(List<Column> columns) {
    List<ColumnSpec> specs = new ArrayList<>();
    for (Column col : columns) {
      specs.add(new ColumnSpec(col.name(), col.type().toString()));
    }
    return new TableSchema(specs);
  }

  /**
   * Returns what {@code encoder} makes of the rows of {@code c} in the case's row shape: Lists,
   * Object[]s, JSON lines through {@code JsonRows} (a case without a JSON form as Lists), or Maps
   * by name (every other row leaving its nulls out, since a missing key reads as null).
   */
  public static byte[] encodeRows(Case c, RowsEncoder encoder) {
    TableSchema schema = schema(c.columns());
    switch (c.shape()) {
      case LIST_ROWS: {
        List<List<?>> rows = new ArrayList<>();
        for (List<V> row : c.rows()) {
          rows.add(Arrays.asList(inputs(row)));
        }
        return encoder.encode(schema, RowAccessors.list(), rows);
      }
      case ARRAY_ROWS: {
        List<Object[]> rows = new ArrayList<>();
        for (List<V> row : c.rows()) {
          rows.add(inputs(row));
        }
        return encoder.encode(schema, RowAccessors.objectArray(), rows);
      }
      case JSON_ROWS: {
        List<String> lines = jsonLines(c);
        if (lines == null) {
          return encodeRows(c.withShape(LIST_ROWS), encoder); // not all JSON
        }
        List<JsonNode> rows = new ArrayList<>();
        for (String line : lines) {
          try {
            rows.add(JSON.readTree(line));
          } catch (JsonProcessingException e) {
            throw new IllegalStateException("the test wrote bad JSON: " + line, e);
          }
        }
        return encoder.encode(schema, JsonRows.accessor(schema), rows);
      }
      default: {
        List<Map<String, ?>> rows = new ArrayList<>();
        for (int r = 0; r < c.rows().size(); r++) {
          Map<String, Object> m = new LinkedHashMap<>();
          List<V> row = c.rows().get(r);
          for (int i = 0; i < row.size(); i++) {
            // A missing key reads as null: leave nulls out of every other row.
            if (row.get(i).input() != null || r % 2 == 0) {
              m.put(c.columns().get(i).name(), row.get(i).input());
            }
          }
          rows.add(m);
        }
        return encoder.encode(schema, RowAccessors.map(schema), rows);
      }
    }
  }

  private static Object[] inputs(List<V> row) {
    Object[] a = new Object[row.size()];
    for (int i = 0; i < a.length; i++) {
      a[i] = row.get(i).input();
    }
    return a;
  }

  /** Returns a copy of {@code b} with the low bit of the byte at {@code at} flipped. */
  public static byte[] flip(byte[] b, int at) {
    return flip(b, at, 1);
  }

  /** Returns a copy of {@code b} with the bits of {@code mask} flipped in the byte at {@code at}. */
  public static byte[] flip(byte[] b, int at, int mask) {
    byte[] c = b.clone();
    c[at] ^= (byte) mask;
    return c;
  }

  /* ================================================================== Sweeps */

  /**
   * Returns {@code true} when {@code mismatch} (a checker's answer) is {@code null}, for {@link
   * SeedSweep#run}.
   *
   * @throws AssertionError with {@code mismatch} as its message otherwise
   */
  public static boolean holds(String mismatch) {
    if (mismatch != null) {
      throw new AssertionError(mismatch);
    }
    return true;
  }

  /**
   * Runs a sweep of seeds 1 to 10 whose checker sees every encoding with the low bit of its last
   * byte flipped ({@code check} takes a case and how to tamper with its bytes), and checks the
   * report: it fails at a seed, says how to rerun it, and shows a case shrunk to one column and
   * one row.
   */
  public static void assertSabotagedSweepShrinksToOneColumnAndOneRow(LongFunction<Case> generate,
      BiFunction<Case, UnaryOperator<byte[]>, String> check, Shrink<Case> shrink) {
    AssertionError e = catchThrowableOfType(AssertionError.class, () -> SeedSweep.run(
        "sabotaged", 1, 10, generate,
        c -> holds(check.apply(c, b -> b.length == 0 ? b : flip(b, b.length - 1))), shrink));
    assertThat(e).as("the sabotaged sweep's failure").isNotNull();
    String report = e.getMessage();
    assertThat(report).startsWith("property 'sabotaged' failed at seed ")
        .contains("reproduce: rerun with -Dhandoff.seed=");
    String shrunk = report.substring(report.indexOf("shrunk:"), report.indexOf("failure:"));
    assertThat(shrunk).startsWith("shrunk:    1 column(s) [c").contains(", 1 row(s) as ")
        .doesNotContain("row 1:");
  }

  /* ================================================================== Decoded values */

  /**
   * How to read the values of the independent reader's own classes (client-v2's {@code
   * StringValue}, {@code EnumValue} and {@code ArrayValue}), which this module does not see.
   *
   * @param rawBytes the bytes of a top-level String or FixedString value
   * @param enumNumber the number of an Enum8/Enum16 value
   * @param arrayLength the number of elements of an array value that is not a List
   * @param arrayElement the element at an index of such an array value
   */
  public record ReaderValues(
      Function<Object, byte[]> rawBytes,
      Function<Object, Object> enumNumber,
      ToIntFunction<Object> arrayLength,
      BiFunction<Object, Integer, Object> arrayElement) {}

  /**
   * Reads one row, {@code readValue.apply(i)} being the value of column {@code i} (from 1), brings
   * it to the canonical form and adds it to {@code decoded}. Returns {@code null}, or, when a
   * value is not one of its column's type, what went wrong (with {@code bytes} for the report).
   */
  public static String readRow(List<Column> columns, IntFunction<Object> readValue,
      ReaderValues values, List<List<Object>> decoded, byte[] bytes) {
    List<Object> row = new ArrayList<>();
    for (int i = 0; i < columns.size(); i++) {
      Object v = readValue.apply(i + 1);
      try {
        row.add(canon(columns.get(i).type(), v, true, values));
      } catch (RuntimeException e) {
        return "row " + decoded.size() + " column " + columns.get(i) + ": client-v2 returned "
            + describeDecoded(v) + ", which is not a value of the type: " + e
            + "\n  bytes: " + hex(bytes, 512);
      }
    }
    decoded.add(row);
    return null;
  }

  /**
   * Returns {@code null} when {@code decoded} equals {@code expected} row by row, else the first
   * difference (row count, or row, column and where in the value), with {@code bytes}.
   */
  public static String compareRows(List<Column> columns, List<List<Object>> expected,
      List<List<Object>> decoded, byte[] bytes) {
    if (decoded.size() != expected.size()) {
      return "client-v2 decoded " + decoded.size() + " row(s), expected " + expected.size()
          + "\n  bytes: " + hex(bytes, 512);
    }
    for (int r = 0; r < expected.size(); r++) {
      for (int i = 0; i < columns.size(); i++) {
        String diff = diff(expected.get(r).get(i), decoded.get(r).get(i), "");
        if (diff != null) {
          return "row " + r + " column " + columns.get(i) + ": " + diff
              + "\n  expected: " + expected.get(r).get(i)
              + "\n  decoded:  " + decoded.get(r).get(i)
              + "\n  bytes:    " + hex(bytes, 512);
        }
      }
    }
    return null;
  }

  /** Returns where {@code expected} and {@code actual} first differ, or {@code null}. */
  private static String diff(Object expected, Object actual, String path) {
    if (expected instanceof List<?> e && actual instanceof List<?> a) {
      for (int i = 0; i < Math.min(e.size(), a.size()); i++) {
        String d = diff(e.get(i), a.get(i), path + "[" + i + "]");
        if (d != null) {
          return d;
        }
      }
      return e.size() == a.size() ? null
          : "at " + (path.isEmpty() ? "the top" : path) + " " + e.size()
              + " element(s) expected, " + a.size() + " decoded";
    }
    return Objects.equals(expected, actual) ? null
        : (path.isEmpty() ? "" : "at " + path + " ") + "expected " + expected + " but client-v2"
            + " decoded " + actual;
  }

  /** Returns {@code e} and its causes, one a line. */
  public static String causes(Throwable e) {
    StringBuilder sb = new StringBuilder(String.valueOf(e));
    for (Throwable t = e.getCause(); t != null && t != t.getCause(); t = t.getCause()) {
      sb.append("\n    caused by ").append(t);
    }
    return sb.toString();
  }

  private static String describeDecoded(Object v) {
    return v == null ? "null" : v.getClass().getName() + " " + v;
  }

  /**
   * Returns a value the reader decoded for type {@code t} in the canonical form; {@code top} for
   * a table column (where strings come as raw bytes), false inside a composite (strings come as
   * {@code String}).
   *
   * @throws RuntimeException when {@code v} is not a value of {@code t}
   */
  public static Object canon(ClickHouseType t, Object v, boolean top, ReaderValues values) {
    switch (t.kind()) {
      case NULLABLE:
        return v == null ? null : canon(t.element(), v, top, values);
      case LOW_CARDINALITY:
        return canon(t.element(), v, top, values);
      default:
        break;
    }
    Objects.requireNonNull(v, "null for a non-Nullable type");
    switch (t.kind()) {
      case INT8: case INT16: case INT32: case INT64: case UINT8: case UINT16: case UINT32:
        if (v instanceof Byte || v instanceof Short || v instanceof Integer || v instanceof Long) {
          return BigInteger.valueOf(((Number) v).longValue());
        }
        throw new ClassCastException(v.getClass() + " for " + t);
      case UINT64: case INT128: case UINT128: case INT256: case UINT256:
        return (BigInteger) v;
      case FLOAT32:
        return new F32((Float) v);
      case FLOAT64:
        return new F64((Double) v);
      case BOOL:
        return (Boolean) v;
      case DECIMAL:
        return (BigDecimal) v;
      case STRING:
      case FIXED_STRING:
        return new Bytes(top ? values.rawBytes().apply(v)
            : ((String) v).getBytes(StandardCharsets.UTF_8));
      case DATE:
      case DATE32:
        return (LocalDate) v;
      case DATETIME:
      case DATETIME64:
        return ((ZonedDateTime) v).toInstant();
      case UUID:
        return (UUID) v;
      case IPV4:
        return ip((Inet4Address) v);
      case IPV6: {
        byte[] a = ((InetAddress) v).getAddress();
        return ip(a.length == 4 ? mapped(a) : a);
      }
      case ENUM8:
      case ENUM16:
        return values.enumNumber().apply(v);
      case ARRAY: {
        List<Object> out = new ArrayList<>();
        for (Object e : elements(v, values)) {
          out.add(canon(t.element(), e, false, values));
        }
        return out;
      }
      case TUPLE:
        return canonTuple(t.elements(), (Object[]) v, values);
      case NESTED: {
        List<Object> out = new ArrayList<>();
        for (Object e : elements(v, values)) {
          out.add(canonTuple(t.elements(), (Object[]) e, values));
        }
        return out;
      }
      case MAP: {
        List<Object> out = new ArrayList<>();
        for (Map.Entry<?, ?> e : ((Map<?, ?>) v).entrySet()) {
          out.add(Arrays.asList(canon(t.elements().get(0), e.getKey(), false, values),
              canon(t.elements().get(1), e.getValue(), false, values)));
        }
        return out;
      }
      default:
        throw new IllegalArgumentException("no canonical form for " + t);
    }
  }

  private static List<Object> canonTuple(List<ClickHouseType> types, Object[] v,
      ReaderValues values) {
    if (v.length != types.size()) {
      throw new IllegalStateException(v.length + " tuple elements for " + types);
    }
    List<Object> out = new ArrayList<>();
    for (int i = 0; i < v.length; i++) {
      out.add(canon(types.get(i), v[i], false, values));
    }
    return out;
  }

  /** The elements of a reader's array value (its own array class, or a List with a type hint). */
  private static List<Object> elements(Object v, ReaderValues values) {
    if (v instanceof List<?> l) {
      return new ArrayList<>(l);
    }
    int n = values.arrayLength().applyAsInt(v);
    List<Object> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      out.add(values.arrayElement().apply(v, i));
    }
    return out;
  }

  /* ================================================================== Coverage */

  /**
   * Adds the features of type {@code t} and its elements to {@code seen}: each family's name,
   * {@code Tuple named}/{@code Tuple plain}, {@code DateTime tz}, {@code DateTime64 tz}, {@code
   * Decimal <width>}, {@code LowCardinality(Nullable)}, {@code Array(Array)} and {@code
   * Map(LowCardinality key)}.
   */
  public static void features(ClickHouseType t, Set<String> seen) {
    seen.add(t.kind().name());
    switch (t.kind()) {
      case TUPLE:
        seen.add(t.names() == null ? "Tuple plain" : "Tuple named");
        break;
      case DATETIME:
      case DATETIME64:
        if (t.timeZone() != null) {
          seen.add(t.kind() == TypeKind.DATETIME ? "DateTime tz" : "DateTime64 tz");
        }
        break;
      case DECIMAL:
        seen.add("Decimal " + t.decimalWidth());
        break;
      case LOW_CARDINALITY:
        if (t.element().isNullable()) {
          seen.add("LowCardinality(Nullable)");
        }
        break;
      case ARRAY:
        if (t.element().kind() == TypeKind.ARRAY) {
          seen.add("Array(Array)");
        }
        break;
      case MAP:
        if (t.elements().get(0).kind() == TypeKind.LOW_CARDINALITY) {
          seen.add("Map(LowCardinality key)");
        }
        break;
      default:
        break;
    }
    for (ClickHouseType e : t.elements()) {
      features(e, seen);
    }
  }
}
