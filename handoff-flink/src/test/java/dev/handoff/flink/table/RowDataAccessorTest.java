package dev.handoff.flink.table;

import static org.assertj.core.api.Assertions.assertThat;

import dev.handoff.api.ChunkBuffer;
import dev.handoff.api.ColumnSpec;
import dev.handoff.api.TableSchema;
import dev.handoff.api.row.RowAccessor;
import dev.handoff.api.row.ValueKind;
import dev.handoff.api.spi.RowEncoder;
import dev.handoff.clickhouse.row.RowAccessors;
import dev.handoff.core.Providers;
import java.math.BigDecimal;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.GenericArrayData;
import org.apache.flink.table.data.GenericMapData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.runtime.typeutils.RowDataSerializer;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.utils.LogicalTypeParser;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The RowData accessor without a server: kinds, values, and the bytes the encoders write. */
final class RowDataAccessorTest {

  static RowType rowType(String fields) {
    return (RowType) LogicalTypeParser.parse("ROW<" + fields + ">",
        RowDataAccessorTest.class.getClassLoader());
  }

  static TableSchema schema(String... nameTypePairs) {
    List<ColumnSpec> columns = new ArrayList<>();
    for (int i = 0; i < nameTypePairs.length; i += 2) {
      columns.add(new ColumnSpec(nameTypePairs[i], nameTypePairs[i + 1]));
    }
    return new TableSchema(columns);
  }

  static TimestampData ts(String localDateTime) {
    return TimestampData.fromLocalDateTime(LocalDateTime.parse(localDateTime));
  }

  @Test
  void primitives_comeOutOfTheTypedGettersWithTheirKinds() {
    RowType type = rowType("b BOOLEAN, t TINYINT, s SMALLINT, i INT, l BIGINT, f FLOAT,"
        + " d DOUBLE, dd DATE");
    RowAccessor<RowData> acc = SchemaMatch.accessor(type, schema("b", "UInt8", "t", "Int8",
        "s", "Int16", "i", "Int32", "l", "Int64", "f", "Float32", "d", "Float64",
        "dd", "Date"), "db.t");
    RowData row = GenericRowData.of(true, (byte) -1, (short) 300, 70_000, Long.MIN_VALUE, 1.5f,
        -0.25, 19_782);
    assertThat(acc.kind(row, 0)).isEqualTo(ValueKind.BOOLEAN);
    assertThat(acc.getBoolean(row, 0)).isTrue();
    for (int f = 1; f <= 4; f++) {
      assertThat(acc.kind(row, f)).isEqualTo(ValueKind.LONG);
    }
    assertThat(new long[] {acc.getLong(row, 1), acc.getLong(row, 2), acc.getLong(row, 3),
        acc.getLong(row, 4)}).containsExactly(-1, 300, 70_000, Long.MIN_VALUE);
    assertThat(acc.kind(row, 5)).isEqualTo(ValueKind.DOUBLE);
    assertThat(acc.getDouble(row, 5)).isEqualTo(1.5);
    assertThat(acc.getDouble(row, 6)).isEqualTo(-0.25);
    assertThat(acc.kind(row, 7)).isEqualTo(ValueKind.LONG);
    assertThat(acc.getLong(row, 7)).as("days since the epoch").isEqualTo(19_782);
    assertThat(acc.size(row)).isEqualTo(8);
  }

  @Test
  void columnsAreMatchedByNameNotPosition() {
    RowType type = rowType("a INT, b STRING");
    RowAccessor<RowData> acc = SchemaMatch.accessor(type, schema("b", "String", "a", "UInt32"),
        "db.t");
    RowData row = GenericRowData.of(7, StringData.fromString("x"));
    assertThat(acc.getBytes(row, 0)).containsExactly('x');
    assertThat(acc.getLong(row, 1)).isEqualTo(7);
  }

  @Test
  void nulls_areNullWhateverTheType() {
    RowType type = rowType("i INT, s STRING, a ARRAY<INT>, ts TIMESTAMP(3)");
    RowAccessor<RowData> acc = SchemaMatch.accessor(type, schema("i", "Nullable(Int32)",
        "s", "Nullable(String)", "a", "Array(Int32)", "ts", "Nullable(DateTime)"), "db.t");
    RowData row = new GenericRowData(4);
    for (int f = 0; f < 4; f++) {
      assertThat(acc.kind(row, f)).isEqualTo(ValueKind.NULL);
      assertThat(acc.isNull(row, f)).isTrue();
      assertThat(acc.getObject(row, f)).isNull();
    }
  }

