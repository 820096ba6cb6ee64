package dev.handoff.core.sink;

import static org.assertj.core.api.Assertions.assertThat;

import dev.handoff.api.ChunkConfig;
import dev.handoff.api.Frame;
import dev.handoff.api.Envelope;
import dev.handoff.api.RecordMeta;
import dev.handoff.api.RoutingKeys;
import dev.handoff.api.spi.Insert;
import dev.handoff.api.spi.InsertWriter;
import dev.handoff.api.spi.WriteException;
import dev.handoff.core.Chain;
import dev.handoff.core.ChainReport;
import dev.handoff.core.InflightBudget;
import dev.handoff.core.Routers;
import dev.handoff.core.ShardQueues;
import dev.handoff.core.SinkHandoff;
import dev.handoff.core.Source;
import dev.handoff.core.ack.SourceAcks;
import dev.handoff.core.ack.SourceBatch;
import dev.handoff.testkit.TestRow;
import dev.handoff.testkit.TestRowEncoder;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;

/**
 * The whole path with real threads: a source, the driver, the stage, the sink workers and a writer
 * that fails now and then and rejects some rows. Nothing is lost: every row of a delivered batch
 * was written or dead-lettered, and the budget ends at zero.
 */
final class SinkWorkersChainTest {

  @Test
  void everyRowOfADeliveredBatchIsWrittenOrDeadLetteredAndTheBudgetEndsAtZero() throws Exception {
    int shards = 3;
    ShardQueues queues = new ShardQueues(shards, 2);
    InflightBudget budget = new InflightBudget(4096);
    SinkHandoff<TestRow> stage = SinkHandoff.builder(TestRowEncoder.rows(), queues)
        .router(Routers.keyHash()).budget(budget)
        .config(ChunkConfig.defaults().withTargetBytes(256)).build();
    Set<Long> poison = Set.of(17L, 1234L, 3001L, 3002L);
    FlakyWriter writer = new FlakyWriter(shards, poison);
    Set<Long> dead = ConcurrentHashMap.newKeySet();
    SinkWorkers workers = SinkWorkers.builder(queues, budget, writer)
        .linger(Duration.ofMillis(2)).maxInsertBytes(1024).pollInterval(Duration.ofMillis(2))
        .retry(new RetryPolicy(3, Duration.ofMillis(1), Duration.ofMillis(4), 0.5,
            Duration.ofSeconds(5)))
        .onPermanent(PermanentPolicy.DEAD_LETTER)
        .deadLetters((insert, cause) -> {
          for (Frame f : insert.frames()) {
            dead.addAll(TestRowEncoder.decodeSeqs(f.toByteArray()));
          }
        })
        .seed(11).build();
    workers.start();

    SourceAcks acks = new SourceAcks("rows");
    List<SourceBatch> batches = new ArrayList<>();
    long[] seq = {0};
    Source<TestRow> source = out -> {
      if (batches.size() == 200) {
        return false;
      }
      SourceBatch batch = acks.begin();
      batches.add(batch);
      for (int i = 0; i < 20; i++) {
        long s = seq[0]++;
        out.push(new Envelope<>(TestRow.of(s, 40), new RecordMeta(s, RoutingKeys.of(s)), batch));
      }
      batch.complete();
      return true;
    };
    ChainReport report = Chain.builder(source, stage).build().run();
    WorkersReport written = workers.shutdown(Duration.ofSeconds(10));

    assertThat(report.clean()).isTrue();
    assertThat(budget.inflightBytes()).isZero();
    assertThat(batches).allMatch(b -> b.state() != SourceBatch.State.PENDING);
    Set<Long> rows = new HashSet<>(writer.all);
    for (int b = 0; b < batches.size(); b++) {
      if (batches.get(b).state() == SourceBatch.State.DELIVERED) {
        for (long s = b * 20L; s < b * 20L + 20; s++) {
          assertThat(rows.contains(s) || dead.contains(s)).as("row %d handled", s).isTrue();
        }
      }
    }
    assertThat(dead).isSubsetOf(poison);
    assertThat(rows).doesNotContainAnyElementsOf(poison);
    for (int s = 0; s < shards; s++) {
      List<Long> r = writer.rows.get(s);
      for (int i = 1; i < r.size(); i++) {
        assertThat(r.get(i)).as("shard %d in seal order", s).isGreaterThan(r.get(i - 1));
      }
    }
    assertThat(written.retries()).isPositive();
    assertThat(written.deadLetteredRows()).isEqualTo(dead.size());
    long delivered = batches.stream().filter(b -> b.state() == SourceBatch.State.DELIVERED)
        .count();
    assertThat(acks.deliveredBatches()).isEqualTo(delivered);
  }

  /** Fails 20% of attempts transiently (seeded per shard) and rejects the poison rows. */
  private static final class FlakyWriter implements InsertWriter {
    final List<List<Long>> rows = new ArrayList<>();
    final List<Long> all = new java.util.concurrent.CopyOnWriteArrayList<>();
    private final SplittableRandom[] random;
    private final Set<Long> poison;

    FlakyWriter(int shards, Set<Long> poison) {
      this.poison = poison;
      this.random = new SplittableRandom[shards];
      for (int i = 0; i < shards; i++) {
        rows.add(new java.util.concurrent.CopyOnWriteArrayList<>());
        random[i] = new SplittableRandom(100 + i);
      }
    }

    @Override
    public void write(Insert insert) throws WriteException {
      if (random[insert.shard()].nextInt(5) == 0) {
        throw new WriteException(WriteException.Kind.TRANSIENT, 209, "timeout", null);
      }
      List<Long> seqs = TestRowEncoder.decodeSeqs(insert.body());
      for (long s : seqs) {
        if (poison.contains(s)) {
          throw new WriteException(WriteException.Kind.PERMANENT, 27, "bad row " + s, null);
        }
      }
      rows.get(insert.shard()).addAll(seqs);
      all.addAll(seqs);
    }

    /** Splits at row boundaries (a row is seq, size, filler). */
    @Override
    public Optional<List<Frame>> split(Frame frame) {
      ByteBuffer in = frame.asReadOnlyBuffer().order(ByteOrder.LITTLE_ENDIAN);
      List<Frame> out = new ArrayList<>();
      while (in.hasRemaining()) {
        int size = in.getInt(in.position() + 8);
        byte[] row = new byte[size];
        in.get(row);
        out.add(Frame.copyOf(row));
      }
      return Optional.of(out);
    }
  }
}
