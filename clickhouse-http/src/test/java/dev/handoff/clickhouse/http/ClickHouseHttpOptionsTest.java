package dev.handoff.clickhouse.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.time.Duration;
import org.junit.jupiter.api.Test;

final class ClickHouseHttpOptionsTest {

  @Test
  void defaults_areTheLocalServerAndTheDefaultDatabase() {
    ClickHouseHttpOptions o = ClickHouseHttpOptions.defaults();

    assertThat(o.url()).isEqualTo(URI.create("http://127.0.0.1:8123"));
    assertThat(o.user()).isNull();
    assertThat(o.password()).isNull();
    assertThat(o.database()).isEqualTo("default");
    assertThat(o.connectTimeout()).isEqualTo(Duration.ofSeconds(5));
    assertThat(o.requestTimeout()).isEqualTo(Duration.ofSeconds(60));
    assertThat(o.compression()).isEqualTo(ClickHouseHttpOptions.Compression.LZ4);
    assertThat(o.zstdLevel()).isEqualTo(1);
    assertThat(o.settings()).isEmpty();
  }

  @Test
  void builder_roundTripsThroughToBuilder_andToStringHidesThePassword() {
    ClickHouseHttpOptions o = ClickHouseHttpOptions.builder().url("https://ch.example:8443")
        .user("u").password("s3cret").database("db").setting("max_insert_block_size", "100")
        .compression(ClickHouseHttpOptions.Compression.ZSTD).zstdLevel(9).build();

    assertThat(o.toBuilder().build()).isEqualTo(o);
    assertThat(o.zstdLevel()).isEqualTo(9);
    assertThat(o.toString()).contains("compression=ZSTD(9)");
    assertThat(o.toString()).doesNotContain("s3cret").contains("password=***");
    assertThat(o.settings()).containsEntry("max_insert_block_size", "100");
  }

  @Test
  void builder_refusesWhatCannotWork() {
    assertThatThrownBy(() -> ClickHouseHttpOptions.builder().url("ftp://x").build())
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("http or https");
    assertThatThrownBy(() -> ClickHouseHttpOptions.builder().database(" ").build())
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("database is blank");
    assertThatThrownBy(() -> ClickHouseHttpOptions.builder().requestTimeout(Duration.ZERO).build())
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("requestTimeout");
    assertThatThrownBy(() -> ClickHouseHttpOptions.builder().setting("a&b", "1").build())
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("a&b");
    assertThatThrownBy(() -> ClickHouseHttpOptions.builder().zstdLevel(0).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("zstdLevel 0 (expected: 1 to 22)");
    assertThatThrownBy(() -> ClickHouseHttpOptions.builder().zstdLevel(23).build())
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("zstdLevel 23");
  }
}
