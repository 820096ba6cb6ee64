package dev.handoff.testkit;

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
 * Pins the testkit's module descriptor. It is read from the {@code module-info.class} compiled
 * into the directory or jar that holds the testkit's classes, so the test means the same whether
 * Surefire runs it on the module path or on the class path.
 */
final class ModuleDescriptorTest {

  @Test
  void descriptor_isNamedDevHandoffTestkitAndExportsExactlyItsOnePackageToEveryone() {
    ModuleDescriptor descriptor = compiledDescriptor();

    assertThat(descriptor.name()).isEqualTo("dev.handoff.testkit");
    assertThat(descriptor.isOpen()).as("open module").isFalse();
    assertThat(descriptor.isAutomatic()).as("automatic module").isFalse();
    assertThat(descriptor.exports())
        .extracting(Exports::source)
        .containsExactly("dev.handoff.testkit");
    assertThat(descriptor.exports()).as("qualified exports").noneMatch(Exports::isQualified);
  }

  @Test
  void descriptor_requiresTheApiTransitivelyAndNothingButJavaBaseBesides() {
    Map<String, Set<Requires.Modifier>> requires =
        compiledDescriptor().requires().stream()
            .collect(Collectors.toMap(Requires::name, Requires::modifiers));

    assertThat(requires).containsOnlyKeys("java.base", "dev.handoff.api");
    assertThat(requires.get("dev.handoff.api")).containsExactly(Requires.Modifier.TRANSITIVE);
    assertThat(requires.get("java.base")).contains(Requires.Modifier.MANDATED);
  }

  @Test
  void descriptor_opensUsesAndProvidesNothing() {
    ModuleDescriptor descriptor = compiledDescriptor();

    assertThat(descriptor.opens()).as("opens").isEmpty();
    assertThat(descriptor.uses()).as("uses").isEmpty();
    assertThat(descriptor.provides()).as("provides").isEmpty();
  }

  @Test
  void runtimeModule_whenNamed_isTheCompiledOne() {
    Module module = ManualClock.class.getModule();
    if (module.isNamed()) {
      assertThat(module.getName()).isEqualTo(compiledDescriptor().name());
      assertThat(module.getDescriptor().exports()).isEqualTo(compiledDescriptor().exports());
      assertThat(module.getDescriptor().requires()).isEqualTo(compiledDescriptor().requires());
    }
  }

  /** The descriptor compiled into the directory or jar that holds the testkit's main classes. */
  private static ModuleDescriptor compiledDescriptor() {
    Path location;
    try {
      location =
          Path.of(ManualClock.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    } catch (URISyntaxException e) {
      throw new AssertionError(e);
    }
    Set<ModuleReference> modules = ModuleFinder.of(location).findAll();
    assertThat(modules).as("modules found at %s", location).hasSize(1);
    return modules.iterator().next().descriptor();
  }
}
