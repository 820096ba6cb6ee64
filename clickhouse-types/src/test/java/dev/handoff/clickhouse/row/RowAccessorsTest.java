package dev.handoff.clickhouse.row;

import static dev.handoff.api.row.ValueKind.BIG_DECIMAL;
import static dev.handoff.api.row.ValueKind.BIG_INTEGER;
import static dev.handoff.api.row.ValueKind.BOOLEAN;
import static dev.handoff.api.row.ValueKind.BYTES;
import static dev.handoff.api.row.ValueKind.DOUBLE;
import static dev.handoff.api.row.ValueKind.INET;
import static dev.handoff.api.row.ValueKind.LONG;
import static dev.handoff.api.row.ValueKind.MAP;
import static dev.handoff.api.row.ValueKind.NULL;
import static dev.handoff.api.row.ValueKind.OTHER;
import static dev.handoff.api.row.ValueKind.SEQUENCE;
import static dev.handoff.api.row.ValueKind.TEMPORAL;
import static dev.handoff.api.row.ValueKind.TEXT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.handoff.api.row.RowAccessor;
import dev.handoff.api.row.ValueKind;
import dev.handoff.api.ColumnSpec;
import dev.handoff.api.TableSchema;
import dev.handoff.clickhouse.row.Walk.Bytes;
import dev.handoff.clickhouse.row.Walk.Pairs;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

final class RowAccessorsTest {

  enum Color { RED, GREEN }

  /** Constants with bodies are instances of anonymous subclasses. */
  enum Op {
    PLUS {
      @Override
      int apply(int a, int b) {
        return a + b;
      }
    };

    abstract int apply(int a, int b);
  }

  record Point(int x, int y) {}

  /** One Java value, the kind every adapter gives it, and what an encoder reads. */
  record Sample(String name, Object value, ValueKind kind, Object read) {}

  static final UUID ID = UUID.fromString("123e4567-e89b-12d3-a456-426614174000");
  static final Instant AT = Instant.parse("2024-02-29T12:34:56.789Z");
  static final Object PLAIN = new Object();

  static final List<Sample> SAMPLES = samples();