  @Test
  void strings_areBytesForStringColumnsAndTextForParsedOnes() {
    RowType type = rowType("s STRING, fs STRING, u STRING, e STRING, bin BYTES");
    RowAccessor<RowData> acc = SchemaMatch.accessor(type, schema("s", "LowCardinality(String)",
        "fs", "FixedString(3)", "u", "UUID", "e", "Enum8('a' = 1)", "bin", "String"), "db.t");
    RowData row = GenericRowData.of(StringData.fromString("é"), StringData.fromString("ab"),
        StringData.fromString("01234567-89ab-cdef-0123-456789abcdef"),
        StringData.fromString("a"), new byte[] {0, -1});
    assertThat(acc.kind(row, 0)).isEqualTo(ValueKind.BYTES);
    assertThat(acc.getBytes(row, 0)).isEqualTo("é".getBytes(StandardCharsets.UTF_8));
    assertThat(acc.kind(row, 1)).isEqualTo(ValueKind.BYTES);
    assertThat(acc.kind(row, 2)).isEqualTo(ValueKind.TEXT);
    assertThat(acc.getText(row, 2).toString()).isEqualTo("01234567-89ab-cdef-0123-456789abcdef");
    assertThat(acc.kind(row, 3)).isEqualTo(ValueKind.TEXT);
    assertThat(acc.kind(row, 4)).isEqualTo(ValueKind.BYTES);
    assertThat(acc.getBytes(row, 4)).containsExactly(0, -1);
  }

  @Test
  void decimals_areExactBigDecimals() {
    RowType type = rowType("small DECIMAL(10, 2), big DECIMAL(38, 10)");
    RowAccessor<RowData> acc = SchemaMatch.accessor(type, schema("small", "Decimal(10, 2)",
        "big", "Decimal(38, 10)"), "db.t");
    BigDecimal big = new BigDecimal("-1234567890123456789012345678.0123456789");
    RowData row = GenericRowData.of(DecimalData.fromBigDecimal(new BigDecimal("-0.05"), 10, 2),
        DecimalData.fromBigDecimal(big, 38, 10));
    assertThat(acc.kind(row, 0)).isEqualTo(ValueKind.BIG_DECIMAL);
    assertThat(acc.getBigDecimal(row, 0)).isEqualTo(new BigDecimal("-0.05"));
    assertThat(acc.getBigDecimal(row, 1)).isEqualTo(big);
  }

  @Test
  void timestamps_becomeTheColumnsExactIntegerOrATemporal() {
    RowType type = rowType("s TIMESTAMP(3), neg TIMESTAMP(3), ms TIMESTAMP(3), us TIMESTAMP(9),"
        + " ns TIMESTAMP(9), tokyo TIMESTAMP(0), ltz TIMESTAMP_LTZ(6), ltz9 TIMESTAMP_LTZ(9)");
    RowAccessor<RowData> acc = SchemaMatch.accessor(type, schema("s", "DateTime",
        "neg", "DateTime64(1)", "ms", "DateTime64(3, 'UTC')", "us", "DateTime64(6)",
        "ns", "DateTime64(9)", "tokyo", "DateTime('Asia/Tokyo')",
        "ltz", "DateTime64(6, 'Asia/Tokyo')", "ltz9", "DateTime64(9, 'Asia/Tokyo')"), "db.t");
    Instant instant = Instant.parse("2024-03-15T14:30:00.123456789Z");
    RowData row = GenericRowData.of(ts("2024-03-15T14:30:00.999"),
        ts("1969-12-31T23:59:59.95"), ts("2024-03-15T14:30:00.123"),
        ts("2024-03-15T14:30:00.123456789"), ts("2024-03-15T14:30:00.123456789"),
        ts("2024-03-15T14:30:00"), TimestampData.fromInstant(instant),
        TimestampData.fromInstant(instant));
    long second = instant.getEpochSecond();
    assertThat(acc.kind(row, 0)).isEqualTo(ValueKind.LONG);
    assertThat(acc.getLong(row, 0)).as("seconds, floored").isEqualTo(second);
    assertThat(acc.getLong(row, 1)).as("tenths, floored below the epoch").isEqualTo(-1);
    assertThat(acc.getLong(row, 2)).isEqualTo(second * 1_000 + 123);
    assertThat(acc.getLong(row, 3)).as("micros, floored").isEqualTo(second * 1_000_000 + 123_456);
    assertThat(acc.kind(row, 4)).as("nanos could overflow a long").isEqualTo(ValueKind.TEMPORAL);
    assertThat(acc.getObject(row, 4))
        .isEqualTo(LocalDateTime.parse("2024-03-15T14:30:00.123456789"));
    assertThat(acc.kind(row, 5)).as("a wall-clock time in a zoned column")
        .isEqualTo(ValueKind.TEMPORAL);
    assertThat(acc.getObject(row, 5)).isEqualTo(LocalDateTime.parse("2024-03-15T14:30:00"));
    assertThat(acc.kind(row, 6)).as("an instant is an instant in any zone")
        .isEqualTo(ValueKind.LONG);
    assertThat(acc.getLong(row, 6)).isEqualTo(second * 1_000_000 + 123_456);
    assertThat(acc.getObject(row, 7)).isEqualTo(instant);
  }

