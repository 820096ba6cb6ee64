package dev.handoff.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

final class CheckpointFileTest {

  @TempDir
  Path dir;

  @Test
  void missingFile_readsAsEmpty() throws IOException {
    assertThat(new CheckpointFile(dir.resolve("cp.json")).read()).isEmpty();
  }

  @Test
  void write_thenRead_roundTrips_andLeavesNoTemporaryFile() throws IOException {
    CheckpointFile cp = new CheckpointFile(dir.resolve("sub/cp.json"));

    cp.write(CheckpointFile.Position.of("in.jsonl", 12345, 67));

    assertThat(cp.read()).contains(CheckpointFile.Position.of("in.jsonl", 12345, 67));
    try (var files = Files.list(dir.resolve("sub"))) {
      assertThat(files.map(p -> p.getFileName().toString())).containsExactly("cp.json");
    }
  }

  @Test
  void garbage_isAnErrorNamingTheFile() throws IOException {
    Path file = dir.resolve("cp.json");
    Files.writeString(file, "{\"offset\": \"twelve\"}");

    assertThatThrownBy(() -> new CheckpointFile(file).read()).isInstanceOf(IOException.class)
        .hasMessageContaining(file.toString());
    Files.writeString(file, "{not json");
    assertThatThrownBy(() -> new CheckpointFile(file).read()).isInstanceOf(IOException.class)
        .hasMessageContaining("not JSON");
  }

  @Test
  void concurrentReader_neverSeesATornOrMissingCheckpoint() throws Exception {
    CheckpointFile cp = new CheckpointFile(dir.resolve("cp.json"));
    cp.write(CheckpointFile.Position.of("in", 0, 0));
    AtomicBoolean done = new AtomicBoolean();
    AtomicReference<Throwable> failure = new AtomicReference<>();
    Thread reader = new Thread(() -> {
      long last = -1;
      while (!done.get()) {
        try {
          CheckpointFile.Position p = cp.read().orElseThrow();
          assertThat(p.rows()).isEqualTo(p.offset() / 10);
          assertThat(p.offset()).isGreaterThanOrEqualTo(last);
          last = p.offset();
        } catch (Throwable t) {
          failure.compareAndSet(null, t);
          return;
        }
      }
    });
    reader.start();
    for (int i = 1; i <= 300; i++) {
      cp.write(CheckpointFile.Position.of("in", i * 10L, i));
    }
    done.set(true);
    reader.join(10_000);

    assertThat(failure.get()).isNull();
    assertThat(cp.read().orElseThrow().offset()).isEqualTo(3000);
  }
}
