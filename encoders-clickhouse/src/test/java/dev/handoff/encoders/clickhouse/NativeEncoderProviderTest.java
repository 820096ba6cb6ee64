package dev.handoff.encoders.clickhouse;

import static dev.handoff.encoders.clickhouse.NativeTesting.schema;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.handoff.api.spi.RowEncoderProvider;
import dev.handoff.clickhouse.row.RowAccessors;
import dev.handoff.core.Providers;
import dev.handoff.encoders.clickhouse.internal.NativeEncoderProvider;
import java.util.Map;
import org.junit.jupiter.api.Test;

/* The provider: its name, ServiceLoader registration, and setup errors naming the column. */
class NativeEncoderProviderTest {

  /** Core's Providers runs ServiceLoader (this module declares no {@code uses}). */
  @Test
  void isFoundByNameThroughServiceLoader() {
    RowEncoderProvider p = Providers.encoder(NativeOptions.NAME);
    assertThat(p).isInstanceOf(NativeEncoderProvider.class);
    assertThat(p.name()).isEqualTo("native");
  }

  @Test
  void rejectsUnknownOptionsAndBadTypesWithTheColumnName() {
    NativeEncoderProvider p = new NativeEncoderProvider();
    assertThatThrownBy(() -> p.create(schema("x", "UInt8"), RowAccessors.objectArray(),
        Map.of("header", "x"))).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("header");
    assertThatThrownBy(() -> p.create(schema("x", "UInt8", "bad", "Int33"),
        RowAccessors.objectArray(), Map.of())).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("column bad");
    assertThatThrownBy(() -> p.create(schema("arr", "LowCardinality(Array(String))"),
        RowAccessors.objectArray(), Map.of())).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("column arr");
  }
}
