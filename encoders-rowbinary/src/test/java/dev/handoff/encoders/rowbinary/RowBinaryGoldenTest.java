package dev.handoff.encoders.rowbinary;

import static dev.handoff.encoders.testsupport.Golden.assertSameBytes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.handoff.api.ChunkBuffer;
import dev.handoff.api.row.RowAccessor;
import dev.handoff.api.ColumnSpec;
import dev.handoff.api.spi.RowEncoder;
import dev.handoff.api.TableSchema;
import dev.handoff.clickhouse.json.JsonRows;
import dev.handoff.clickhouse.row.RowAccessors;
import dev.handoff.clickhouse.type.ClickHouseType;
import dev.handoff.clickhouse.type.TypeKind;
import dev.handoff.encoders.rowbinary.internal.RowBinaryEncoderProvider;
import dev.handoff.encoders.testsupport.ChGoSnapshots;
import dev.handoff.encoders.testsupport.Golden;
import dev.handoff.encoders.testsupport.GoldenFiles;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.function.IntFunction;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/*
 * Reproduces golden vectors byte for byte from their listed values:
 *  - the 58 RowBinary bodies a live ClickHouse 18.16.1 wrote (../shared/golden/clickhouse-18.16),
 *    from each case's expected_rows; 57 are columns, nullable_nothing cannot be one;
 *  - ch-go's encoder snapshots of the fixed-width types 18.16 lacks, whose Native column body is
 *    the RowBinary values back to back;
 *  - the rule-derived edge values, Map rows and names-and-types header of derived/modern-types.json.
 * The provider is constructed directly: the test classes are patched into the encoder module,
 * which declares no `uses` (lookup through ServiceLoader is RowBinaryProviderLookupTest's job).
 */
final class RowBinaryGoldenTest {

  private static final RowBinaryEncoderProvider PROVIDER = new RowBinaryEncoderProvider();
  private static final GoldenFiles FILES = GoldenFiles.of(
      path -> RowBinaryGoldenTest.class.getResourceAsStream(path));
  private static final JsonNode CASES = FILES.json("clickhouse-18.16/cases.json");
  private static final JsonNode MODERN = FILES.json("derived/modern-types.json");

  /** Cases whose type cannot be a table column, so no encoder is ever created for them. */
  private static final Set<String> NOT_A_COLUMN = Set.of("nullable_nothing");

  /** Cases whose listed values do not mean what the JsonNode adapter reads them as. */
  private static final Map<String, String> NOT_JSON_INPUT = Map.of(
      "datetime_tz", "DateTime text is listed in UTC, the adapter reads it in the column's zone",
      "string_non_utf8", "the bytes are listed as {\"hex\"}, JSON has no byte strings",
      "ipv6_as_fixedstring16", "the bytes are listed as {\"hex\"}",
      "float_nan_bits", "NaN bit patterns are listed as {\"bits\"}, JSON has no NaN payloads");

  /* ------------------------------------------------------------------ ClickHouse 18.16 */

  static Stream<Arguments> encodableCases() {
    return cases().filter(c -> !NOT_A_COLUMN.contains(name(c)))
        .map(c -> Arguments.of(name(c), c));
  }

  static Stream<Arguments> jsonInputCases() {
    return cases().filter(c -> !NOT_A_COLUMN.contains(name(c)))
        .filter(c -> !NOT_JSON_INPUT.containsKey(name(c)))
        .map(c -> Arguments.of(name(c), c));
  }

