package dev.handoff.encoders.clickhouse;

import static dev.handoff.encoders.testsupport.Golden.assertSameBytes;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.handoff.api.ChunkBuffer;
import dev.handoff.api.ColumnSpec;
import dev.handoff.api.spi.RowEncoder;
import dev.handoff.api.TableSchema;
import dev.handoff.clickhouse.row.RowAccessors;
import dev.handoff.clickhouse.type.ClickHouseType;
import dev.handoff.clickhouse.type.TypeKind;
import dev.handoff.encoders.clickhouse.internal.NativeEncoderProvider;
import dev.handoff.encoders.testsupport.ChGoSnapshots;
import dev.handoff.encoders.testsupport.Golden;
import dev.handoff.encoders.testsupport.GoldenFiles;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.function.IntFunction;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/*
 * Reproduces golden Native vectors byte for byte from their listed values:
 *  - the 58 Native bodies a live ClickHouse 18.16.1 wrote (../shared/golden/clickhouse-18.16),
 *    from each case's expected_rows, one block per server block (finishChunk after every
 *    max_block_size rows for the multi-block cases), the column typed as the Native header
 *    spells it (native_header_type). nullable_nothing cannot be a column and must be rejected at
 *    setup; array_lowcardinality_all_empty is compared with the documented short form, because
 *    18.16 writes 25 bytes its own reader does not expect (clickhouse-formats.md 4.17);
 *  - ch-go's encoder snapshots of the fixed-width types 18.16 lacks and of Map(String, String):
 *    the column data part of our one-column block;
 *  - ch-go's two real-server Native dumps, whole.
 * Also: bufferedBytes() before finishChunk equals (within the 1%) the block written.
 */
final class NativeGoldenTest {

  private static final NativeEncoderProvider PROVIDER = new NativeEncoderProvider();
  private static final GoldenFiles FILES = GoldenFiles.of(
      path -> NativeGoldenTest.class.getResourceAsStream(path));
  private static final JsonNode CASES = FILES.json("clickhouse-18.16/cases.json");

  /** Cases whose type cannot be a table column, so no encoder is ever created for them. */
  private static final Set<String> NOT_A_COLUMN = Set.of("nullable_nothing");

  /** Cases compared with something other than the server's file, and why. */
  private static final Map<String, String> DEVIATIONS = Map.of(
      "array_lowcardinality_all_empty",
      "18.16 writes flags, a one-entry dictionary and a key count of 0 after the offsets of an"
          + " all-empty nested LowCardinality; its reader (and modern servers) expect nothing:"
          + " the encoder writes the short form");

  /** The 25 bytes 18.16 writes after the offsets: flags 0x600, dictionary [''], 0 keys. */
  private static final String SERVER_ONLY_LC_TAIL =
      "0006000000000000" + "0100000000000000" + "00" + "0000000000000000";

  /* ------------------------------------------------------------------ ClickHouse 18.16 */

  static Stream<Arguments> encodableCases() {
    return cases().filter(c -> !NOT_A_COLUMN.contains(name(c)))
        .map(c -> Arguments.of(name(c), c));
  }

