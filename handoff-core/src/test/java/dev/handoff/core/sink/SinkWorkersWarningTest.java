package dev.handoff.core.sink;

import static dev.handoff.core.sink.SinkFixture.ids;
import static org.assertj.core.api.Assertions.assertThat;

import dev.handoff.testkit.ManualClock;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Inserts the workers give up on and rows they dead-letter are logged at WARN with the server's
 * code and message, at most 5 lines per 10 s over all shards. The lines are counted as
 * slf4j-simple prints them, to {@code System.err} looked up at every write.
 */
final class SinkWorkersWarningTest {
  @TempDir Path dir;

  @Test
  void abandonedInsertsAreLoggedWithTheServerCode_fivePerWindowOverAllShards() {
    SinkFixture f = new SinkFixture(2, 8);
    ScriptedWriter writer = new ScriptedWriter(2);
    for (int i = 0; i < 8; i++) {
      f.send(i % 2, ids(i, 1));
      writer.poison.add((long) i);
    }
    List<String> lines = warnings(SinkWorkers.builder(f.queues, f.budget, writer)
        .maxInsertRows(1).onPermanent(PermanentPolicy.FAIL_ACKS), "not delivered");

    assertThat(lines).hasSize(5);
    assertThat(lines).allMatch(l -> l.contains("1 rows (1 chunks) not delivered")
        && l.contains("server code 27: Code: 27. DB::Exception: Cannot parse input: row"));
    assertThat(f.budget.inflightBytes()).isZero();
  }

  @Test
  void deadLetteredRowsAreLoggedWithTheServerCode() {
    SinkFixture f = new SinkFixture(1, 8);
    f.send(0, ids(0, 4));
    ScriptedWriter writer = new ScriptedWriter(1);
    writer.splittable = true;
    writer.poison.add(2L);
    List<String> lines = warnings(SinkWorkers.builder(f.queues, f.budget, writer)
        .onPermanent(PermanentPolicy.DEAD_LETTER)
        .deadLetters(new DeadLetterDirectory(dir, "rowbinary")), "dead-lettered");

    assertThat(lines).singleElement().asString()
        .contains("shard 0: 1 rows rejected by the server and dead-lettered: server code 27:");
  }

  private static List<String> warnings(SinkWorkers.Builder b, String marker) {
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    PrintStream original = System.err;
    System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
    try {
      SinkWorkers w = b.linger(Duration.ZERO).pollInterval(Duration.ofMillis(5))
          .clock(new ManualClock()).build();
      w.start();
      w.shutdown(Duration.ofSeconds(5));
    } finally {
      System.setErr(original);
    }
    return captured.toString(StandardCharsets.UTF_8).lines()
        .filter(l -> l.contains("WARN") && l.contains(marker)).toList();
  }
}
