package dev.handoff.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.module.ModuleDescriptor;
import java.lang.module.ModuleDescriptor.Exports;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** Pins the simulator's module descriptor: two exported packages, the engine's stay hidden. */
final class ModuleDescriptorTest {

  @Test
  void descriptor_exportsTheEngineApiAndTheReportModelOnly() {
    ModuleDescriptor d = Simulation.class.getModule().getDescriptor();

    assertThat(d).as("the tests run on the module path").isNotNull();
    assertThat(d.name()).isEqualTo("dev.handoff.simulator");
    assertThat(d.exports().stream().map(Exports::source).collect(Collectors.toSet()))
        .containsExactlyInAnyOrder("dev.handoff.simulator", "dev.handoff.simulator.report");
    assertThat(d.exports()).noneMatch(Exports::isQualified);
    assertThat(d.packages()).contains("dev.handoff.simulator.bench");
    assertThat(d.uses()).contains("dev.handoff.api.spi.RowEncoderProvider");
  }
}