  @Test
  void goldenSet_hasAll58CasesAndEveryOneButNullableNothingIsEncoded() {
    assertThat(cases().count()).isEqualTo(58);
    assertThat(encodableCases().count()).isEqualTo(57);
    assertThat(cases().map(c -> c.path("files").path("native").asText()))
        .allSatisfy(f -> assertThat(FILES.bytes("clickhouse-18.16/" + f)).isNotNull());
    assertThat(DEVIATIONS.keySet()).isSubsetOf(cases().map(NativeGoldenTest::name)
        .collect(Collectors.toSet()));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("encodableCases")
  void clickHouse1816Case_isReproducedByteForByteFromItsExpectedRows(String name, JsonNode c) {
    TableSchema schema = nativeSchemaOf(c);
    List<Object[]> rows = Golden.expectedRows(c, schema);
    int blockSize = c.path("url_settings").has("max_block_size")
        ? Integer.parseInt(c.path("url_settings").path("max_block_size").asText())
        : Integer.MAX_VALUE;
    byte[] expected = FILES.bytes("clickhouse-18.16/" + c.path("files").path("native")
        .asText());
    if (DEVIATIONS.containsKey(name)) {
      expected = shortFormOfAllEmptyNestedLowCardinality(expected);
    }

    assertSameBytes(name, expected, encodeBlocks(schema, rows, blockSize));
  }

  /** The server's file without the 25 bytes after the offsets that readers do not expect. */
  private static byte[] shortFormOfAllEmptyNestedLowCardinality(byte[] server) {
    assertThat(server).hasSize(83);
    byte[] tail = Golden.hex(SERVER_ONLY_LC_TAIL);
    assertThat(Arrays.copyOfRange(server, server.length - tail.length, server.length))
        .as("the 18.16-only tail").isEqualTo(tail);
    byte[] shortForm = Arrays.copyOf(server, server.length - tail.length);
    // header, version 1, offsets 0 0 (two rows, both empty), and nothing after them
    assertThat(shortForm).isEqualTo(concat(blockHeader(1, 2, "v", "Array(LowCardinality(String))"),
        Golden.hex("0100000000000000" + "0000000000000000" + "0000000000000000")));
    return shortForm;
  }

  @Test
  void allEmptyNestedLowCardinality_followedByAnotherColumn_writesNothingAfterTheOffsets() {
    // The case that made 18.16's own bytes unreadable: another column after the empty one.
    TableSchema schema = TableSchema.of(new ColumnSpec("v", "Array(LowCardinality(String))"),
        new ColumnSpec("x", "UInt8"));
    byte[] block = encodeBlocks(schema, List.of(new Object[] {List.of(), 7},
        new Object[] {List.of(), 8}), Integer.MAX_VALUE);
    assertSameBytes("Array(LowCardinality(String)) all empty, then UInt8", concat(
        Golden.hex("0202"), str("v"), str("Array(LowCardinality(String))"),
        Golden.hex("0100000000000000" + "0000000000000000" + "0000000000000000"),
        str("x"), str("UInt8"), Golden.hex("0708")), block);
  }

  @Test
  void noRows_writesNothing_likeTheServersEmptyResult() {
    // 18.16 writes 0 bytes for an empty result (case empty_result); a 0-row block is not needed.
    RowEncoder<Object[]> encoder = create(TableSchema.of(new ColumnSpec("number", "UInt64")));
    ChunkBuffer buffer = new ChunkBuffer(8);
    assertThat(encoder.bufferedBytes()).isZero();
    encoder.finishChunk(buffer);
    assertThat(buffer.length()).isZero();
  }

  @Test
  void nullableNothing_isRejectedAtSetupBecauseNothingCannotBeAColumn() {
    JsonNode c = cases().filter(x -> name(x).equals("nullable_nothing")).findFirst()
        .orElseThrow();
    TableSchema schema = nativeSchemaOf(c);
    assertThat(schema.column(0).type()).isEqualTo("Nullable(Nothing)");

    assertThatThrownBy(() -> PROVIDER.create(schema, RowAccessors.objectArray(), Map.of()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("Nothing");
    assertThatThrownBy(() -> PROVIDER.create(
        TableSchema.of(new ColumnSpec("a", "Array(Nullable(Nothing))")),
        RowAccessors.objectArray(), Map.of()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("Nothing");
  }

  /* ------------------------------------------------------------------ ch-go */

  static Stream<Arguments> chGoSnapshots() {
    return ChGoSnapshots.all().stream()
        .map(s -> Arguments.of(s.file(), s.type(), s.rows(), s.value()));
  }

  @ParameterizedTest(name = "{0} as {1}")
  @MethodSource("chGoSnapshots")
  void chGoSnapshot_isTheColumnDataOfOurBlock(String file, String type, int rowCount,
      IntFunction<Object> value) {
    TableSchema schema = TableSchema.of(new ColumnSpec("v", type));
    List<Object[]> rows = new ArrayList<>();
    for (int i = 0; i < rowCount; i++) {
      rows.add(new Object[] {value.apply(i)});
    }
    byte[] expected = FILES.bytes("ch-go/" + file + ".raw");
    assertThat(expected).hasSize(rowCount * ClickHouseType.parse(type).fixedWidth());

    byte[] block = encodeBlocks(schema, rows, Integer.MAX_VALUE);
    byte[] header = blockHeader(1, rowCount, "v", type);
    assertSameBytes(file + " (block header)", header,
        Arrays.copyOf(block, Math.min(block.length, header.length)));
    assertSameBytes(file + " (column data)", expected,
        Arrays.copyOfRange(block, header.length, block.length));
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

  @Test
  void chGoMapOfStringString_isTheColumnDataOfOurBlock() {
    // Map(String, String) has no state prefix, so ch-go's snapshot is the whole column data.
    TableSchema schema = TableSchema.of(new ColumnSpec("v", "Map(String, String)"));
    Map<String, String> first = new LinkedHashMap<>();
    first.put("foo", "bar");
    Map<String, String> second = new LinkedHashMap<>();
    second.put("like", "100");
    byte[] block = encodeBlocks(schema, List.of(new Object[] {first}, new Object[] {second}),
        Integer.MAX_VALUE);
    byte[] header = blockHeader(1, 2, "v", "Map(String, String)");
    assertSameBytes("col_map_of_str_str (block header)", header,
        Arrays.copyOf(block, Math.min(block.length, header.length)));
    assertSameBytes("col_map_of_str_str (column data)", FILES.bytes("ch-go/col_map_of_str_str.raw"),
        Arrays.copyOfRange(block, header.length, block.length));
  }

  @Test
  void chGoServerDump_twoBlocksOfInt8AndString_isReproducedWhole() {
    TableSchema schema = TableSchema.of(new ColumnSpec("id", "Int8"), new ColumnSpec("v", "String"));
    RowEncoder<Object[]> encoder = create(schema);
    ChunkBuffer buffer = new ChunkBuffer(8);
    encoder.encode(new Object[] {1, "First"}, buffer);
    encoder.finishChunk(buffer);
    encoder.encode(new Object[] {2, "Second"}, buffer);
    encoder.encode(new Object[] {3, "Third"}, buffer);
    encoder.finishChunk(buffer);
    assertSameBytes("test_dump_native.raw", FILES.bytes("ch-go/test_dump_native.raw"),
        buffer.toByteArray());
  }

  @Test
  void chGoServerDump_arrayOfLowCardinalityString_isReproducedWhole() {
    TableSchema schema = TableSchema.of(new ColumnSpec("v", "Array(LowCardinality(String))"));
    List<Object[]> rows = List.of(new Object[] {List.of("foo", "bar", "baz")},
        new Object[] {List.of("foo")}, new Object[] {List.of("bar", "bar")},
        new Object[] {List.of("foo", "foo")}, new Object[] {List.of("bar", "bar", "bar", "bar")});
    assertSameBytes("select_lc.raw", FILES.bytes("ch-go/select_lc.raw"),
        encodeBlocks(schema, rows, Integer.MAX_VALUE));
  }

  /* ------------------------------------------------------------------ helpers */

  private static Stream<JsonNode> cases() {
    return Golden.cases(CASES);
  }

  private static String name(JsonNode c) {
    return Golden.name(c);
  }

  /** The case's columns, each typed as the Native header spells it. */
  private static TableSchema nativeSchemaOf(JsonNode c) {
    List<ColumnSpec> columns = new ArrayList<>();
    for (JsonNode col : c.get("columns")) {
      String type = col.has("native_header_type") ? col.get("native_header_type").asText()
          : col.get("type").asText();
      columns.add(new ColumnSpec(col.get("name").asText(), type));
    }
    return new TableSchema(columns);
  }

  static RowEncoder<Object[]> create(TableSchema schema) {
    return PROVIDER.create(schema, RowAccessors.objectArray(), Map.of());
  }

  /**
   * Encodes {@code rows} with one encoder, finishing a block after every {@code blockSize} rows
   * and after the last; checks bufferedBytes() against each block written.
   */
  static byte[] encodeBlocks(TableSchema schema, List<Object[]> rows, int blockSize) {
    RowEncoder<Object[]> encoder = create(schema);
    ChunkBuffer buffer = new ChunkBuffer(8);
    int inBlock = 0;
    for (Object[] row : rows) {
      int before = buffer.length();
      encoder.encode(row, buffer);
      // columnar: rows stay in the encoder until finishChunk
      assertThat(buffer.length()).as("encode writes nothing into the chunk buffer")
          .isEqualTo(before);
      if (++inBlock == blockSize) {
        finish(encoder, buffer);
        inBlock = 0;
      }
    }
    if (inBlock > 0) {
      finish(encoder, buffer);
    }
    return buffer.toByteArray();
  }

  private static void finish(RowEncoder<Object[]> encoder, ChunkBuffer buffer) {
    int estimate = encoder.bufferedBytes();
    int before = buffer.length();
    encoder.finishChunk(buffer);
    int written = buffer.length() - before;
    assertThat((double) estimate).as("bufferedBytes() before finishChunk, block of %d bytes",
        written).isCloseTo(written, org.assertj.core.data.Offset.offset(written * 0.01));
    assertThat(encoder.bufferedBytes()).as("bufferedBytes() after finishChunk").isZero();
  }

  /** VarUInt columns, VarUInt rows, and the first column's name and type. */
  static byte[] blockHeader(int columns, int rows, String name, String type) {
    ChunkBuffer b = new ChunkBuffer(16);
    b.writeVarUInt(columns);
    b.writeVarUInt(rows);
    b.writeBytes(str(name));
    b.writeBytes(str(type));
    return b.toByteArray();
  }

  static byte[] str(String s) {
    byte[] utf8 = s.getBytes(UTF_8);
    ChunkBuffer b = new ChunkBuffer(utf8.length + 2);
    b.writeVarUInt(utf8.length);
    b.writeBytes(utf8);
    return b.toByteArray();
  }

  static byte[] concat(byte[]... parts) {
    ChunkBuffer b = new ChunkBuffer(64);
    for (byte[] p : parts) {
      b.writeBytes(p);
    }
    return b.toByteArray();
  }
}
