package dev.handoff.core.sink;

import dev.handoff.core.ChunkPool;
import static org.assertj.core.api.Assertions.assertThat;

import dev.handoff.api.AckSet;
import dev.handoff.api.EncodedChunk;
import dev.handoff.api.Frame;
import dev.handoff.api.spi.Insert;
import dev.handoff.api.spi.WriteException;
import dev.handoff.testkit.ManualClock;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * A property-style seed sweep: random shards, chunks, merge limits, policies, split support and
 * random transient, permanent, runtime and dead-letter failures. Every seed checks that the
 * budget ends at zero, every acknowledgement resolved exactly once, each shard's written rows are
 * in seal order, and each row was written, dead-lettered or is in a failed chunk.
 */
final class SinkWorkersSweepTest {
  /** 300 by default; {@code -Dhandoff.sinkSweepSeeds=N} runs more. */
  private static final int SEEDS = Integer.getInteger("handoff.sinkSweepSeeds", 300);

  @Test
  void everySeedKeepsTheBudgetTheAcksTheOrderAndEveryRowAccountedFor() throws Exception {
    long leaksBefore = AckSet.leaksDetected();
    long[] totals = new long[5]; // retries, dead-lettered rows, abandoned chunks, stuck, rows
    for (long seed = 1; seed <= SEEDS; seed++) {
      try {
        WorkersReport report = runOne(seed);
        totals[0] += report.retries();
        totals[1] += report.deadLetteredRows();
        totals[2] += report.abandonedChunks();
        totals[3] += report.shards().stream().filter(WorkersReport.PerShard::writerStuck).count();
        totals[4] += report.rowsWritten();
      } catch (AssertionError e) {
        throw new AssertionError("seed " + seed + ": " + e.getMessage(), e);
      }
    }
    System.gc();
    assertThat(AckSet.leaksDetected()).isEqualTo(leaksBefore);
    // The sweep went down every path: retries, dead letters, abandoned chunks, writes.
    assertThat(totals[0]).as("retries").isPositive();
    assertThat(totals[1]).as("dead-lettered rows").isPositive();
    assertThat(totals[2]).as("abandoned chunks").isPositive();
    assertThat(totals[3]).as("stuck writers").isZero();
    assertThat(totals[4]).as("rows written").isPositive();
  }

