package dev.handoff.clickhouse.type;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.lang.module.ModuleDescriptor;
import java.lang.module.ModuleDescriptor.Exports;
import java.lang.module.ModuleDescriptor.Requires;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/*
 * The descriptor of dev.handoff.clickhouse, compiled from module-info.java: Surefire patches the
 * test classes into the module and runs them on the module path.
 */
final class ModuleDescriptorTest {

  @Test
  void descriptor_exportsExactlyTypeValueRowJsonAndHashAndOpensNothing() {
    ModuleDescriptor descriptor = descriptor();

    assertThat(descriptor.name()).isEqualTo("dev.handoff.clickhouse.types");
    assertThat(descriptor.isOpen()).as("open module").isFalse();
    assertThat(descriptor.exports().stream().map(Exports::source).collect(Collectors.toSet()))
        .containsExactlyInAnyOrder("dev.handoff.clickhouse.type", "dev.handoff.clickhouse.value",
            "dev.handoff.clickhouse.row", "dev.handoff.clickhouse.json",
            "dev.handoff.clickhouse.hash");
    assertThat(descriptor.exports()).as("qualified exports").noneMatch(Exports::isQualified);
    assertThat(descriptor.opens()).as("opens").isEmpty();
  }

  @Test
  void descriptor_requiresTheApiTransitivelyAndJacksonOnlyStatically() {
    Map<String, Set<Requires.Modifier>> requires = descriptor().requires().stream()
        .collect(Collectors.toMap(Requires::name, Requires::modifiers));

    assertThat(requires).containsOnlyKeys("java.base", "dev.handoff.api",
        "com.fasterxml.jackson.databind");
    assertThat(requires.get("dev.handoff.api")).contains(Requires.Modifier.TRANSITIVE);
    // Optional at run time: users who never touch the JsonNode adapter need no Jackson.
    assertThat(requires.get("com.fasterxml.jackson.databind"))
        .contains(Requires.Modifier.STATIC)
        .doesNotContain(Requires.Modifier.TRANSITIVE);
  }

  @Test
  void descriptor_neitherUsesNorProvidesServices() {
    assertThat(descriptor().uses()).isEmpty();
    assertThat(descriptor().provides()).isEmpty();
  }

  private static ModuleDescriptor descriptor() {
    Module module = ClickHouseType.class.getModule();
    ModuleDescriptor descriptor = module.getDescriptor();
    if (descriptor == null) {
      fail("dev.handoff.clickhouse classes were loaded from the class path (unnamed module "
          + module + "), not as a named module; Surefire must run this module's tests on the"
          + " module path (module-info.java present in src/main/java)");
    }
    return descriptor;
  }
}
