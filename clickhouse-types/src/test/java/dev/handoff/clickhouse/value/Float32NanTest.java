package dev.handoff.clickhouse.value;

import static org.assertj.core.api.Assertions.assertThat;

import dev.handoff.clickhouse.row.RowAccessors;
import dev.handoff.clickhouse.type.ClickHouseType;
import dev.handoff.clickhouse.type.TypeKind;
import org.junit.jupiter.api.Test;

/** NaN payloads survive into Float32 whether the conversion runs interpreted or compiled. */
final class Float32NanTest {
  private static final ClickHouseType FLOAT32 = ClickHouseType.of(TypeKind.FLOAT32);

  @Test
  void signallingFloatNan_keepsItsBitsAcrossManyCallsSoTheJitCannotQuietIt() {
    float snan = Float.intBitsToFloat(0x7f983ab1);
    Object[] row = {snan};
    for (int i = 0; i < 200_000; i++) {
      float f = Conversions.toFloat(RowAccessors.objectArray(), row, 0, FLOAT32, "f");
      if (Float.floatToRawIntBits(f) != 0x7f983ab1) {
        throw new AssertionError("call " + i + " gave " + Integer.toHexString(
            Float.floatToRawIntBits(f)));
      }
    }
  }

  @Test
  void doubleNan_mapsItsSignAndTopPayloadBitsToTheFloat() {
    double nan = Double.longBitsToDouble(0xfff8000000000000L);
    Object[] row = {nan};
    float f = Conversions.toFloat(RowAccessors.objectArray(), row, 0, FLOAT32, "f");
    assertThat(Integer.toHexString(Float.floatToRawIntBits(f))).isEqualTo("ffc00000");
  }
}
