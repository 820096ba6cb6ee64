package dev.handoff.flink;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The connector has no module-info (Flink runs it on the class path), so this test pins what a
 * module would export: the public types, all in the API packages; the rest stays package-private.
 */
class PublicApiTest {

  @Test
  void onlyTheApiTypesArePublic() throws Exception {
    Set<String> publicTypes = new TreeSet<>();
    Path root = Path.of(HandoffSink.class.getProtectionDomain().getCodeSource().getLocation()
        .toURI());
    try (Stream<Path> files = Files.walk(root)) {
      for (Path f : (Iterable<Path>) files.filter(p -> p.toString().endsWith(".class"))::iterator) {
        String name = root.relativize(f).toString().replace('/', '.').replaceAll("\\.class$", "");
        Class<?> c = Class.forName(name, false, getClass().getClassLoader());
        if (Modifier.isPublic(c.getModifiers()) && c.getEnclosingClass() == null) {
          publicTypes.add(name);
        }
      }
    }
    assertThat(publicTypes).containsExactlyInAnyOrderElementsOf(Set.of(
        "dev.handoff.flink.AccessorFactory",
        "dev.handoff.flink.HandoffSink",
        "dev.handoff.flink.HandoffSinkBuilder",
        "dev.handoff.flink.ReplicaUrls",
        "dev.handoff.flink.RowFunction",
        "dev.handoff.flink.TableSelector",
        "dev.handoff.flink.table.HandoffDynamicTableFactory",
        "dev.handoff.flink.table.HandoffTableOptions"));
  }
}