  private static List<Sample> samples() {
    InetAddress v4;
    InetAddress v6;
    try {
      v4 = InetAddress.getByAddress(new byte[] {10, 0, 0, 1});
      v6 = InetAddress.getByAddress(new byte[] {0x20, 0x01, 0x0d, (byte) 0xb8, 0, 0, 0, 0, 0, 0,
          0, 0, 0, 0, 0, 1});
    } catch (UnknownHostException e) {
      throw new AssertionError(e);
    }
    LinkedHashMap<String, Object> map = new LinkedHashMap<>();
    map.put("b", 1);
    map.put("a", null);
    LocalDateTime ldt = LocalDateTime.of(2024, 2, 29, 23, 59, 59);
    List<Sample> s = new ArrayList<>();
    s.add(new Sample("null", null, NULL, null));
    s.add(new Sample("boolean", true, BOOLEAN, true));
    s.add(new Sample("long", 1L << 40, LONG, 1L << 40));
    s.add(new Sample("int", -7, LONG, -7L));
    s.add(new Sample("short", (short) 300, LONG, 300L));
    s.add(new Sample("byte", (byte) -2, LONG, -2L));
    s.add(new Sample("atomicLong", new AtomicLong(Long.MAX_VALUE), LONG, Long.MAX_VALUE));
    s.add(new Sample("atomicInt", new AtomicInteger(8), LONG, 8L));
    s.add(new Sample("double", 2.5, DOUBLE, 2.5));
    s.add(new Sample("float", 0.25f, DOUBLE, 0.25));
    s.add(new Sample("bigInteger", BigInteger.TWO.pow(70), BIG_INTEGER, BigInteger.TWO.pow(70)));
    s.add(new Sample("bigDecimal", new BigDecimal("12.340"), BIG_DECIMAL,
        new BigDecimal("12.340")));
    s.add(new Sample("string", "héllo", TEXT, "héllo"));
    s.add(new Sample("builder", new StringBuilder("sb"), TEXT, "sb"));
    s.add(new Sample("char", 'x', TEXT, "x"));
    s.add(new Sample("chars", new char[] {'h', 'i'}, TEXT, "hi"));
    s.add(new Sample("enum", Color.GREEN, TEXT, "GREEN"));
    s.add(new Sample("enumWithBody", Op.PLUS, TEXT, "PLUS"));
    s.add(new Sample("bytes", new byte[] {1, (byte) 0xff}, BYTES, Bytes.of((byte) 1, (byte) -1)));
    s.add(new Sample("uuid", ID, ValueKind.UUID, ID));
    s.add(new Sample("instant", AT, TEMPORAL, AT));
    LocalDate day = LocalDate.of(1969, 12, 31);
    s.add(new Sample("localDate", day, TEMPORAL, day));
    s.add(new Sample("localDateTime", ldt, TEMPORAL, ldt));
    OffsetDateTime odt = ldt.atOffset(ZoneOffset.ofHours(-3));
    s.add(new Sample("offsetDateTime", odt, TEMPORAL, odt));
    ZonedDateTime zdt = ldt.atZone(ZoneId.of("Asia/Kolkata"));
    s.add(new Sample("zonedDateTime", zdt, TEMPORAL, zdt));
    s.add(new Sample("inet4", v4, INET, v4));
    s.add(new Sample("inet6", v6, INET, v6));
    s.add(new Sample("list", List.of(1, 2), SEQUENCE, List.of(1L, 2L)));
    s.add(new Sample("objects", new Object[] {"a", null}, SEQUENCE, Arrays.asList("a", null)));
    s.add(new Sample("strings", new String[] {"a", "b"}, SEQUENCE, List.of("a", "b")));
    s.add(new Sample("set", new TreeSet<>(List.of(3, 1)), SEQUENCE, List.of(1L, 3L)));
    s.add(new Sample("linkedList", new LinkedList<>(List.of(2.5, 1)), SEQUENCE,
        List.of(2.5, 1L)));
    s.add(new Sample("longs", new long[] {Long.MIN_VALUE, 1}, SEQUENCE,
        List.of(Long.MIN_VALUE, 1L)));
    s.add(new Sample("ints", new int[] {Integer.MIN_VALUE}, SEQUENCE,
        List.of((long) Integer.MIN_VALUE)));
    s.add(new Sample("shorts", new short[] {-1, 2}, SEQUENCE, List.of(-1L, 2L)));
    s.add(new Sample("doubles", new double[] {Double.NaN, -0.0}, SEQUENCE,
        List.of(Double.NaN, -0.0)));
    s.add(new Sample("floats", new float[] {1.5f}, SEQUENCE, List.of(1.5)));
    s.add(new Sample("booleans", new boolean[] {true, false}, SEQUENCE, List.of(true, false)));
    s.add(new Sample("map", map, MAP, Pairs.of("b", 1L, "a", null)));
    s.add(new Sample("localTime", LocalTime.NOON, OTHER, LocalTime.NOON));
    s.add(new Sample("optional", Optional.of(1), OTHER, Optional.of(1)));
    s.add(new Sample("record", new Point(1, 2), OTHER, new Point(1, 2)));
    s.add(new Sample("object", PLAIN, OTHER, PLAIN));
    return s;
  }

  static TableSchema schema() {
    return new TableSchema(SAMPLES.stream().map(s -> new ColumnSpec(s.name(), "String")).toList());
  }

  static Object[] values() {
    return SAMPLES.stream().map(Sample::value).toArray();
  }

  static List<ValueKind> expectedKinds() {
    return SAMPLES.stream().map(Sample::kind).toList();
  }

  static List<Object> expectedReads() {
    return SAMPLES.stream().map(Sample::read).toList();
  }

