package dev.handoff.micrometer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.lang.module.ModuleDescriptor;
import java.lang.module.ModuleDescriptor.Exports;
import java.lang.module.ModuleDescriptor.Requires;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/* Surefire runs these tests on the module path, so the descriptor is the compiled module-info. */
final class ModuleDescriptorTest {

  @Test
  void descriptor_exportsOnlyTheBindingPackage_requiresCoreAndMicrometer_theSinkOptionally() {
    ModuleDescriptor descriptor = descriptor();
    assertThat(descriptor.name()).isEqualTo("dev.handoff.micrometer");
    assertThat(descriptor.isOpen()).isFalse();
    assertThat(descriptor.exports()).extracting(Exports::source)
        .containsExactly("dev.handoff.micrometer");
    assertThat(descriptor.exports()).noneMatch(Exports::isQualified);
    assertThat(descriptor.opens()).isEmpty();
    Map<String, Set<Requires.Modifier>> requires = descriptor.requires().stream()
        .collect(Collectors.toMap(Requires::name, Requires::modifiers));
    assertThat(requires).containsOnlyKeys("java.base", "dev.handoff.core", "micrometer.core",
        "dev.handoff.clickhouse.sink");
    // The sink is optional: only ClickHouseSinkMetrics needs it, and it must not be required
    // of applications that bind a bare stage.
    assertThat(requires.get("dev.handoff.clickhouse.sink"))
        .containsExactly(Requires.Modifier.STATIC);
    assertThat(requires.get("dev.handoff.core")).contains(Requires.Modifier.TRANSITIVE);
    assertThat(requires.get("micrometer.core")).contains(Requires.Modifier.TRANSITIVE);
  }

  private static ModuleDescriptor descriptor() {
    Module module = HandoffMetrics.class.getModule();
    if (module.getDescriptor() == null) {
      fail("dev.handoff.micrometer was loaded from the class path, not as a named module");
    }
    return module.getDescriptor();
  }
}
