package dev.handoff.tck;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.module.ModuleDescriptor;
import java.lang.module.ModuleDescriptor.Exports;
import java.lang.module.ModuleDescriptor.Requires;
import java.lang.module.ModuleFinder;
import java.lang.module.ModuleReference;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Pins the TCK's module descriptor, read from the {@code module-info.class} compiled into the
 * directory or jar that holds the TCK's classes, so the test means the same whether Surefire runs
 * it on the module path or on the class path.
 */
final class ModuleDescriptorTest {

  @Test
  void descriptor_isNamedDevHandoffTckAndExportsExactlyItsOnePackageToEveryone() {
    ModuleDescriptor descriptor = compiledDescriptor();

    assertThat(descriptor.name()).isEqualTo("dev.handoff.tck");
    assertThat(descriptor.isOpen()).as("open module").isFalse();
    assertThat(descriptor.isAutomatic()).as("automatic module").isFalse();
    assertThat(descriptor.exports()).extracting(Exports::source)
        .containsExactly("dev.handoff.tck");
    assertThat(descriptor.exports()).as("qualified exports").noneMatch(Exports::isQualified);
    assertThat(descriptor.packages()).as("packages").containsExactly("dev.handoff.tck");
  }

  @Test
  void descriptor_requiresTheApiAndJUnitTransitivelyAndAssertJOnly() {
    Map<String, Set<Requires.Modifier>> requires = compiledDescriptor().requires().stream()
        .collect(Collectors.toMap(Requires::name, Requires::modifiers));

    // No core, no encoder: a vendor proves an implementation with the API alone.
    assertThat(requires).containsOnlyKeys("java.base", "dev.handoff.api",
        "org.junit.jupiter.api", "org.assertj.core");
    assertThat(requires.get("dev.handoff.api")).containsExactly(Requires.Modifier.TRANSITIVE);
    assertThat(requires.get("org.junit.jupiter.api")).containsExactly(Requires.Modifier.TRANSITIVE);
    assertThat(requires.get("org.assertj.core")).as("AssertJ is used inside, never exposed")
        .isEmpty();
  }

  @Test
  void descriptor_opensUsesAndProvidesNothing() {
    ModuleDescriptor descriptor = compiledDescriptor();

    assertThat(descriptor.opens()).as("opens").isEmpty();
    assertThat(descriptor.uses()).as("uses").isEmpty();
    assertThat(descriptor.provides()).as("provides").isEmpty();
  }

  /*
   * The package is exported, not opened: JUnit may call a suite's checks reflectively only because
   * they are public methods of public classes.
   */
  @Test
  void everyCheckOfEverySuiteIsPublic() {
    for (Class<?> suite : List.of(RowEncoderContract.class, InsertWriterContract.class,
        ShardRouterContract.class, RowAccessorContract.class)) {
      assertThat(Modifier.isPublic(suite.getModifiers())).as("%s is public", suite).isTrue();
      for (Method m : suite.getDeclaredMethods()) {
        if (m.isAnnotationPresent(Test.class)) {
          assertThat(Modifier.isPublic(m.getModifiers())).as("%s is public", m).isTrue();
        }
      }
    }
  }

  /** The descriptor compiled into the directory or jar that holds the TCK's main classes. */
  private static ModuleDescriptor compiledDescriptor() {
    Path location;
    try {
      location = Path.of(RowEncoderContract.class.getProtectionDomain().getCodeSource()
          .getLocation().toURI());
    } catch (URISyntaxException e) {
      throw new AssertionError(e);
    }
    Set<ModuleReference> modules = ModuleFinder.of(location).findAll();
    assertThat(modules).as("modules found at %s", location).hasSize(1);
    return modules.iterator().next().descriptor();
  }
}
