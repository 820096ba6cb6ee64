package dev.handoff.encoders.rowbinary;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.handoff.api.ChunkBuffer;
import dev.handoff.api.ColumnSpec;
import dev.handoff.api.TableSchema;
import dev.handoff.api.spi.RowEncoder;
import dev.handoff.clickhouse.row.RowAccessors;
import dev.handoff.clickhouse.testserver.Chdb;
import dev.handoff.clickhouse.testserver.ChdbException;
import dev.handoff.clickhouse.testserver.ChdbSession;
import dev.handoff.clickhouse.type.ClickHouseType;
import dev.handoff.encoders.rowbinary.internal.RowBinaryEncoderProvider;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The RowBinaryWithNamesAndTypes header on a ClickHouse 26.7 engine (libchdb, {@link Chdb}):
 * every spelling docs/formats.md lists as accepted, given as the schema's type, is written as
 * the server's canonical name (or as binary type tags) and inserted into a table of that type;
 * the table then holds exactly the rows (its {@code SELECT ... FORMAT RowBinary} equals our
 * RowBinary of them). A header carrying the spelling itself, as before this fix, is refused by
 * the engine for every non-canonical spelling, so the test would catch the defect.
 */
final class HeaderSpellingChdbTest {
  private static ChdbSession engine;
  private static final AtomicInteger TABLES = new AtomicInteger();

  @BeforeAll
  static void open() {
    engine = Chdb.builder().experimentalTypes().setting("flatten_nested", "0").open();
  }

  @AfterAll
  static void close() {
    if (engine != null) {
      engine.close();
    }
  }

  /** Spelling, and two values of it. */
  static List<Arguments> spellings() {
    Instant t = Instant.parse("2026-12-03T13:45:00.123Z");
    return List.of(
        Arguments.of("Bool", List.of(true, false)),
        Arguments.of("Boolean", List.of(true, false)),
        Arguments.of("Decimal(9, 4)", List.of(new BigDecimal("1.2345"), -7)),
        Arguments.of("Decimal(9,4)", List.of(new BigDecimal("1.2345"), -7)),
        Arguments.of("Decimal(5)", List.of(12345, -1)),
        Arguments.of("Decimal32(4)", List.of(new BigDecimal("1.2345"), -7)),
        Arguments.of("Decimal64(2)", List.of(new BigDecimal("-1.25"), 3)),
        Arguments.of("Decimal128(10)", List.of(new BigDecimal("1.0000000001"), 0)),
        Arguments.of("Decimal256(3)", List.of(new BigDecimal("-123456789.123"), 1)),
        Arguments.of("DateTime", List.of(t, 0)),
        Arguments.of("DateTime('UTC')", List.of(t, 0)),
        Arguments.of("DateTime( 'Asia/Kolkata' )", List.of(t, 0)),
        Arguments.of("DateTime64(3)", List.of(t, 0)),
        Arguments.of("DateTime64(3,'UTC')", List.of(t, 0)),
        Arguments.of("DateTime64(6, 'Europe/Berlin')", List.of(t, 0)),
        Arguments.of("Enum8('b' = 2, 'a' = 1)", List.of("a", "b")),
        Arguments.of("Enum8('it\\'s' = 1, 'x' = -2)", List.of("it's", "x")),
        Arguments.of("Enum16('x' = -1000,'y' = 1000)", List.of("y", "x")),
        Arguments.of("Enum('a' = 1, 'b' = 2)", List.of("b", "a")),
        Arguments.of("Enum('a', 'b', 'c')", List.of("c", "a")),
        Arguments.of("Enum('a' = 200, 'b')", List.of("b", "a")),
        Arguments.of("Map(String,UInt64)", List.of(Map.of("k", 1), Map.of())),
        Arguments.of("Map(LowCardinality(String),Array(Nullable(Int32)))",
            List.of(Map.of("a", List.of(1)), Map.of())),
        Arguments.of("Tuple(Int8,String)", List.of(List.of(1, "x"), List.of(-1, ""))),
        Arguments.of("Tuple(a Int8, b String)", List.of(List.of(1, "x"), List.of(-1, ""))),
        Arguments.of("Tuple(`a b` Int8, \"c\" String)", List.of(List.of(1, "x"),
            List.of(2, "y"))),
        Arguments.of("Nested(a UInt8,b String)", List.of(List.of(List.of(1, "x")), List.of())),
        Arguments.of(" Array( Nullable( String ) ) ", List.of(List.of("a"), List.of())),
        Arguments.of("LowCardinality(Nullable(String))", List.of("a", "b")),
        Arguments.of("Nullable(Decimal32(2))", List.of(new BigDecimal("1.5"), 2)),
        Arguments.of("FixedString(3)", List.of("abc", "a")),
        Arguments.of("Time64(3)", List.of(Duration.ofMillis(-1), "12:00:00")),
        Arguments.of("SimpleAggregateFunction(sum,UInt64)", List.of(1, 2)),
        Arguments.of("QBit(Float32,2)", List.of(List.of(1, 2), List.of(-1.5, 0))),
        Arguments.of("QBit(Int8,16,8)", List.of(new int[] {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11,
            12, 13, 14, 15, -16}, new int[16])),
        Arguments.of("QBit(Int8, 16, 16)", List.of(new int[16], new int[16])),
        Arguments.of("Nullable(Tuple(a UInt8,b String))", List.of(List.of(1, "x"),
            List.of(2, "y"))));
  }

