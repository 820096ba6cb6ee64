package dev.handoff.core;

import static org.assertj.core.api.Assertions.assertThat;

import dev.handoff.api.ChunkConfig;
import dev.handoff.api.EncodedChunk;
import dev.handoff.api.Envelope;
import dev.handoff.api.RecordMeta;
import dev.handoff.api.RoutingKeys;
import dev.handoff.core.ack.SourceAcks;
import dev.handoff.core.ack.SourceBatch;
import dev.handoff.testkit.TestRow;
import dev.handoff.testkit.TestRowEncoder;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/** A stage driven by a Chain, with worker loops written by hand: release, then acknowledge. */
final class HandWrittenWorkerLoopTest {

  @Test
  void handWrittenWorkers_deliverEveryBatchAndAdvanceTheCheckpoint() throws Exception {
    ShardQueues queues = new ShardQueues(4, 8);
    InflightBudget budget = new InflightBudget(64L << 20);
    SinkHandoff<TestRow> stage = SinkHandoff.builder(TestRowEncoder.rows(), queues)
        .router(Routers.keyHash())
        .budget(budget)
        .config(ChunkConfig.defaults().withTargetBytes(64 * 1024))
        .build();

    SourceAcks acks = new SourceAcks("orders");
    int[] batchesLeft = {20};
    long[] seq = {0};
    Source<TestRow> source = out -> {
      if (batchesLeft[0]-- == 0) {
        return false;
      }
      SourceBatch batch = acks.begin();
      for (int i = 0; i < 1000; i++) {
        long s = seq[0]++;
        TestRow row = TestRow.of(s, 40);
        out.push(new Envelope<>(row, new RecordMeta(s, RoutingKeys.of("customer-" + s % 13)), batch));
      }
      batch.complete();
      return true;
    };

    // One worker per shard, each releasing the budget and then acknowledging.
    AtomicBoolean stop = new AtomicBoolean();
    List<Thread> workers = new ArrayList<>();
    long[] rowsWritten = new long[4];
    for (int shard = 0; shard < 4; shard++) {
      int s = shard;
      Thread t = new Thread(() -> {
        try {
          while (!stop.get() || queues.size(s) > 0) {
            EncodedChunk chunk = queues.poll(s, 10, TimeUnit.MILLISECONDS);
            if (chunk != null) {
              rowsWritten[s] += TestRowEncoder.decodeSeqs(chunk.frame().toByteArray()).size();
              budget.release(chunk.sizeBytes());
              chunk.acks().succeed();
            }
          }
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      });
      t.start();
      workers.add(t);
    }

    ChainReport report = Chain.builder(source, stage).build().run();
    stop.set(true);
    for (Thread t : workers) {
      t.join(10_000);
    }

    assertThat(report.clean()).isTrue();
    assertThat(rowsWritten[0] + rowsWritten[1] + rowsWritten[2] + rowsWritten[3]).isEqualTo(20_000);
    assertThat(budget.inflightBytes()).isZero();
    assertThat(acks.checkpoint()).isEqualTo(19);
  }
}