  @Test
  void goldenSet_hasAll58CasesAndEveryOneButNullableNothingIsEncoded() {
    assertThat(cases().count()).isEqualTo(58);
    assertThat(encodableCases().count()).isEqualTo(57);
    assertThat(cases().map(c -> c.path("files").path("rowbinary").asText()))
        .allSatisfy(f -> assertThat(FILES.bytes("clickhouse-18.16/" + f)).isNotNull());
    assertThat(NOT_JSON_INPUT.keySet()).isSubsetOf(cases().map(RowBinaryGoldenTest::name)
        .collect(Collectors.toSet()));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("encodableCases")
  void clickHouse1816Case_isReproducedByteForByteFromItsExpectedRows(String name, JsonNode c) {
    TableSchema schema = Golden.schemaOf(c);
    List<Object[]> rows = Golden.expectedRows(c, schema);
    byte[] expected = FILES.bytes("clickhouse-18.16/" + c.path("files").path("rowbinary")
        .asText());

    assertSameBytes(name + " (Object[] rows)", expected,
        encode(schema, RowAccessors.objectArray(), rows));
    assertSameBytes(name + " (List rows)", expected,
        encode(schema, RowAccessors.list(), rows.stream().map(Arrays::asList).toList()));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("jsonInputCases")
  void clickHouse1816Case_isReproducedFromItsRowsReadAsJsonNodes(String name, JsonNode c) {
    TableSchema schema = Golden.schemaOf(c);
    // Each expected row is a JSON array, which the adapter reads by position.
    List<JsonNode> rows = StreamSupport.stream(c.get("expected_rows").spliterator(), false)
        .toList();
    byte[] expected = FILES.bytes("clickhouse-18.16/" + c.path("files").path("rowbinary")
        .asText());

    assertSameBytes(name + " (JsonNode rows)", expected,
        encode(schema, JsonRows.accessor(schema), rows));
  }

  @Test
  void nullableNothing_isRejectedAtSetupBecauseNothingCannotBeAColumn() {
    JsonNode c = cases().filter(x -> name(x).equals("nullable_nothing")).findFirst()
        .orElseThrow();
    TableSchema schema = Golden.schemaOf(c);
    assertThat(schema.column(0).type()).isEqualTo("Nullable(Nothing)");

    assertThatThrownBy(() -> PROVIDER.create(schema, RowAccessors.objectArray(), Map.of()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("column n")
        .hasMessageContaining("Nothing");
    assertThatThrownBy(() -> PROVIDER.create(
        TableSchema.of(new ColumnSpec("a", "Array(Nullable(Nothing))")),
        RowAccessors.objectArray(), Map.of()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("column a")
        .hasMessageContaining("Nothing");
  }

  /* ------------------------------------------------------------------ ch-go snapshots */

  static Stream<Arguments> chGoSnapshots() {
    return ChGoSnapshots.all().stream()
        .map(s -> Arguments.of(s.file(), s.type(), s.rows(), s.value()));
  }

  @ParameterizedTest(name = "{0} as {1}")
  @MethodSource("chGoSnapshots")
  void chGoSnapshot_isReproducedByteForByteFromItsListedValues(String file, String type,
      int rowCount, IntFunction<Object> value) {
    TableSchema schema = TableSchema.of(new ColumnSpec("v", type));
    List<Object[]> rows = new ArrayList<>();
    for (int i = 0; i < rowCount; i++) {
      rows.add(new Object[] {value.apply(i)});
    }
    byte[] expected = FILES.bytes("ch-go/" + file + ".raw");
    assertThat(expected).hasSize(rowCount * ClickHouseType.parse(type).fixedWidth());

    assertSameBytes(file, expected, encode(schema, RowAccessors.objectArray(), rows));
  }

  @Test
  void chGoSnapshots_coverEveryFixedWidthTypeThat1816Lacks() {
    Set<TypeKind> covered = chGoSnapshots()
        .map(a -> ClickHouseType.parse((String) a.get()[1]).kind())
        .collect(Collectors.toSet());
    assertThat(covered).containsExactlyInAnyOrder(TypeKind.INT128, TypeKind.UINT128,
        TypeKind.INT256, TypeKind.UINT256, TypeKind.DECIMAL, TypeKind.DATE32,
        TypeKind.DATETIME64, TypeKind.BOOL, TypeKind.IPV4, TypeKind.IPV6, TypeKind.UUID);
  }

  /* ------------------------------------------------------------------ derived vectors */

  static Stream<Arguments> derivedScalars() {
    return StreamSupport.stream(MODERN.get("scalars").spliterator(), false)
        .map(s -> Arguments.of(s.get("type").asText(), s.get("value"),
            s.get("value_hex").asText()));
  }

  /** The scalars whose value is text the encoder reads as such (DateTime64's ends in " UTC"). */
  static Stream<Arguments> derivedScalarsAsText() {
    return derivedScalars().filter(a -> ((JsonNode) a.get()[1]).isTextual()
        && !((String) a.get()[0]).startsWith("DateTime64"));
  }

  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("derivedScalars")
  void derivedScalar_isReproducedFromItsTypedJavaValue(String type, JsonNode value,
      String hex) {
    Object v = Golden.javaValue(value, ClickHouseType.parse(type));
    assertSameBytes(type + " " + value + " as " + v.getClass().getSimpleName(),
        Golden.hex(hex), encodeOne(type, v));
  }

  @ParameterizedTest(name = "{0} \"{1}\"")
  @MethodSource("derivedScalarsAsText")
  void derivedScalar_isReproducedFromItsText(String type, JsonNode value, String hex) {
    assertSameBytes(type + " " + value + " as text", Golden.hex(hex),
        encodeOne(type, value.textValue()));
  }

  @Test
  void derivedScalars_coverEveryModernFixedWidthFamily() {
    Set<TypeKind> covered = derivedScalars()
        .map(a -> ClickHouseType.parse((String) a.get()[0]).kind())
        .collect(Collectors.toSet());
    assertThat(covered).containsExactlyInAnyOrder(TypeKind.INT128, TypeKind.UINT128,
        TypeKind.INT256, TypeKind.UINT256, TypeKind.DECIMAL, TypeKind.BOOL, TypeKind.DATE32,
        TypeKind.DATETIME64, TypeKind.IPV4, TypeKind.IPV6, TypeKind.UUID);
  }

  @Test
  void derivedMapRows_areReproducedRowByRowAndBackToBack() {
    JsonNode map = MODERN.get("map");
    String type = map.get("type").asText();
    ClickHouseType t = ClickHouseType.parse(type);
    TableSchema schema = TableSchema.of(new ColumnSpec("m", type));
    List<Object[]> rows = new ArrayList<>();
    StringBuilder all = new StringBuilder();
    for (int i = 0; i < map.get("rows").size(); i++) {
      Object[] row = {Golden.javaValue(map.get("rows").get(i), t)};
      String hex = map.get("rowbinary_rows_hex").get(i).asText();
      assertSameBytes("Map row " + i, Golden.hex(hex),
          encode(schema, RowAccessors.objectArray(), List.<Object[]>of(row)));
      rows.add(row);
      all.append(hex);
    }

    assertSameBytes("Map rows back to back", Golden.hex(all.toString()),
        encode(schema, RowAccessors.objectArray(), rows));
  }

  @Test
  void derivedMapRows_areReproducedFromJsonObjects() {
    JsonNode map = MODERN.get("map");
    TableSchema schema = TableSchema.of(new ColumnSpec("m", map.get("type").asText()));
    List<JsonNode> rows = new ArrayList<>();
    StringBuilder all = new StringBuilder();
    for (int i = 0; i < map.get("rows").size(); i++) {
      ObjectNode row = Golden.JSON.createObjectNode();
      row.set("m", map.get("rows").get(i));
      rows.add(row);
      all.append(map.get("rowbinary_rows_hex").get(i).asText());
    }

    assertSameBytes("Map rows from JSON objects", Golden.hex(all.toString()),
        encode(schema, JsonRows.accessor(schema), rows));
  }

  @Test
  void derivedNamesAndTypesHeader_startsTheFrameFollowedByTheRow() {
    JsonNode header = MODERN.get("rowbinary_with_names_and_types_header");
    List<ColumnSpec> columns = new ArrayList<>();
    for (JsonNode c : header.get("columns")) {
      columns.add(new ColumnSpec(c.get(0).asText(), c.get(1).asText()));
    }
    TableSchema schema = new TableSchema(columns);
    assertThat(schema.columns()).extracting(ColumnSpec::type)
        .containsExactly("UInt32", "Map(String, UInt64)");

    RowEncoder<Object[]> encoder = PROVIDER.create(schema, RowAccessors.objectArray(),
        Map.of(RowBinaryOptions.HEADER, RowBinaryOptions.HEADER_NAMES_AND_TYPES));
    ChunkBuffer buffer = new ChunkBuffer(16);
    encoder.encode(new Object[] {7, Map.of()}, buffer);

    assertSameBytes("header then (7, {})",
        Golden.hex(header.get("hex").asText() + "07000000" + "00"), buffer.toByteArray());
  }

  /* ------------------------------------------------------------------ helpers */

  private static Stream<JsonNode> cases() {
    return Golden.cases(CASES);
  }

  private static String name(JsonNode c) {
    return Golden.name(c);
  }

  static <T> byte[] encode(TableSchema schema, RowAccessor<T> accessor, List<? extends T> rows) {
    RowEncoder<T> encoder = PROVIDER.create(schema, accessor, Map.of());
    ChunkBuffer buffer = new ChunkBuffer(8);
    for (T row : rows) {
      encoder.encode(row, buffer);
    }
    return buffer.toByteArray();
  }

  private static byte[] encodeOne(String type, Object value) {
    return encode(TableSchema.of(new ColumnSpec("v", type)), RowAccessors.objectArray(),
        List.<Object[]>of(new Object[] {value}));
  }
}