  @Test
  void arraysMapsAndRows_areReadThroughNestedAccessors() {
    RowType type = rowType("a ARRAY<ARRAY<INT>>, m MAP<STRING, BIGINT>, r ROW<x INT, y STRING>");
    RowAccessor<RowData> acc = SchemaMatch.accessor(type,
        schema("a", "Array(Array(Nullable(Int32)))", "m", "Map(String, Int64)",
            "r", "Tuple(Int32, String)"), "db.t");
    Map<Object, Object> map = new LinkedHashMap<>();
    map.put(StringData.fromString("k1"), 1L);
    map.put(StringData.fromString("k2"), null);
    RowData row = GenericRowData.of(
        new GenericArrayData(new Object[] {new GenericArrayData(new Object[] {1, null}),
            new GenericArrayData(new Object[0])}),
        new GenericMapData(map), GenericRowData.of(5, StringData.fromString("five")));

    assertThat(acc.kind(row, 0)).isEqualTo(ValueKind.SEQUENCE);
    Object outer = acc.getObject(row, 0);
    RowAccessor<Object> outerAcc = acc.nested(row, 0);
    assertThat(outerAcc.size(outer)).isEqualTo(2);
    assertThat(outerAcc.kind(outer, 0)).isEqualTo(ValueKind.SEQUENCE);
    Object inner = outerAcc.getObject(outer, 0);
    RowAccessor<Object> innerAcc = outerAcc.nested(outer, 0);
    assertThat(innerAcc.size(inner)).isEqualTo(2);
    assertThat(innerAcc.getLong(inner, 0)).isEqualTo(1);
    assertThat(innerAcc.kind(inner, 1)).isEqualTo(ValueKind.NULL);
    assertThat(outerAcc.nested(outer, 1).size(outerAcc.getObject(outer, 1))).isZero();

    assertThat(acc.kind(row, 1)).isEqualTo(ValueKind.MAP);
    Object entries = acc.getObject(row, 1);
    RowAccessor<Object> mapAcc = acc.nested(row, 1);
    assertThat(mapAcc.size(entries)).isEqualTo(4);
    assertThat(mapAcc.getBytes(entries, 0)).containsExactly('k', '1');
    assertThat(mapAcc.getLong(entries, 1)).isEqualTo(1);
    assertThat(mapAcc.getBytes(entries, 2)).containsExactly('k', '2');
    assertThat(mapAcc.kind(entries, 3)).isEqualTo(ValueKind.NULL);

    assertThat(acc.kind(row, 2)).isEqualTo(ValueKind.SEQUENCE);
    Object tuple = acc.getObject(row, 2);
    RowAccessor<Object> tupleAcc = acc.nested(row, 2);
    assertThat(tupleAcc.size(tuple)).isEqualTo(2);
    assertThat(tupleAcc.getLong(tuple, 0)).isEqualTo(5);
    assertThat(tupleAcc.getBytes(tuple, 1)).isEqualTo("five".getBytes(StandardCharsets.UTF_8));
  }

