package dev.handoff.core.sink;

import dev.handoff.core.ChunkPool;
import static dev.handoff.core.sink.SinkFixture.ids;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.handoff.api.AckSet;
import dev.handoff.api.EncodedChunk;
import dev.handoff.api.spi.Insert;
import dev.handoff.api.spi.WriteException;
import dev.handoff.testkit.ManualClock;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Permanent failures, dead letters and shutdown of the sink workers, on real threads. */
final class SinkWorkersFailureTest {
  private final long leaksBefore = AckSet.leaksDetected();
  private final List<SinkWorkers> started = new ArrayList<>();
  @TempDir Path dir;

  @AfterEach
  void tearDown() {
    started.forEach(SinkWorkers::close);
    System.gc();
    assertThat(AckSet.leaksDetected()).as("ack sets leaked").isEqualTo(leaksBefore);
  }

  private SinkWorkers build(SinkWorkers.Builder b) {
    SinkWorkers w = b.pollInterval(Duration.ofMillis(5)).shutdownGrace(Duration.ofMillis(200))
        .clock(new ManualClock()).build();
    started.add(w);
    return w;
  }

  @Test
  void permanentUnderFailAcksFailsTheWholeInsertAndReleasesIt() {
    SinkFixture f = new SinkFixture(1, 8);
    EncodedChunk a = f.send(0, ids(0, 3));
    EncodedChunk b = f.send(0, ids(3, 3));
    ScriptedWriter writer = new ScriptedWriter(1);
    writer.poison.add(4L);
    SinkWorkers w = build(SinkWorkers.builder(f.queues, f.budget, writer)
        .linger(Duration.ofHours(1)).onPermanent(PermanentPolicy.FAIL_ACKS));
    w.start();
    WorkersReport report = w.shutdown(Duration.ofSeconds(5));

    assertThat(writer.attempts).hasSize(1); // no retry of a permanent failure
    assertThat(f.failed(a)).isTrue();
    assertThat(f.failed(b)).isTrue();
    assertThat(f.budget.inflightBytes()).isZero();
    assertThat(f.everyAckResolvedOnce()).isTrue();
    assertThat(report.shards().get(0).abandonedChunks()).isEqualTo(2);
    assertThat(report.shards().get(0).abandonedRows()).isEqualTo(6);
    assertThat(report.shards().get(0).failedAtShutdownChunks()).isZero();
    assertThat(report.drained()).isTrue();
  }

  @Test
  void deadLetterIsolatesExactlyTheBadRowWhenTheWriterSplits() throws IOException {
    SinkFixture f = new SinkFixture(1, 8);
    List<EncodedChunk> chunks = List.of(f.send(0, ids(0, 4)), f.send(0, ids(4, 4)),
        f.send(0, ids(8, 4)), f.send(0, ids(12, 4)));
    ScriptedWriter writer = new ScriptedWriter(1);
    writer.splittable = true;
    writer.poison.add(9L);
    List<Insert> dead = new CopyOnWriteArrayList<>();
    SinkWorkers w = build(SinkWorkers.builder(f.queues, f.budget, writer)
        .linger(Duration.ofHours(1)).onPermanent(PermanentPolicy.DEAD_LETTER)
        .deadLetters(new DeadLetterDirectory(dir, "rowbinary"))
        .listener(new WorkerListener() {
          @Override
          public void deadLettered(int shard, Insert insert, WriteException e) {
            dead.add(insert);
          }
        }));
    w.start();
    WorkersReport report = w.shutdown(Duration.ofSeconds(5));

    List<Long> expected = new ArrayList<>();
    for (long i = 0; i < 16; i++) {
      if (i != 9) {
        expected.add(i);
      }
    }
    assertThat(writer.rows(0)).containsExactlyElementsOf(expected); // good rows, in order
    assertThat(dead).hasSize(1);
    assertThat(dead.get(0).rows()).isEqualTo(1);
    assertThat(SinkFixture.decode(dead.get(0).frames().get(0))).containsExactly(9L);
    assertThat(chunks).allMatch(f::delivered); // dead-lettered rows count as handled
    assertThat(f.budget.inflightBytes()).isZero();
    assertThat(f.everyAckResolvedOnce()).isTrue();
    assertThat(report.deadLetteredRows()).isEqualTo(1);
    assertThat(report.rowsWritten()).isEqualTo(15);

    List<Path> files = list(dir);
    assertThat(files).extracting(p -> p.getFileName().toString())
        .containsExactlyInAnyOrder("shard0-seq2-2-0.rowbinary", "shard0-seq2-2-0.json");
    byte[] data = Files.readAllBytes(dir.resolve("shard0-seq2-2-0.rowbinary"));
    assertThat(SinkFixture.decode(dev.handoff.api.Frame.copyOf(data))).containsExactly(9L);
    String json = Files.readString(dir.resolve("shard0-seq2-2-0.json"));
    assertThat(json).contains("\"serverCode\": 27", "\"rows\": 1", "\"shard\": 0",
        "\"firstSequence\": 2", "Cannot parse input: row 9", "\"kind\": \"PERMANENT\"",
        "\"format\": \"rowbinary\"");
  }

