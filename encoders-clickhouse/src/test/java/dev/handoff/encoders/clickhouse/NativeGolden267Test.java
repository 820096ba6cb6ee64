package dev.handoff.encoders.clickhouse;

import static dev.handoff.encoders.testsupport.Golden.assertSameBytes;

import dev.handoff.api.ColumnSpec;
import dev.handoff.api.TableSchema;
import dev.handoff.encoders.testsupport.Golden267;
import dev.handoff.encoders.testsupport.GoldenFiles;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The golden vectors of a ClickHouse 26.7 engine (no JSON, Variant or Dynamic): our Native block
 * of the rows, as Java values, equals the engine's {@code FORMAT Native} byte for byte (the
 * schema carries the server's type name, which the block header repeats).
 */
final class NativeGolden267Test {
  private static final GoldenFiles FILES = GoldenFiles.of(
      path -> NativeGolden267Test.class.getResourceAsStream(path));

  static List<String> cases() {
    return Golden267.CASES;
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void nativeBlock(String name) {
    Golden267.Case c = Golden267.read(FILES, name);
    TableSchema schema = new TableSchema(List.of(new ColumnSpec("v", c.type().canonicalName())));
    List<Object[]> rows = new ArrayList<>();
    for (Object v : c.values()) {
      rows.add(new Object[] {v});
    }
    assertSameBytes(name + " Native", FILES.bytes(Golden267.DIR + name + ".native.bin"),
        NativeTesting.block(schema, rows));
  }
}
