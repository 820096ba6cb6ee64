package dev.handoff.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link InsertJournal#recount}: the rows past a checkpoint that the inserts the server finished
 * hold, placed by their shard's row stream, from a journal written by hand.
 */
class InsertJournalTest {

  @TempDir
  Path dir;

  static CheckpointFile.Position unclean(long offset) {
    return new CheckpointFile.Position("in.jsonl", offset, 0, 0, 0, offset, false);
  }

  static String id(int shard, long first, long last, long rows, int attempt) {
    return "handoff-abc123-s" + shard + "-q" + first + "-" + last + "-r" + rows + "-c0a0b0c0d-"
        + attempt;
  }

  Optional<InsertJournal.Recount> recount(String journal, long offset, List<String> done)
      throws Exception {
    Path file = dir.resolve("cp.json.journal");
    Files.writeString(file, journal, StandardCharsets.US_ASCII);
    return InsertJournal.recount(file, unclean(offset), run -> {
      assertThat(run).isEqualTo("abc123");
      return Optional.of(done);
    });
  }

  @Test
  void anInsertCutShortByTheKill_countsOnlyTheRowsTheServerWrote() throws Exception {
    // One batch [0,100) of 20 rows on shard 0, sent as inserts of 12 and 8 rows; the second
    // finished on the server with none of its rows (its body ended before its first block) or
    // with its first 3 (the blocks that arrived).
    String journal = """
        run abc123 0 0 0
        b 0 0 0 100
        i 0 0 0 0 12
        i 0 1 1 12 8
        """;
    assertThat(recount(journal, 0, List.of(id(0, 0, 0, 12, 1) + "\t12",
        id(0, 1, 1, 8, 1) + "\t0"))).contains(new InsertJournal.Recount(12, 100, 0));
    assertThat(recount(journal, 0, List.of(id(0, 0, 0, 12, 1) + "\t12",
        id(0, 1, 1, 8, 1) + "\t3"))).contains(new InsertJournal.Recount(15, 100, 0));
    // Without the server's row count, the insert counts whole.
    assertThat(recount(journal, 0, List.of(id(0, 0, 0, 12, 1), id(0, 1, 1, 8, 1))))
        .contains(new InsertJournal.Recount(20, 100, 0));
  }

  @Test
  void rowsOfFinishedInsertsPastTheCheckpoint_countedByTheirBatches() throws Exception {
    // Shard 0 gets batches [0,100) of 10 rows and [200,300) of 10 rows; shard 1 [100,200), 10.
    // Insert q0-0 of shard 0 holds rows 0..14 (batch 1 and half of batch 3); q1-1 rows 15..19.
    String journal = """
        run abc123 0 0 0
        b 0 0 0 100
        b 1 0 100 200
        b 0 10 200 300
        i 0 0 0 0 15
        i 1 0 0 0 10
        i 0 1 1 15 5
        """;
    // Checkpoint at 100: batch [0,100) is before it; rows of [100,200) and [200,300) count.
    assertThat(recount(journal, 100, List.of(id(0, 0, 0, 15, 1), id(1, 0, 0, 10, 1))))
        .contains(new InsertJournal.Recount(5 + 10, 300, 0));
    // All three finished, one of them twice (a retry whose first answer was lost).
    assertThat(recount(journal, 100, List.of(id(0, 0, 0, 15, 1), id(1, 0, 0, 10, 1),
        id(0, 1, 1, 5, 1), id(0, 1, 1, 5, 2))))
        .contains(new InsertJournal.Recount(5 + 10 + 5 + 5, 300, 0));
    // Checkpoint at 300: nothing past it.
    assertThat(recount(journal, 300, List.of(id(0, 0, 0, 15, 1), id(1, 0, 0, 10, 1))))
        .contains(new InsertJournal.Recount(0, 300, 0));
    // Nothing finished.
    assertThat(recount(journal, 0, List.of())).contains(new InsertJournal.Recount(0, 0, 0));
  }

  @Test
  void carriedRowsOfTheRunBefore_torn_unplaced_andOtherRuns() throws Exception {
    String journal = """
        run abc123 100 7 250
        b 0 0 100 200
        i 0 0 0 0 10
        i 0 1 1 -1 4
        b 0 10 200 30""";
    // The torn last line (no newline) is dropped: the batch it names was never pushed.
    assertThat(recount(journal, 100, List.of(id(0, 0, 0, 10, 1), id(0, 1, 1, 4, 1),
        "handoff-other-s0-q0-0-r10-c0a0b0c0d-1", "not an insert")))
        .contains(new InsertJournal.Recount(10 + 7, 250, 4));
    // A checkpoint past the carried rows' end leaves them out.
    assertThat(recount(journal, 250, List.of(id(0, 0, 0, 10, 1))))
        .contains(new InsertJournal.Recount(0, 250, 0));
    // A journal of a run that started past the checkpoint is not this checkpoint's.
    assertThat(recount(journal, 50, List.of(id(0, 0, 0, 10, 1)))).isEmpty();
  }

  @Test
  void noJournal_orNotOne_orNoQueryLog_isEmpty() throws Exception {
    Path none = dir.resolve("none.journal");
    assertThat(InsertJournal.recount(none, unclean(0), run -> Optional.of(List.of())))
        .isEmpty();
    assertThat(recount("garbage\n", 0, List.of())).isEmpty();
    assertThat(recount("run abc123 x 0 0\n", 0, List.of())).isEmpty();
    Path file = dir.resolve("cp.json.journal");
    Files.writeString(file, "run abc123 0 0 0\n", StandardCharsets.US_ASCII);
    assertThat(InsertJournal.recount(file, unclean(0), run -> Optional.empty())).isEmpty();
  }
}
