package dev.handoff.clickhouse.http;

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
 * The descriptor of dev.handoff.clickhouse.http, compiled from module-info.java: Surefire patches
 * the test classes into the module and runs them on the module path.
 */
final class ModuleDescriptorTest {

  @Test
  void descriptor_exportsOnlyTheApiPackageAndOpensNothing() {
    ModuleDescriptor descriptor = descriptor();

    assertThat(descriptor.name()).isEqualTo("dev.handoff.clickhouse.http");
    assertThat(descriptor.isOpen()).as("open module").isFalse();
    assertThat(descriptor.exports().stream().map(Exports::source).collect(Collectors.toSet()))
        .containsExactly("dev.handoff.clickhouse.http");
    assertThat(descriptor.exports()).as("qualified exports").noneMatch(Exports::isQualified);
    assertThat(descriptor.opens()).as("opens").isEmpty();
    assertThat(descriptor.packages())
        .containsExactlyInAnyOrder("dev.handoff.clickhouse.http",
            "dev.handoff.clickhouse.http.internal");
  }

  @Test
  void descriptor_requiresTheApiTransitivelyTheTypesTheJdkHttpClientAndTheCodecs() {
    Map<String, Set<Requires.Modifier>> requires = descriptor().requires().stream()
        .collect(Collectors.toMap(Requires::name, Requires::modifiers));

    assertThat(requires).containsOnlyKeys("java.base", "dev.handoff.api",
        "dev.handoff.clickhouse.types", "java.net.http", "org.lz4.java",
        "com.github.luben.zstd_jni");
    assertThat(requires.get("dev.handoff.api")).contains(Requires.Modifier.TRANSITIVE);
    assertThat(requires.get("dev.handoff.clickhouse.types")).isEmpty();
    assertThat(requires.get("java.net.http")).isEmpty();
    assertThat(requires.get("org.lz4.java")).isEmpty();
    assertThat(requires.get("com.github.luben.zstd_jni")).isEmpty();
  }

  @Test
  void descriptor_neitherUsesNorProvidesServices() {
    assertThat(descriptor().uses()).isEmpty();
    assertThat(descriptor().provides()).isEmpty();
  }

  private static ModuleDescriptor descriptor() {
    Module module = ClickHouseHttp.class.getModule();
    ModuleDescriptor descriptor = module.getDescriptor();
    if (descriptor == null) {
      fail("dev.handoff.clickhouse.http classes were loaded from the class path (unnamed module "
          + module + "), not as a named module");
    }
    return descriptor;
  }
}
