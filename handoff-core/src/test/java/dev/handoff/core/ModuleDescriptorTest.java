package dev.handoff.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.lang.module.ModuleDescriptor;
import java.lang.module.ModuleDescriptor.Exports;
import java.lang.module.ModuleDescriptor.Provides;
import java.lang.module.ModuleDescriptor.Requires;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/*
 * Surefire runs these tests on the module path with the test classes patched into the module, so
 * the descriptor read here is the one compiled from module-info.java.
 */
final class ModuleDescriptorTest {

  private static final String ROUTER_SPI = "dev.handoff.api.spi.ShardRouterProvider";
  private static final List<String> BUILT_IN_ROUTER_PROVIDERS = List.of(
      "dev.handoff.core.internal.KeyHashRouterProvider",
      "dev.handoff.core.internal.RoundRobinRouterProvider",
      "dev.handoff.core.internal.SingleShardRouterProvider");

  @Test
  void descriptor_exportsTheCoreAckAndSinkPackagesUnqualifiedAndOpensNothing() {
    ModuleDescriptor descriptor = descriptor();

    assertThat(descriptor.name()).isEqualTo("dev.handoff.core");
    assertThat(descriptor.isOpen()).as("open module").isFalse();
    assertThat(descriptor.exports().stream().filter(e -> !e.isQualified()).map(Exports::source)
        .collect(Collectors.toSet()))
        .containsExactlyInAnyOrder("dev.handoff.core", "dev.handoff.core.ack",
            "dev.handoff.core.sink");
    assertThat(descriptor.exports()).as("qualified exports").noneMatch(Exports::isQualified);
    assertThat(descriptor.packages()).as("no negative-control seam").doesNotContain(
        "dev.handoff.core.seam");
    assertThat(descriptor.opens()).as("opens").isEmpty();
    assertThat(descriptor.packages()).as("the internal package exists but is not exported")
        .contains("dev.handoff.core.internal");
  }

  @Test
  void descriptor_requiresTheApiTransitivelyAndSlf4j() {
    Map<String, Set<Requires.Modifier>> requires = descriptor().requires().stream()
        .collect(Collectors.toMap(Requires::name, Requires::modifiers));

    assertThat(requires).containsOnlyKeys("java.base", "dev.handoff.api", "org.slf4j");
    assertThat(requires.get("dev.handoff.api")).contains(Requires.Modifier.TRANSITIVE);
    assertThat(requires.get("org.slf4j")).doesNotContain(Requires.Modifier.TRANSITIVE);
  }

  @Test
  void descriptor_usesExactlyTheEncoderAndRouterSpis() {
    assertThat(descriptor().uses()).containsExactlyInAnyOrder(
        "dev.handoff.api.spi.RowEncoderProvider", ROUTER_SPI);
  }

  @Test
  void descriptor_providesExactlyTheThreeBuiltInRouterProviders() {
    Set<Provides> provides = descriptor().provides();

    assertThat(provides).hasSize(1);
    Provides routers = provides.iterator().next();
    assertThat(routers.service()).isEqualTo(ROUTER_SPI);
    assertThat(routers.providers()).containsExactlyElementsOf(BUILT_IN_ROUTER_PROVIDERS);
  }

  /*
   * A class-path user finds providers through META-INF/services, a module-path user through the
   * descriptor; both must list the same classes in the same order.
   */
  @Test
  void servicesFile_listsTheSameProvidersAsTheDescriptor() throws IOException {
    Module module = descriptorModule();
    List<String> lines = new ArrayList<>();
    try (InputStream in = module.getResourceAsStream("META-INF/services/" + ROUTER_SPI)) {
      assertThat(in).as("META-INF/services/" + ROUTER_SPI + " in " + module).isNotNull();
      BufferedReader reader =
          new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
      String line;
      while ((line = reader.readLine()) != null) {
        int hash = line.indexOf('#');
        String entry = (hash >= 0 ? line.substring(0, hash) : line).strip();
        if (!entry.isEmpty()) {
          lines.add(entry);
        }
      }
    }

    Provides routers = descriptor().provides().iterator().next();
    assertThat(lines).containsExactlyElementsOf(routers.providers());
  }

  private static Module descriptorModule() {
    return SinkHandoff.class.getModule();
  }

  private static ModuleDescriptor descriptor() {
    Module module = descriptorModule();
    ModuleDescriptor descriptor = module.getDescriptor();
    if (descriptor == null) {
      fail("dev.handoff.core classes were loaded from the class path (unnamed module "
          + module + "), not as a named module; Surefire must run this module's tests on the"
          + " module path (module-info.java present in src/main/java)");
    }
    return descriptor;
  }
}