  @Test
  void deadLetterSetsAsideTheWholeBadChunkWhenTheWriterCannotSplit() throws IOException {
    SinkFixture f = new SinkFixture(1, 8);
    List<EncodedChunk> chunks = List.of(f.send(0, ids(0, 4)), f.send(0, ids(4, 4)),
        f.send(0, ids(8, 4)));
    ScriptedWriter writer = new ScriptedWriter(1);
    writer.poison.add(5L);
    SinkWorkers w = build(SinkWorkers.builder(f.queues, f.budget, writer)
        .linger(Duration.ofHours(1)).onPermanent(PermanentPolicy.DEAD_LETTER)
        .deadLetters(new DeadLetterDirectory(dir)));
    w.start();
    WorkersReport report = w.shutdown(Duration.ofSeconds(5));

    assertThat(writer.rows(0)).containsExactly(0L, 1L, 2L, 3L, 8L, 9L, 10L, 11L);
    assertThat(chunks).allMatch(f::delivered);
    assertThat(report.deadLetteredRows()).isEqualTo(4);
    assertThat(report.shards().get(0).deadLetteredInserts()).isEqualTo(1);
    byte[] data = Files.readAllBytes(dir.resolve("shard0-seq1-1-0.bin"));
    assertThat(SinkFixture.decode(dev.handoff.api.Frame.copyOf(data)))
        .containsExactly(4L, 5L, 6L, 7L);
    assertThat(f.budget.inflightBytes()).isZero();
  }

  @Test
  void aDeadLetterThatCannotBeWrittenFailsOnlyItsChunk() {
    SinkFixture f = new SinkFixture(1, 8);
    EncodedChunk good = f.send(0, ids(0, 2));
    EncodedChunk bad = f.send(0, ids(2, 2));
    ScriptedWriter writer = new ScriptedWriter(1);
    writer.poison.add(3L);
    SinkWorkers w = build(SinkWorkers.builder(f.queues, f.budget, writer)
        .linger(Duration.ofHours(1)).onPermanent(PermanentPolicy.DEAD_LETTER)
        .deadLetters((insert, cause) -> {
          throw new IOException("disk full");
        }));
    w.start();
    WorkersReport report = w.shutdown(Duration.ofSeconds(5));

    assertThat(f.delivered(good)).isTrue();
    assertThat(f.failed(bad)).isTrue();
    assertThat(f.budget.inflightBytes()).isZero();
    assertThat(f.everyAckResolvedOnce()).isTrue();
    assertThat(report.deadLetteredRows()).isZero();
    assertThat(report.abandonedChunks()).isEqualTo(1);
  }

  @Test
  void shutdownDrainsWhatIsQueued() {
    SinkFixture f = new SinkFixture(2, 32);
    for (int i = 0; i < 20; i++) {
      f.send(i % 2, i);
    }
    ScriptedWriter writer = new ScriptedWriter(2);
    SinkWorkers w = build(SinkWorkers.builder(f.queues, f.budget, writer)
        .linger(Duration.ofHours(1)).maxInsertRows(3));
    w.start();
    WorkersReport report = w.shutdown(Duration.ofSeconds(10));

    assertThat(report.drained()).isTrue();
    assertThat(report.rowsWritten()).isEqualTo(20);
    assertThat(f.chunks).allMatch(f::delivered);
    assertThat(f.queues.isClosed()).isTrue();
    assertThat(w.shutdown(Duration.ofSeconds(1))).isSameAs(report); // idempotent
  }