  /** Checks that getObject returns the value itself, except for containers that need a copy. */
  static <T> void assertGetObject(RowAccessor<T> acc, T row) {
    for (int i = 0; i < SAMPLES.size(); i++) {
      Sample s = SAMPLES.get(i);
      Object got = acc.getObject(row, i);
      switch (s.name()) {
        case "map":
          assertThat(got).as("a map comes out flattened")
              .isEqualTo(new Object[] {"b", 1, "a", null});
          break;
        case "set":
          assertThat(got).as("a set comes out as an array").isEqualTo(new Object[] {1, 3});
          break;
        case "linkedList":
          assertThat(got).as("a linked list comes out as an array")
              .isEqualTo(new Object[] {2.5, 1});
          break;
        default:
          assertThat(got).as("getObject of %s", s.name()).isSameAs(s.value());
      }
    }
  }

  @Test
  void objectArray_readsEveryKind() {
    RowAccessor<Object[]> acc = RowAccessors.objectArray();
    Object[] row = values();

    assertThat(Walk.kinds(acc, row, row.length)).isEqualTo(expectedKinds());
    assertThat(Walk.row(acc, row, row.length)).isEqualTo(expectedReads());
    assertGetObject(acc, row);
    assertThat(acc.size(row)).isEqualTo(row.length);
    assertThat(RowAccessors.objectArray()).isSameAs(acc);
  }

  @Test
  void list_readsEveryKind() {
    RowAccessor<List<?>> acc = RowAccessors.list();
    List<Object> row = Arrays.asList(values());

    assertThat(Walk.kinds(acc, row, row.size())).isEqualTo(expectedKinds());
    assertThat(Walk.row(acc, row, row.size())).isEqualTo(expectedReads());
    assertGetObject(acc, row);
    assertThat(acc.size(row)).isEqualTo(row.size());
  }

  @Test
  void map_readsEveryKindByName() {
    RowAccessor<Map<String, ?>> acc = RowAccessors.map(schema());
    Map<String, Object> row = new HashMap<>();
    for (Sample s : SAMPLES) {
      row.put(s.name(), s.value());
    }

    assertThat(Walk.kinds(acc, row, SAMPLES.size())).isEqualTo(expectedKinds());
    assertThat(Walk.row(acc, row, SAMPLES.size())).isEqualTo(expectedReads());
    assertGetObject(acc, row);
    assertThat(acc.size(row)).isEqualTo(SAMPLES.size());
  }

  @Test
  void map_readsAMissingKeyAsNullAndIgnoresExtraKeys() {
    TableSchema schema = TableSchema.of(new ColumnSpec("id", "UInt64"),
        new ColumnSpec("name", "Nullable(String)"));
    RowAccessor<Map<String, ?>> acc = RowAccessors.map(schema);
    Map<String, ?> row = Map.of("id", 5L, "extra", "ignored");

    assertThat(acc.kind(row, 1)).isEqualTo(NULL);
    assertThat(acc.isNull(row, 1)).isTrue();
    assertThat(acc.getObject(row, 1)).isNull();
    assertThat(acc.getLong(row, 0)).isEqualTo(5L);
    assertThat(acc.size(row)).isEqualTo(2);
  }

  @Test
  void typedGetters_readPrimitivesFromTheBoxesAsTheyAre() {
    RowAccessor<Object[]> acc = RowAccessors.objectArray();
    Object[] row = {Long.MIN_VALUE, Integer.MAX_VALUE, (short) -5, (byte) 127, 1.0e300, 3.5f,
        false, Double.NEGATIVE_INFINITY};

    assertThat(acc.getLong(row, 0)).isEqualTo(Long.MIN_VALUE);
    assertThat(acc.getLong(row, 1)).isEqualTo(Integer.MAX_VALUE);
    assertThat(acc.getLong(row, 2)).isEqualTo(-5L);
    assertThat(acc.getLong(row, 3)).isEqualTo(127L);
    assertThat(acc.getDouble(row, 4)).isEqualTo(1.0e300);
    assertThat(acc.getDouble(row, 5)).isEqualTo(3.5);
    assertThat(acc.getBoolean(row, 6)).isFalse();
    assertThat(acc.getDouble(row, 7)).isEqualTo(Double.NEGATIVE_INFINITY);
  }