  /** Types the 18.16 test server does not have (Map, Date32, DateTime64, Bool, IPv4, Int128). */
  static final String WIDE_FLINK = "b BOOLEAN, big BIGINT, dd DATE, ms TIMESTAMP(3),"
      + " us TIMESTAMP(6), ns TIMESTAMP(9), wall TIMESTAMP(6), ltz TIMESTAMP_LTZ(3),"
      + " m MAP<STRING, BIGINT>, ip STRING, uuid BYTES, d DECIMAL(10, 2), a ARRAY<INT>,"
      + " lc STRING";
  static final TableSchema WIDE_SCHEMA = schema("b", "Bool", "big", "Int128", "dd", "Date32",
      "ms", "DateTime64(3)", "us", "DateTime64(6, 'UTC')", "ns", "DateTime64(9)",
      "wall", "DateTime64(6, 'America/New_York')", "ltz", "DateTime64(3, 'Asia/Tokyo')",
      "m", "Map(String, Int64)", "ip", "IPv4", "uuid", "UUID", "d", "Nullable(Decimal(10, 2))",
      "a", "Array(Nullable(Int32))", "lc", "LowCardinality(Nullable(String))");

  /**
   * The same row as Flink data and as plain Java values read by the project's reference
   * accessor: both encoders must write the same bytes for both, generic and binary rows alike.
   */
  @ParameterizedTest
  @ValueSource(strings = {"rowbinary", "native"})
  void encoders_writeTheSameBytesAsForTheEquivalentJavaValues(String encoderName)
      throws Exception {
    RowType type = rowType(WIDE_FLINK);
    Map<Object, Object> flinkMap = new LinkedHashMap<>();
    flinkMap.put(StringData.fromString("x"), 1L);
    flinkMap.put(StringData.fromString("y"), -2L);
    byte[] uuid = new byte[16];
    Arrays.fill(uuid, (byte) 7);
    GenericRowData generic = GenericRowData.of(true, Long.MIN_VALUE, -25_567,
        ts("1900-01-01T00:00:00.001"), ts("2024-03-15T14:30:00.123456"),
        ts("2262-04-11T23:47:16.854775807"), ts("2024-03-15T14:30:00.5"),
        TimestampData.fromEpochMillis(1_710_513_000_999L), new GenericMapData(flinkMap),
        StringData.fromString("10.0.0.1"), uuid, null,
        new GenericArrayData(new Object[] {3, null}), StringData.fromString("lc"));
    Map<String, Long> javaMap = new LinkedHashMap<>();
    javaMap.put("x", 1L);
    javaMap.put("y", -2L);
    Object[] java = {true, Long.MIN_VALUE, LocalDate.of(1900, 1, 1),
        LocalDateTime.parse("1900-01-01T00:00:00.001"),
        LocalDateTime.parse("2024-03-15T14:30:00.123456"),
        LocalDateTime.parse("2262-04-11T23:47:16.854775807"),
        LocalDateTime.parse("2024-03-15T14:30:00.5"), Instant.ofEpochMilli(1_710_513_000_999L),
        javaMap, InetAddress.getByName("10.0.0.1"), uuid, null, Arrays.asList(3, null), "lc"};

    byte[] expected = encode(encoderName, RowAccessors.objectArray(), java);
    RowAccessor<RowData> acc = SchemaMatch.accessor(type, WIDE_SCHEMA, "db.t");
    assertThat(encode(encoderName, acc, generic)).isEqualTo(expected);
    RowData binary = new RowDataSerializer(type).toBinaryRow(generic).copy();
    assertThat(encode(encoderName, acc, binary)).isEqualTo(expected);
  }

  private static <T> byte[] encode(String encoderName, RowAccessor<T> acc, T row) {
    RowEncoder<T> encoder = Providers.encoder(encoderName).create(WIDE_SCHEMA, acc, Map.of());
    ChunkBuffer buffer = new ChunkBuffer(256);
    encoder.encode(row, buffer);
    encoder.encode(row, buffer);
    encoder.finishChunk(buffer);
    return buffer.split().toByteArray();
  }
}
