package dev.handoff.encoders.rowbinary;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.handoff.api.ChunkBuffer;
import dev.handoff.api.ColumnSpec;
import dev.handoff.api.HandoffException;
import dev.handoff.api.TableSchema;
import dev.handoff.clickhouse.row.RowAccessors;
import dev.handoff.encoders.rowbinary.internal.RowBinaryEncoderProvider;
import dev.handoff.encoders.testsupport.JsonTextSweep;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * JSON text rows write exactly the bytes of the same values given as maps (the tree path), over
 * a seed sweep of random texts and JSON types ({@link JsonTextSweep}); {@code
 * -Dhandoff.jsontext.seeds=N} runs more. Bad values inside arrays are reported as the tree path
 * reports them.
 */
final class JsonTextFlatTest {
  @Test
  void textRows_writeTheBytesOfMapRows() {
    JsonTextSweep.run(VariantDynamicJsonSweepTest.ROW_BINARY, 0,
        Integer.getInteger("handoff.jsontext.seeds", 4000));
  }

  /** Bad values inside arrays and objects of JSON text read flat name column, value, reason. */
  @Test
  void badValuesInArrays_nameTheColumnTheValueAndWhy() {
    assertRejected("JSON(a Array(UInt8))", "{\"a\":[1,300]}",
        "column \"j.a[]\" (UInt8): value 300 (LONG) is out of range 0..255");
    assertRejected("JSON", "{\"a\":[{\"p.q\":1,\"p\":{\"q\":2}}]}",
        "value {\"p.q\":1,\"p\":{\"q\":2}} (MAP) has the path 'p.q' twice");
    assertRejected("JSON(x Tuple(a Int64, b String))", "{\"x\":{\"a\":1}}",
        "column \"j.x\" (Tuple(a Int64, b String)): value {\"a\":1} (MAP)");
    assertRejected("JSON(x Map(String, UInt8))", "{\"x\":{\"k\":[1]}}",
        "value [1] (SEQUENCE): cannot convert SEQUENCE to UInt8");
  }

  private static void assertRejected(String type, String text, String message) {
    var e = new RowBinaryEncoderProvider().create(TableSchema.of(new ColumnSpec("j", type)),
        RowAccessors.objectArray(), Map.of());
    assertThatThrownBy(() -> e.encode(new Object[] {text}, new ChunkBuffer(64)))
        .isInstanceOf(HandoffException.class).hasMessageContaining(message);
  }
}