  @Test
  void shutdownWithoutStartFailsEverythingQueued() {
    SinkFixture f = new SinkFixture(2, 8);
    f.send(0, 1);
    f.send(1, 2);
    SinkWorkers w = build(SinkWorkers.builder(f.queues, f.budget, new ScriptedWriter(2)));
    WorkersReport report = w.shutdown(Duration.ofSeconds(1));
    assertThat(report.drained()).isFalse();
    assertThat(report.shards()).allSatisfy(s -> assertThat(s.failedAtShutdownChunks()).isOne());
    assertThat(f.chunks).allMatch(f::failed);
    assertThat(f.budget.inflightBytes()).isZero();
  }

  @Test
  void shutdownIsBoundedWhileAWriterHangsAndFailsEverythingLeftExactlyOnce() throws Exception {
    SinkFixture f = new SinkFixture(2, 16, ChunkPool.checked(64, 16));
    ScriptedWriter writer = new ScriptedWriter(2);
    CountDownLatch unblock = new CountDownLatch(1);
    CountDownLatch entered = new CountDownLatch(1);
    writer.script = i -> {
      if (i.shard() == 0) {
        entered.countDown();
        boolean interrupted = false;
        while (true) { // ignores interrupts: the worst writer
          try {
            if (unblock.await(10, TimeUnit.SECONDS)) {
              break;
            }
          } catch (InterruptedException e) {
            interrupted = true;
          }
        }
        if (interrupted) {
          Thread.currentThread().interrupt();
        }
      }
      return null;
    };
    SinkWorkers w = build(SinkWorkers.builder(f.queues, f.budget, writer)
        .linger(Duration.ZERO).maxInsertRows(1));
    for (int i = 0; i < 5; i++) {
      f.send(0, i);
      f.send(1, 100 + i);
    }
    w.start();
    assertThat(entered.await(5, TimeUnit.SECONDS)).isTrue();

    long t0 = System.nanoTime();
    WorkersReport report = w.shutdown(Duration.ofMillis(100));
    long tookMs = (System.nanoTime() - t0) / 1_000_000;

    assertThat(tookMs).as("shutdown took %d ms", tookMs).isLessThan(3_000);
    assertThat(report.shards().get(0).writerStuck()).isTrue();
    assertThat(report.shards().get(0).failedAtShutdownChunks()).isEqualTo(5);
    assertThat(report.shards().get(1).rowsWritten()).isEqualTo(5);
    assertThat(report.drained()).isFalse();
    assertThat(f.budget.inflightBytes()).isZero();
    assertThat(f.everyAckResolvedOnce()).isTrue();
    // The stuck writer may still read the frame it holds: its array is not lent again.
    assertThat(f.pool.onLoan()).as("the stuck insert's array stays with its writer")
        .isEqualTo(1 + f.ownArrays());

    unblock.countDown(); // the stuck write returns "successfully": nothing may resolve twice
    await().atMost(5, TimeUnit.SECONDS).until(() -> writer.written.stream()
        .anyMatch(i -> i.shard() == 0));
    await().atMost(5, TimeUnit.SECONDS).until(() -> f.pool.onLoan() == f.ownArrays());
    assertThat(f.everyAckResolvedOnce()).isTrue();
    assertThat(f.budget.inflightBytes()).isZero();
  }

