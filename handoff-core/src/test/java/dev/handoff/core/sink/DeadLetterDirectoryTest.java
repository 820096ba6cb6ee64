package dev.handoff.core.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.handoff.api.Frame;
import dev.handoff.api.spi.Insert;
import dev.handoff.api.spi.WriteException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

final class DeadLetterDirectoryTest {
  @TempDir Path dir;

  @Test
  void writesTheBytesAndADescriptionAndNeverOverwritesAnEarlierDeadLetter() throws Exception {
    Insert insert = new Insert(2, 5, 7, List.of(Frame.copyOf(new byte[] {1, 2}),
        Frame.copyOf(new byte[] {3})), 2, 3, 4);
    WriteException cause = new WriteException(WriteException.Kind.PERMANENT, 53,
        "Code: 53. \"type\" mismatch\n\tat row 1", null);
    Path sub = dir.resolve("dead");
    DeadLetterDirectory letters = new DeadLetterDirectory(sub, "native");
    letters.write(insert, cause);
    new DeadLetterDirectory(sub, "native").write(insert, cause); // a second run, same names

    assertThat(Files.readAllBytes(sub.resolve("shard2-seq5-7-0.native")))
        .containsExactly(1, 2, 3);
    assertThat(Files.readAllBytes(sub.resolve("shard2-seq5-7-1.native")))
        .containsExactly(1, 2, 3);
    String json = Files.readString(sub.resolve("shard2-seq5-7-0.json"));
    assertThat(json).contains("\"dataFile\": \"shard2-seq5-7-0.native\"", "\"rows\": 2",
        "\"bytes\": 3", "\"attempt\": 4", "\"serverCode\": 53", "\"lastSequence\": 7",
        "\"message\": \"Code: 53. \\\"type\\\" mismatch\\n\\tat row 1\"");
    try (Stream<Path> files = Files.list(sub)) {
      assertThat(files.map(p -> p.getFileName().toString()))
          .as("no temporary file left").hasSize(4).noneMatch(n -> n.endsWith(".tmp"));
    }
  }

  @Test
  void aDirectoryThatCannotBeWrittenFailsTheWriteSoTheWorkerReplaysTheRows() throws Exception {
    // A regular file where the directory should be: the write must throw (the worker then fails
    // the acknowledgements), never return as if the dead letter were stored.
    Path occupied = Files.writeString(dir.resolve("not-a-dir"), "x");
    Insert insert = new Insert(0, 1, 1, List.of(Frame.copyOf(new byte[] {9})), 1, 1, 1);
    WriteException cause = new WriteException(WriteException.Kind.PERMANENT, 6, "bad", null);
    assertThatThrownBy(() -> new DeadLetterDirectory(occupied, "native").write(insert, cause))
        .isInstanceOf(java.io.IOException.class);
    assertThat(Files.readString(occupied)).isEqualTo("x");
  }

  @Test
  void rejectsAFormatThatIsNotAPlainName() {
    assertThatThrownBy(() -> new DeadLetterDirectory(dir, "../x"))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
