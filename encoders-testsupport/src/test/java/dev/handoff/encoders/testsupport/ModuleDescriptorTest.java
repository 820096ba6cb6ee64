package dev.handoff.encoders.testsupport;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.module.ModuleDescriptor;
import java.lang.module.ModuleDescriptor.Exports;
import java.lang.module.ModuleDescriptor.Requires;
import java.lang.module.ModuleFinder;
import java.lang.module.ModuleReference;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Pins the test-support module's descriptor, read from the {@code module-info.class} compiled
 * into the directory or jar that holds its classes (the encoder modules' tests see it on the
 * class path, so only the compiled descriptor says what it is).
 */
final class ModuleDescriptorTest {

  @Test
  void descriptor_isNamedAndExportsExactlyItsOnePackageToEveryone() {
    ModuleDescriptor descriptor = compiledDescriptor();

    assertThat(descriptor.name()).isEqualTo("dev.handoff.encoders.testsupport");
    assertThat(descriptor.isOpen()).as("open module").isFalse();
    assertThat(descriptor.exports())
        .extracting(Exports::source)
        .containsExactly("dev.handoff.encoders.testsupport");
    assertThat(descriptor.exports()).as("qualified exports").noneMatch(Exports::isQualified);
    assertThat(descriptor.opens()).as("opens").isEmpty();
    assertThat(descriptor.uses()).as("uses").isEmpty();
    assertThat(descriptor.provides()).as("provides").isEmpty();
  }

  @Test
  void descriptor_requiresWhatItsSignaturesShowTransitivelyAndAssertJPlainly() {
    Map<String, Set<Requires.Modifier>> requires =
        compiledDescriptor().requires().stream()
            .collect(Collectors.toMap(Requires::name, Requires::modifiers));

    assertThat(requires).containsOnlyKeys("java.base", "dev.handoff.api", "dev.handoff.clickhouse.types",
        "dev.handoff.testkit", "dev.handoff.clickhouse.testserver",
        "com.fasterxml.jackson.databind", "org.assertj.core");
    for (String transitive : Set.of("dev.handoff.api", "dev.handoff.clickhouse.types",
        "dev.handoff.testkit", "dev.handoff.clickhouse.testserver",
        "com.fasterxml.jackson.databind")) {
      assertThat(requires.get(transitive)).as(transitive)
          .containsExactly(Requires.Modifier.TRANSITIVE);
    }
    assertThat(requires.get("org.assertj.core")).isEmpty();
  }

  /** The descriptor compiled into the directory or jar that holds the module's main classes. */
  private static ModuleDescriptor compiledDescriptor() {
    Path location;
    try {
      location = Path.of(Golden.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    } catch (URISyntaxException e) {
      throw new AssertionError(e);
    }
    Set<ModuleReference> modules = ModuleFinder.of(location).findAll();
    assertThat(modules).as("modules found at %s", location).hasSize(1);
    return modules.iterator().next().descriptor();
  }
}