  @Test
  void shutdownInterruptsAWriterBlockedInterruptiblyAndFailsWhatItHeld() throws Exception {
    SinkFixture f = new SinkFixture(1, 16);
    ScriptedWriter writer = new ScriptedWriter(1);
    CountDownLatch entered = new CountDownLatch(1);
    writer.script = i -> {
      entered.countDown();
      try {
        new CountDownLatch(1).await();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return new WriteException(WriteException.Kind.TRANSIENT, -1, "interrupted", e);
      }
      return null;
    };
    SinkWorkers w = build(SinkWorkers.builder(f.queues, f.budget, writer)
        .linger(Duration.ZERO).maxInsertRows(1));
    EncodedChunk first = f.send(0, 1);
    EncodedChunk second = f.send(0, 2);
    w.start();
    assertThat(entered.await(5, TimeUnit.SECONDS)).isTrue();
    WorkersReport report = w.shutdown(Duration.ZERO);

    assertThat(report.shards().get(0).writerStuck()).isFalse();
    assertThat(report.shards().get(0).failedAtShutdownChunks()).isEqualTo(2);
    assertThat(f.failed(first)).isTrue();
    assertThat(f.failed(second)).isTrue();
    assertThat(f.budget.inflightBytes()).isZero();
    assertThat(f.everyAckResolvedOnce()).isTrue();
  }

  @Test
  void anErrorFromTheWriterEndsTheWorkerAndShutdownFailsTheRest() {
    SinkFixture f = new SinkFixture(1, 16);
    EncodedChunk first = f.send(0, 1);
    EncodedChunk second = f.send(0, 2);
    EncodedChunk third = f.send(0, 3);
    ScriptedWriter writer = new ScriptedWriter(1);
    writer.script = i -> {
      throw new Error("writer blew up");
    };
    List<Thread> threads = new CopyOnWriteArrayList<>();
    SinkWorkers w = build(SinkWorkers.builder(f.queues, f.budget, writer)
        .linger(Duration.ZERO).maxInsertRows(1)
        .threadFactory(r -> {
          Thread t = new Thread(r, "test-sink");
          t.setUncaughtExceptionHandler((th, e) -> { }); // expected: keep the output quiet
          threads.add(t);
          return t;
        }));
    w.start();
    await().atMost(5, TimeUnit.SECONDS).until(() -> first.acks().isResolved());
    await().atMost(5, TimeUnit.SECONDS).until(() -> !threads.get(0).isAlive());
    assertThat(f.failed(first)).isTrue();
    assertThat(second.acks().isResolved()).as("still queued").isFalse();
    assertThat(third.acks().isResolved()).as("still queued").isFalse();

    WorkersReport report = w.shutdown(Duration.ofSeconds(1));
    assertThat(f.failed(second)).isTrue();
    assertThat(f.failed(third)).isTrue();
    assertThat(report.shards().get(0).failedAtShutdownChunks()).isEqualTo(2);
    assertThat(report.abandonedChunks()).isEqualTo(3);
    assertThat(f.budget.inflightBytes()).isZero();
    assertThat(f.everyAckResolvedOnce()).isTrue();
  }

  @Test
  void anInterruptOutsideShutdownEndsTheWorkerWithoutLosingAChunk() throws Exception {
    SinkFixture f = new SinkFixture(1, 16);
    List<Thread> threads = new CopyOnWriteArrayList<>();
    ScriptedWriter writer = new ScriptedWriter(1);
    SinkWorkers w = build(SinkWorkers.builder(f.queues, f.budget, writer)
        .linger(Duration.ZERO)
        .threadFactory(r -> {
          Thread t = new Thread(r, "test-sink");
          threads.add(t);
          return t;
        }));
    w.start();
    EncodedChunk written = f.send(0, 1);
    await().atMost(5, TimeUnit.SECONDS).until(() -> written.acks().isResolved());
    threads.get(0).interrupt();
    threads.get(0).join(5_000);
    assertThat(threads.get(0).isAlive()).isFalse();
    EncodedChunk left = f.send(0, 2);

    WorkersReport report = w.shutdown(Duration.ofSeconds(1));
    assertThat(f.delivered(written)).isTrue();
    assertThat(f.failed(left)).isTrue();
    assertThat(report.shards().get(0).failedAtShutdownChunks()).isOne();
    assertThat(f.budget.inflightBytes()).isZero();
  }

  private static List<Path> list(Path dir) throws IOException {
    try (Stream<Path> s = Files.list(dir)) {
      return s.toList();
    }
  }
}
