package dev.handoff.encoders.rowbinary;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import dev.handoff.encoders.rowbinary.internal.RowBinaryEncoderProvider;
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

  private static final String ENCODER_SPI = "dev.handoff.api.spi.RowEncoderProvider";
  private static final String PROVIDER =
      "dev.handoff.encoders.rowbinary.internal.RowBinaryEncoderProvider";

  @Test
  void descriptor_exportsExactlyTheOptionsPackageAndOpensNothing() {
    ModuleDescriptor descriptor = descriptor();

    assertThat(descriptor.name()).isEqualTo("dev.handoff.encoders.rowbinary");
    assertThat(descriptor.isOpen()).as("open module").isFalse();
    assertThat(descriptor.exports().stream().map(Exports::source).collect(Collectors.toSet()))
        .containsExactly("dev.handoff.encoders.rowbinary");
    assertThat(descriptor.exports()).as("qualified exports").noneMatch(Exports::isQualified);
    assertThat(descriptor.opens()).as("opens").isEmpty();
    assertThat(descriptor.packages()).as("the implementation exists but is not exported")
        .contains("dev.handoff.encoders.rowbinary.internal");
  }

  @Test
  void descriptor_providesTheEncoderSpiWithExactlyTheInternalProvider() {
    Set<Provides> provides = descriptor().provides();

    assertThat(provides).hasSize(1);
    Provides encoders = provides.iterator().next();
    assertThat(encoders.service()).isEqualTo(ENCODER_SPI);
    assertThat(encoders.providers()).containsExactly(PROVIDER);
    assertThat(RowBinaryEncoderProvider.class.getName()).isEqualTo(PROVIDER);
  }

  @Test
  void descriptor_requiresTheApiTransitivelyAndTheTypesModule() {
    Map<String, Set<Requires.Modifier>> requires = descriptor().requires().stream()
        .collect(Collectors.toMap(Requires::name, Requires::modifiers));

    assertThat(requires).containsOnlyKeys("java.base", "dev.handoff.api",
        "dev.handoff.clickhouse.types");
    assertThat(requires.get("dev.handoff.api")).contains(Requires.Modifier.TRANSITIVE);
    assertThat(requires.get("dev.handoff.clickhouse.types"))
        .doesNotContain(Requires.Modifier.TRANSITIVE, Requires.Modifier.STATIC);
  }

  @Test
  void descriptor_usesNoService() {
    // Providers are looked up by handoff-core (which declares the uses clause), not by encoders.
    assertThat(descriptor().uses()).isEmpty();
  }

  /*
   * A class-path user finds providers through META-INF/services, a module-path user through the
   * descriptor; both must list the same classes in the same order.
   */
  @Test
  void servicesFile_listsTheSameProvidersAsTheDescriptor() throws IOException {
    Module module = RowBinaryEncoderProvider.class.getModule();
    List<String> lines = new ArrayList<>();
    try (InputStream in = module.getResourceAsStream("META-INF/services/" + ENCODER_SPI)) {
      assertThat(in).as("META-INF/services/" + ENCODER_SPI + " in " + module).isNotNull();
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

    assertThat(lines).containsExactlyElementsOf(
        descriptor().provides().iterator().next().providers());
  }

  private static ModuleDescriptor descriptor() {
    Module module = RowBinaryEncoderProvider.class.getModule();
    ModuleDescriptor descriptor = module.getDescriptor();
    if (descriptor == null) {
      fail("dev.handoff.encoders.rowbinary classes were loaded from the class path (unnamed"
          + " module " + module + "), not as a named module; Surefire must run this module's"
          + " tests on the module path (module-info.java present in src/main/java)");
    }
    return descriptor;
  }
}