  private static byte[] encode(String spelling, List<?> values, String header) {
    TableSchema schema = new TableSchema(List.of(new ColumnSpec("v", spelling)));
    RowEncoder<Object[]> encoder = new RowBinaryEncoderProvider().create(schema,
        RowAccessors.objectArray(), Map.of(RowBinaryOptions.HEADER, header));
    ChunkBuffer out = new ChunkBuffer(64);
    for (Object v : values) {
      encoder.encode(new Object[] {v}, out);
    }
    return out.toByteArray();
  }

  private static String table(String type) {
    String t = "h" + TABLES.incrementAndGet();
    engine.execute("CREATE TABLE " + t + " (v " + type + ") ENGINE = Memory");
    return t;
  }

  private static void insert(String table, byte[] bytes, String settings) {
    Path file = engine.writeFile(table + ".bin", bytes);
    engine.execute("INSERT INTO " + table + " FROM INFILE " + Chdb.literal(file.toString())
        + (settings.isEmpty() ? "" : " SETTINGS " + settings)
        + " FORMAT RowBinaryWithNamesAndTypes");
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("spellings")
  void theHeaderNamesTheTypeAsTheServerDoes(String spelling, List<?> values) {
    String canonical = ClickHouseType.parse(spelling).canonicalName();
    byte[] rows = encode(spelling, values, RowBinaryOptions.HEADER_NONE);

    String text = table(canonical);
    insert(text, encode(spelling, values, RowBinaryOptions.HEADER_NAMES_AND_TYPES), "");
    assertThat(engine.query("SELECT v FROM " + text, "RowBinary")).isEqualTo(rows);

    String binary = table(canonical);
    insert(binary, encode(spelling, values, RowBinaryOptions.HEADER_NAMES_AND_BINARY_TYPES),
        "input_format_binary_decode_types_in_binary_format = 1");
    assertThat(engine.query("SELECT v FROM " + binary, "RowBinary")).isEqualTo(rows);

    if (!canonical.equals(spelling)) {
      // The header as it was written before: the schema's own text. 26.7 refuses it, and takes
      // the same hand-made frame with the canonical name.
      String old = table(canonical);
      assertThatThrownBy(() -> insert(old, handMade(spelling, rows), ""))
          .isInstanceOf(ChdbException.class)
          .hasMessageContaining("must be " + canonical + ", not " + spelling);
      insert(old, handMade(canonical, rows), "");
      assertThat(engine.query("SELECT v FROM " + old, "RowBinary")).isEqualTo(rows);
    }
  }

  private static byte[] handMade(String type, byte[] rows) {
    ChunkBuffer h = new ChunkBuffer(64);
    h.writeVarUInt(1);
    h.writeVarUInt(1);
    h.writeUtf8("v");
    h.writeVarUInt(type.getBytes(StandardCharsets.UTF_8).length);
    h.writeUtf8(type);
    h.writeBytes(rows);
    return h.toByteArray();
  }
}
