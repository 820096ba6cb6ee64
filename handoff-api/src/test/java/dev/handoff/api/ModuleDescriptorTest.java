package dev.handoff.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.lang.module.ModuleDescriptor;
import java.lang.module.ModuleDescriptor.Exports;
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
  void descriptor_exportsExactlyTheFourApiPackagesAndNothingElse() {
    ModuleDescriptor descriptor = descriptor();

    assertThat(descriptor.name()).isEqualTo("dev.handoff.api");
    assertThat(descriptor.isOpen()).as("open module").isFalse();
    assertThat(descriptor.exports().stream().map(Exports::source).collect(Collectors.toSet()))
        .containsExactlyInAnyOrder("dev.handoff.api", "dev.handoff.api.row", "dev.handoff.api.spi",
            "dev.handoff.api.stage");
    assertThat(descriptor.exports())
        .as("qualified exports")
        .noneMatch(Exports::isQualified);
    assertThat(descriptor.opens()).as("opens").isEmpty();
    assertThat(descriptor.uses()).as("uses").isEmpty();
    assertThat(descriptor.provides()).as("provides").isEmpty();
  }

  @Test
  void descriptor_requiresAtRunTimeOnlyTheMandatedJavaBase() {
    Set<Requires> requires = descriptor().requires();
    assertThat(requires.stream().map(Requires::name))
        .containsExactlyInAnyOrder("java.base", "jdk.unsupported");
    for (Requires r : requires) {
      if (r.name().equals("java.base")) {
        assertThat(r.modifiers()).contains(Requires.Modifier.MANDATED);
      } else {
        // Optional: Latin1Strings turns its probe off when the module is absent.
        assertThat(r.modifiers()).as(r.name()).containsExactly(Requires.Modifier.STATIC);
      }
    }
  }

  private static ModuleDescriptor descriptor() {
    Module module = Ack.class.getModule();
    ModuleDescriptor descriptor = module.getDescriptor();
    if (descriptor == null) {
      fail("dev.handoff.api classes were loaded from the class path (unnamed module "
          + module + "), not as a named module; Surefire must run this module's tests on the"
          + " module path (useModulePath=true, module-info.java present in src/main/java)");
    }
    return descriptor;
  }
}