  private WorkersReport runOne(long seed) throws Exception {
    SplittableRandom r = new SplittableRandom(seed);
    int shards = 1 + r.nextInt(3);
    // Frames from a checked pool: a double return throws, and a frame read after its release
    // throws (or, had its array been lent again, would show the poison in the rows).
    SinkFixture f = new SinkFixture(shards, 4 + r.nextInt(8), ChunkPool.checked(64, 8));
    ScriptedWriter writer = new ScriptedWriter(shards);
    writer.splittable = r.nextBoolean();
    double transientRate = r.nextDouble() * 0.4;
    double runtimeRate = r.nextDouble() * 0.1;
    SplittableRandom[] faults = new SplittableRandom[shards];
    for (int s = 0; s < shards; s++) {
      faults[s] = new SplittableRandom(seed * 31 + s);
    }
    writer.script = i -> {
      double x = faults[i.shard()].nextDouble(); // one thread per shard: deterministic per shard
      if (x < transientRate) {
        return ScriptedWriter.transientError();
      }
      if (x < transientRate + runtimeRate) {
        return new IllegalStateException("writer bug");
      }
      return null;
    };
    boolean deadLetter = r.nextBoolean();
    double deadLetterFailRate = r.nextInt(4) == 0 ? 0.5 : 0.0;
    SplittableRandom dlRandom = new SplittableRandom(seed * 7);
    Map<Long, Integer> deadRows = new ConcurrentHashMap<>();
    DeadLetters dead = (insert, cause) -> {
      synchronized (dlRandom) {
        if (dlRandom.nextDouble() < deadLetterFailRate) {
          throw new IOException("disk full");
        }
      }
      for (Frame fr : insert.frames()) {
        for (long id : SinkFixture.decode(fr)) {
          deadRows.merge(id, 1, Integer::sum);
        }
      }
    };
    List<Insert> deadInserts = new CopyOnWriteArrayList<>();
    SinkWorkers w = SinkWorkers.builder(f.queues, f.budget, writer)
        .clock(new ManualClock())
        .seed(seed)
        .linger(Duration.ZERO)
        .pollInterval(Duration.ofMillis(1))
        .shutdownGrace(Duration.ofMillis(500))
        .maxInsertRows(1 + r.nextInt(12))
        .maxInsertBytes(8L * (1 + r.nextInt(20)))
        .retry(new RetryPolicy(1 + r.nextInt(4), Duration.ofMillis(10), Duration.ofMillis(80),
            r.nextDouble(), Duration.ofSeconds(1)))
        .onPermanent(deadLetter ? PermanentPolicy.DEAD_LETTER : PermanentPolicy.FAIL_ACKS)
        .deadLetters(dead)
        .listener(new WorkerListener() {
          @Override
          public void deadLettered(int shard, Insert insert, WriteException e) {
            deadInserts.add(insert);
          }
        })
        .build();
    w.start();

    // The test thread plays the stage: it sends chunks in seal order, waiting while a queue is full.
    int chunks = 5 + r.nextInt(40);
    long nextId = 0;
    Map<Long, EncodedChunk> chunkOfRow = new HashMap<>();
    for (int c = 0; c < chunks; c++) {
      int shard = r.nextInt(shards);
      long[] ids = SinkFixture.ids(nextId, 1 + r.nextInt(6));
      nextId += ids.length;
      for (long id : ids) {
        if (r.nextInt(40) == 0) {
          writer.poison.add(id);
        }
      }
      EncodedChunk chunk = f.chunk(shard, 0L, ids);
      for (long id : ids) {
        chunkOfRow.put(id, chunk);
      }
      while (!f.queues.trySend(chunk)) {
        Thread.onSpinWait();
      }
    }
    WorkersReport report = w.shutdown(Duration.ofSeconds(30));

    assertThat(f.budget.inflightBytes()).as("budget").isZero();
    assertThat(f.everyAckResolvedOnce()).as("every ack resolved once").isTrue();
    assertThat(f.pool.onLoan()).as("arrays on loan after shutdown (seed %d)", seed)
        .isEqualTo(f.ownArrays());
    assertThat(f.chunks).as("every frame released").allMatch(c -> c.frame().isReleased());
    Set<Long> written = new HashSet<>();
    for (int s = 0; s < shards; s++) {
      List<Long> rows = writer.rows(s);
      for (int i = 1; i < rows.size(); i++) {
        assertThat(rows.get(i)).as("shard %d order", s).isGreaterThan(rows.get(i - 1));
      }
      written.addAll(rows);
      assertThat(report.shards().get(s).rowsWritten()).isEqualTo(rows.size());
    }
    for (Map.Entry<Long, EncodedChunk> e : chunkOfRow.entrySet()) {
      long id = e.getKey();
      boolean w1 = written.contains(id);
      boolean d1 = deadRows.containsKey(id);
      assertThat(w1 && d1).as("row %d both written and dead-lettered", id).isFalse();
      if (d1) {
        assertThat(deadRows.get(id)).as("row %d dead-lettered once", id).isOne();
      }
      if (f.delivered(e.getValue())) {
        assertThat(w1 || d1).as("row %d of a delivered chunk handled", id).isTrue();
      } else {
        assertThat(f.failed(e.getValue())).as("chunk of row %d resolved", id).isTrue();
      }
      if (writer.poison.contains(id)) {
        assertThat(w1).as("poison row %d never written", id).isFalse();
      }
    }
    long deadRowCount = deadInserts.stream().mapToLong(Insert::rows).sum();
    assertThat(report.deadLetteredRows()).isEqualTo(deadRowCount);
    if (writer.splittable) {
      assertThat(deadRows.keySet()).as("only poison rows are set aside when splittable")
          .isSubsetOf(writer.poison);
    }
    long failedChunks = f.chunks.stream().filter(f::failed).count();
    assertThat(report.abandonedChunks()).isEqualTo(failedChunks);
    return report;
  }
}
