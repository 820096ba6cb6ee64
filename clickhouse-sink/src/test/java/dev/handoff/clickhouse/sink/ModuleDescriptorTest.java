package dev.handoff.clickhouse.sink;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.module.ModuleDescriptor;
import java.lang.module.ModuleDescriptor.Exports;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** The sink module exports its one API package and nothing else. */
final class ModuleDescriptorTest {

  @Test
  void exportsOnlyTheSinkPackage() {
    ModuleDescriptor d = ClickHouseSink.class.getModule().getDescriptor();
    assertThat(d).as("tests run on the module path").isNotNull();
    assertThat(d.name()).isEqualTo("dev.handoff.clickhouse.sink");
    assertThat(d.exports().stream().map(Exports::source).collect(Collectors.toSet()))
        .containsExactly("dev.handoff.clickhouse.sink");
    assertThat(d.exports()).allMatch(e -> !e.isQualified());
  }
}
