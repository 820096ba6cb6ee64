package dev.handoff.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.lang.module.ModuleDescriptor;
import java.lang.module.ModuleDescriptor.Opens;
import java.lang.module.ModuleDescriptor.Requires;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/*
 * Surefire runs these tests on the module path with the test classes patched into the module, so
 * the descriptor read here is the one compiled from module-info.java.
 */
final class ModuleDescriptorTest {

  @Test
  void descriptor_exportsNothingAndOpensTheCommandsOnlyToPicocli() {
    ModuleDescriptor descriptor = descriptor();

    assertThat(descriptor.name()).isEqualTo("dev.handoff.cli");
    assertThat(descriptor.isOpen()).as("open module").isFalse();
    assertThat(descriptor.exports()).as("a program exports nothing").isEmpty();
    assertThat(descriptor.opens()).hasSize(1);
    Opens opens = descriptor.opens().iterator().next();
    assertThat(opens.source()).isEqualTo("dev.handoff.cli");
    assertThat(opens.targets()).containsExactly("info.picocli");
  }

  @Test
  void descriptor_requiresTheSimulatorTheIngestModulesAndPicocliOnly() {
    Set<String> requires = descriptor().requires().stream().map(Requires::name)
        .collect(Collectors.toSet());

    assertThat(requires).containsExactlyInAnyOrder("java.base", "dev.handoff.simulator",
        "dev.handoff.core", "dev.handoff.clickhouse.types", "dev.handoff.clickhouse.http",
        "com.fasterxml.jackson.databind", "info.picocli");
    assertThat(descriptor().uses()).as("core and the simulator look up encoders, not the CLI")
        .isEmpty();
    assertThat(descriptor().provides()).isEmpty();
  }

  private static ModuleDescriptor descriptor() {
    Module module = Main.class.getModule();
    ModuleDescriptor descriptor = module.getDescriptor();
    if (descriptor == null) {
      fail("dev.handoff.cli classes were loaded from the class path (unnamed module " + module
          + "); Surefire must run this module's tests on the module path");
    }
    return descriptor;
  }
}
