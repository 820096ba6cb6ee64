package dev.handoff.clickhouse.testserver;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.module.ModuleDescriptor;
import java.lang.module.ModuleDescriptor.Exports;
import java.lang.module.ModuleDescriptor.Requires;
import java.lang.module.ModuleFinder;
import java.lang.module.ModuleReference;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Pins the module descriptor, read from the {@code module-info.class} next to the main classes:
 * one exported package, and nothing required but the JDK's HTTP client (no test framework).
 */
final class ModuleDescriptorTest {

  @Test
  void descriptor_exportsItsOnePackage_andRequiresOnlyJavaNetHttp() {
    ModuleDescriptor descriptor = compiledDescriptor();

    assertThat(descriptor.name()).isEqualTo("dev.handoff.clickhouse.testserver");
    assertThat(descriptor.isOpen()).isFalse();
    assertThat(descriptor.exports())
        .extracting(Exports::source)
        .containsExactly("dev.handoff.clickhouse.testserver");
    assertThat(descriptor.exports()).noneMatch(Exports::isQualified);
    Set<String> requires =
        descriptor.requires().stream().map(Requires::name).collect(Collectors.toSet());
    assertThat(requires).containsExactlyInAnyOrder("java.base", "java.net.http");
    assertThat(descriptor.opens()).isEmpty();
    assertThat(descriptor.uses()).isEmpty();
    assertThat(descriptor.provides()).isEmpty();
  }

  @Test
  void runtimeModule_whenNamed_isTheCompiledOne() {
    Module module = ClickHouseServer.class.getModule();
    if (module.isNamed()) {
      assertThat(module.getDescriptor().name()).isEqualTo(compiledDescriptor().name());
      assertThat(module.getDescriptor().exports()).isEqualTo(compiledDescriptor().exports());
    }
  }

  private static ModuleDescriptor compiledDescriptor() {
    Path location;
    try {
      location =
          Path.of(
              ClickHouseServer.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    } catch (URISyntaxException e) {
      throw new AssertionError(e);
    }
    Set<ModuleReference> modules = ModuleFinder.of(location).findAll();
    assertThat(modules).as("modules found at %s", location).hasSize(1);
    return modules.iterator().next().descriptor();
  }
}
