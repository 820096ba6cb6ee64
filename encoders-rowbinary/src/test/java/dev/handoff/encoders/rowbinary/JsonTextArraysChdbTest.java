package dev.handoff.encoders.rowbinary;

import static org.assertj.core.api.Assertions.assertThat;

import dev.handoff.api.ChunkBuffer;
import dev.handoff.api.ColumnSpec;
import dev.handoff.api.TableSchema;
import dev.handoff.api.spi.RowEncoder;
import dev.handoff.clickhouse.row.RowAccessors;
import dev.handoff.clickhouse.testserver.Chdb;
import dev.handoff.clickhouse.testserver.ChdbSession;
import dev.handoff.encoders.rowbinary.internal.RowBinaryEncoderProvider;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * JSON text with arrays (read flat: of scalars with nulls, of mixed kinds, nested, empty, of
 * objects holding arrays of objects, a UInt64 beyond Int64), written as RowBinary and read by a
 * ClickHouse 26.7 engine (libchdb) through {@code file()}, prints as the engine prints its own
 * reading of the same texts ({@code toJSONString}).
 */
final class JsonTextArraysChdbTest {
  private static ChdbSession engine;

  @BeforeAll
  static void open() {
    engine = Chdb.builder().experimentalTypes().open();
  }

  @AfterAll
  static void close() {
    if (engine != null) {
      engine.close();
    }
  }

  @Test
  void jsonTextWithArrays_readsBackAsTheEnginesOwnParse() {
    String[] texts = {
      "{\"a\":[1,null,3],\"s\":[\"x\",\"\"],\"f\":[1.5,2,null],\"e\":[]}",
      "{\"mix\":[1,\"x\",true],\"m\":[[1,2],[],[3]],\"u\":18446744073709551615}",
      "{\"items\":[{\"sku\":\"a\",\"qty\":2,\"d\":{\"k\":[1]}},{\"sku\":\"b\","
          + "\"tags\":[{\"t\":\"u\"}]}],\"n\":{\"deep\":[true,false]}}",
      "{\"a\":[7],\"items\":[{}],\"z\":null,\"t\":[\"\\u00e9\\\"\"]}",
    };
    RowEncoder<Object[]> e = new RowBinaryEncoderProvider().create(
        new TableSchema(List.of(new ColumnSpec("v", "JSON"))), RowAccessors.objectArray(),
        Map.of());
    ChunkBuffer b = new ChunkBuffer(256);
    for (String t : texts) {
      e.encode(new Object[] {t}, b);
    }
    Path file = engine.writeFile("arrays.bin", b.toByteArray());
    String ours = engine.queryText("SELECT toJSONString(v) FROM file("
        + Chdb.literal(file.toString()) + ", 'RowBinary', 'v JSON')", "TSVRaw");
    StringBuilder theirs = new StringBuilder();
    for (String t : texts) {
      theirs.append(engine.queryText("SELECT toJSONString(CAST(" + Chdb.literal(t)
          + " AS JSON))", "TSVRaw"));
    }
    assertThat(ours).isEqualTo(theirs.toString());
    assertThat(ours).contains("\"sku\":\"b\"").contains("18446744073709551615");
  }
}
