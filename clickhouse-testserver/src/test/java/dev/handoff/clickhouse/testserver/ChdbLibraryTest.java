package dev.handoff.clickhouse.testserver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Where the library is looked for and what a missing or partial one says, on real directories:
 * the property wins over {@value Chdb#DIR_ENV}, which wins over the XDG cache; a missing library
 * fails with the install commands, and in CI says that it is not skipped there.
 */
final class ChdbLibraryTest {

  @Test
  void location_propertyThenEnvironmentThenCache() {
    Map<String, String> env = Map.of(Chdb.DIR_ENV, "/opt/chdb", "XDG_CACHE_HOME", "/xdg");
    assertThat(ChdbLibrary.location("/prop", env, "/home/u").directory()).isEqualTo(Path.of("/prop"));
    assertThat(ChdbLibrary.location(null, env, "/home/u").directory())
        .isEqualTo(Path.of("/opt/chdb"));
    assertThat(ChdbLibrary.location(" ", Map.of("XDG_CACHE_HOME", "/xdg"), "/home/u").directory())
        .isEqualTo(Path.of("/xdg/handoff/chdb/26.7.3-stable.1"));
    assertThat(ChdbLibrary.location(null, Map.of(), "/home/u").directory())
        .isEqualTo(Path.of("/home/u/.cache/handoff/chdb/26.7.3-stable.1"));
    assertThat(ChdbLibrary.location(null, Map.of(), "/home/u").source()).contains("default");
  }

  @Test
  void missingLibrary_locally_saysHowToInstallIt(@TempDir Path empty) {
    ChdbLibrary.Location location = new ChdbLibrary.Location(empty, Chdb.DIR_ENV);
    assertThatThrownBy(() -> ChdbLibrary.library(location, false))
        .isInstanceOf(ChdbException.class)
        .hasMessageContaining("is not installed: no package/libchdb.so in " + empty)
        .hasMessageContaining("(" + Chdb.DIR_ENV + ")")
        .hasMessageContaining("./run-tests downloads it")
        .hasMessageContaining("npm pack @chdb/lib-linux-x64-gnu@26.7.3-stable.1")
        .hasMessageNotContaining("CI=true");
  }

  @Test
  void missingLibrary_inCi_saysItIsNotSkipped(@TempDir Path empty) {
    ChdbLibrary.Location location = new ChdbLibrary.Location(empty, Chdb.DIR_ENV);
    assertThatThrownBy(() -> ChdbLibrary.library(location, true))
        .isInstanceOf(ChdbException.class)
        .hasMessageContaining("CI=true")
        .hasMessageContaining("instead of being skipped")
        .hasMessageContaining("npm pack @chdb/lib-linux-x64-gnu@26.7.3-stable.1");
  }

  @Test
  void aPartialLibrary_isRefusedWithItsSize(@TempDir Path dir) throws Exception {
    Path lib = Files.createDirectories(dir.resolve("package")).resolve("libchdb.so");
    try (RandomAccessFile file = new RandomAccessFile(lib.toFile(), "rw")) {
      file.setLength(1000);
    }
    assertThatThrownBy(() -> ChdbLibrary.library(new ChdbLibrary.Location(dir, "test"), false))
        .isInstanceOf(ChdbException.class)
        .hasMessageContaining("has 1000 bytes, not the " + ChdbLibrary.LIBRARY_BYTES);
  }

  @Test
  void aLibraryOfTheRightSize_isFoundInPackageOrDirectly(@TempDir Path dir) throws Exception {
    Path direct = dir.resolve("libchdb.so");
    try (RandomAccessFile file = new RandomAccessFile(direct.toFile(), "rw")) {
      file.setLength(ChdbLibrary.LIBRARY_BYTES); // sparse: no disk used
    }
    assertThat(ChdbLibrary.library(new ChdbLibrary.Location(dir, "test"), false)).isEqualTo(direct);
  }

  @Test
  void theInstalledLibrary_isFound() {
    assertThat(Chdb.library()).isRegularFile().hasFileName("libchdb.so");
    assertThat(Chdb.directory()).isEqualTo(Chdb.location().directory());
  }
}
