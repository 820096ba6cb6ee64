package dev.handoff.encoders.rowbinary;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.handoff.api.ChunkBuffer;
import dev.handoff.api.ColumnSpec;
import dev.handoff.api.spi.RowEncoder;
import dev.handoff.api.spi.RowEncoderProvider;
import dev.handoff.api.TableSchema;
import dev.handoff.clickhouse.row.RowAccessors;
import dev.handoff.core.Providers;
import dev.handoff.encoders.rowbinary.internal.RowBinaryEncoderProvider;
import java.util.Map;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;
import org.junit.jupiter.api.Test;

/*
 * Lookup by name as pipeline builders do it: handoff-core's Providers runs ServiceLoader. The
 * encoder module itself declares no `uses`, so the lookup has to come from another module; in
 * this test run handoff-core is a test dependency (on the class path, the unnamed module, which
 * may use any service), and ServiceLoader finds the provider through this module's `provides`
 * clause in the boot layer.
 */
final class RowBinaryProviderLookupTest {

  @Test
  void providersEncoderRowbinary_findsTheInternalProviderThroughServiceLoader() {
    RowEncoderProvider provider = Providers.encoder(RowBinaryOptions.NAME);

    assertThat(provider).isExactlyInstanceOf(RowBinaryEncoderProvider.class);
    assertThat(provider.name()).isEqualTo("rowbinary");
    assertThat(provider.getClass().getModule().getName())
        .isEqualTo("dev.handoff.encoders.rowbinary");
    assertThat(Providers.encoderNames()).contains("rowbinary");
  }

  @Test
  void serviceLoaderInsideTheEncoderModule_needsAUsesClauseTheModuleRightlyLacks() {
    // Why the other tests construct the provider directly: these test classes run inside
    // dev.handoff.encoders.rowbinary, which provides the service but does not use it.
    assertThatThrownBy(() -> ServiceLoader.load(RowEncoderProvider.class).iterator().hasNext())
        .isInstanceOf(ServiceConfigurationError.class)
        .hasMessageContaining("does not declare `uses`");

    // Granting the use at run time shows the provides clause alone is enough to be found.
    getClass().getModule().addUses(RowEncoderProvider.class);
    assertThat(ServiceLoader.load(RowEncoderProvider.class).stream()
        .map(ServiceLoader.Provider::type).toList())
        .containsExactly(RowBinaryEncoderProvider.class);
  }

  @Test
  void providerFoundByName_createsAWorkingEncoder() {
    TableSchema schema = TableSchema.of(new ColumnSpec("v", "UInt16"));
    RowEncoder<Object[]> encoder = Providers.encoder("rowbinary")
        .create(schema, RowAccessors.objectArray(), Map.of());
    ChunkBuffer buffer = new ChunkBuffer(8);

    encoder.encode(new Object[] {0x1234}, buffer);

    assertThat(buffer.toByteArray()).containsExactly(0x34, 0x12);
  }
}