  @Test
  void getText_returnsTheSequenceItselfAndEnumNamesNotToString() {
    RowAccessor<Object[]> acc = RowAccessors.objectArray();
    StringBuilder builder = new StringBuilder("live");
    String text = "same";
    Object[] row = {builder, text, Op.PLUS};

    assertThat(acc.getText(row, 0)).isSameAs(builder);
    assertThat(acc.getText(row, 1)).isSameAs(text);
    assertThat(acc.getText(row, 2).toString()).isEqualTo("PLUS");
  }

  @Test
  void mismatchedGetter_throwsClassCastException() {
    RowAccessor<Object[]> acc = RowAccessors.objectArray();
    Object[] row = {"12", 12L};

    assertThatThrownBy(() -> acc.getLong(row, 0)).isInstanceOf(ClassCastException.class);
    assertThatThrownBy(() -> acc.getText(row, 1)).isInstanceOf(ClassCastException.class)
        .hasMessageContaining("java.lang.Long is not text");
  }

  @Test
  void nestedContainers_readToDepthThree() {
    Map<String, Map<String, List<Integer>>> mapOfMaps = new LinkedHashMap<>();
    mapOfMaps.put("a", new LinkedHashMap<>(Map.of("x", List.of(1, 2))));
    mapOfMaps.put("b", Map.of());
    Map<String, Integer> nullKey = new HashMap<>();
    nullKey.put(null, 1);
    Object[] row = {
        // Array(Array(Array(Int32)))
        List.of(List.of(List.of(1, 2), List.of()), List.of(List.of(3))),
        // Map(String, Map(String, Array(Int32)))
        mapOfMaps,
        // Tuple(Int32, String, Tuple(Float64, Array(Array(Int32))))
        new Object[] {1, "s", new Object[] {2.5, List.of(new int[] {7, 8})}},
        // Array(Map(String, Array(Int64)))
        List.of(Map.of("k", new long[] {1, 2})),
        // Array(Array(Int32)) as a Java 2-D array
        new int[][] {{1, 2}, {3}},
        // Map with a null key: the encoder sees a NULL key and rejects it
        nullKey,
        // Array(Nullable(String)) from a set of lists
        new TreeSet<>(List.of("b", "a")),
        // Array(Tuple(String, Float32))
        new Object[][] {{"x", 1.5f}, {"y", null}},
    };
    RowAccessor<Object[]> acc = RowAccessors.objectArray();

    assertThat(Walk.row(acc, row, row.length)).containsExactly(
        List.of(List.of(List.of(1L, 2L), List.of()), List.of(List.of(3L))),
        Pairs.of("a", Pairs.of("x", List.of(1L, 2L)), "b", Pairs.of()),
        List.of(1L, "s", List.of(2.5, List.of(List.of(7L, 8L)))),
        List.of(Pairs.of("k", List.of(1L, 2L))),
        List.of(List.of(1L, 2L), List.of(3L)),
        Pairs.of(null, 1L),
        List.of("a", "b"),
        List.of(List.of("x", 1.5), Arrays.asList("y", null)));
    assertThat(acc.nested(row, 0)).isSameAs(RowAccessors.values());
  }

  @Test
  void nestedPrimitiveArrays_readWithoutBoxingGetters() {
    Object[] row = {List.of(new long[] {5, 6}, new double[] {0.5}, new boolean[] {true})};
    RowAccessor<Object[]> acc = RowAccessors.objectArray();
    Object outer = acc.getObject(row, 0);
    RowAccessor<Object> n = acc.nested(row, 0);

    Object longs = n.getObject(outer, 0);
    assertThat(n.nested(outer, 0).kind(longs, 1)).isEqualTo(LONG);
    assertThat(n.nested(outer, 0).getLong(longs, 1)).isEqualTo(6L);
    Object doubles = n.getObject(outer, 1);
    assertThat(n.getDouble(doubles, 0)).isEqualTo(0.5);
    Object booleans = n.getObject(outer, 2);
    assertThat(n.getBoolean(booleans, 0)).isTrue();
  }
}
