package dev.handoff.encoders.rowbinary;

import static dev.handoff.encoders.testsupport.Golden.assertSameBytes;

import dev.handoff.api.ChunkBuffer;
import dev.handoff.api.ColumnSpec;
import dev.handoff.api.TableSchema;
import dev.handoff.api.spi.RowEncoder;
import dev.handoff.clickhouse.row.RowAccessors;
import dev.handoff.encoders.rowbinary.internal.RowBinaryEncoderProvider;
import dev.handoff.encoders.testsupport.Golden267;
import dev.handoff.encoders.testsupport.GoldenFiles;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The golden vectors of a ClickHouse 26.7 engine (no JSON, Variant or Dynamic), byte for byte:
 * {@code FORMAT RowBinary}, {@code RowBinaryWithNamesAndTypes} with the types as text (the
 * server's canonical names, although some schemas here spell them otherwise) and with the types
 * in binary encoding, from the rows as Java values.
 */
final class RowBinaryGolden267Test {
  private static final GoldenFiles FILES = GoldenFiles.of(
      path -> RowBinaryGolden267Test.class.getResourceAsStream(path));

  static List<String> cases() {
    return Golden267.CASES;
  }

  private static byte[] encode(Golden267.Case c, String header) {
    TableSchema schema = new TableSchema(List.of(new ColumnSpec("v", c.spelling())));
    RowEncoder<Object[]> encoder = new RowBinaryEncoderProvider().create(schema,
        RowAccessors.objectArray(), Map.of(RowBinaryOptions.HEADER, header));
    ChunkBuffer out = new ChunkBuffer(256);
    for (Object v : c.values()) {
      encoder.encode(new Object[] {v}, out);
    }
    return out.toByteArray();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void rowBinary(String name) {
    Golden267.Case c = Golden267.read(FILES, name);
    assertSameBytes(name + " RowBinary",
        FILES.bytes(Golden267.DIR + name + ".rowbinary.bin"),
        encode(c, RowBinaryOptions.HEADER_NONE));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void namesAndCanonicalTypes(String name) {
    Golden267.Case c = Golden267.read(FILES, name);
    assertSameBytes(name + " RowBinaryWithNamesAndTypes",
        FILES.bytes(Golden267.DIR + name + ".rbnt.bin"),
        encode(c, RowBinaryOptions.HEADER_NAMES_AND_TYPES));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void namesAndBinaryTypes(String name) {
    Golden267.Case c = Golden267.read(FILES, name);
    assertSameBytes(name + " RowBinaryWithNamesAndTypes, binary types",
        FILES.bytes(Golden267.DIR + name + ".rbnt-binary-types.bin"),
        encode(c, RowBinaryOptions.HEADER_NAMES_AND_BINARY_TYPES));
  }
}
