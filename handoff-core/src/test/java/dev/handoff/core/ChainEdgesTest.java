package dev.handoff.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.handoff.api.Ack;
import dev.handoff.api.ChunkConfig;
import dev.handoff.testkit.ManualClock;
import dev.handoff.testkit.TestRow;
import dev.handoff.testkit.TestRowEncoder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The driver at its edges: exact drain deadline, measured payload time, interrupts, backoff. */
final class ChainEdgesTest {
  private final ManualClock clock = new ManualClock();
  private final ShardQueues queues = new ShardQueues(1, 1);
  private final List<StageMetrics> flushes = new ArrayList<>();

  private SinkHandoff<TestRow> stage() {
    return SinkHandoff.builder(TestRowEncoder.rows(), queues)
        .config(ChunkConfig.defaults().withTargetBytes(16)).clock(clock).metrics(flushes::add)
        .build();
  }

  /** A source of {@code payloads} payloads of one 16-byte row each, each taking 7 ms. */
  private Source<TestRow> rows(SinkHandoff<TestRow> stage, int payloads) {
    int[] left = {payloads};
    return out -> {
      if (left[0]-- <= 0) {
        return false;
      }
      stage.push(TestRow.of(left[0], 16), 0L, 0L, Ack.NONE);
      clock.advance(Duration.ofMillis(7));
      return true;
    };
  }

  @Test
  void aDrainDeadlineOfZeroGivesUpAtTheFirstBlockedDrain() {
    SinkHandoff<TestRow> stage = stage();
    Chain<TestRow> chain = Chain.builder(rows(stage, 2), stage).clock(clock)
        .drainTimeout(Duration.ZERO).build();
    assertThat(chain.step()).isEqualTo(Chain.Step.PULLED);
    assertThat(chain.step()).isEqualTo(Chain.Step.PULLED); // one queue slot: this chunk parks
    chain.requestStop();
    // The drain starts and is blocked at once; a deadline of zero has passed already.
    assertThat(chain.step()).isEqualTo(Chain.Step.DONE);
    assertThat(chain.report().orElseThrow().drainTimedOut()).isTrue();
  }

  @Test
  void eachPayloadsElapsedTimeIsMeasuredOnTheClock() throws InterruptedException {
    clock.advance(Duration.ofSeconds(3)); // a payload's time is measured from its start, not zero
    SinkHandoff<TestRow> stage = stage();
    Chain.builder(rows(stage, 1), stage).clock(clock).drainTimeout(Duration.ZERO).build().run();
    assertThat(flushes).isNotEmpty();
    assertThat(flushes.get(0).elapsed()).isEqualTo(Duration.ofMillis(7));
  }

  @Test
  void anInterruptWhileBackingOffClosesTheStageAndIsRethrown() {
    SinkHandoff<TestRow> stage = stage();
    stage.push(TestRow.of(0, 16), 0L, 0L, Ack.NONE); // fills the queue's one slot
    stage.push(TestRow.of(1, 16), 0L, 0L, Ack.NONE); // parked: the chain must back off
    Chain<TestRow> chain = Chain.builder(rows(stage, 1), stage).build(); // system clock: sleeps
    Thread.currentThread().interrupt();
    assertThatThrownBy(chain::run).isInstanceOf(InterruptedException.class);
    assertThat(stage.parkedChunks()).as("close() failed what was parked").isZero();
    assertThat(stage.shardReports().get(0).chunksFailedBack()).isOne();
  }

  @Test
  void aBackoffRangeOfOneValueIsAccepted() {
    SinkHandoff<TestRow> stage = stage();
    Chain<TestRow> chain = Chain.builder(rows(stage, 0), stage)
        .backoff(Duration.ofMillis(3), Duration.ofMillis(3)).build();
    assertThat(chain.step()).isEqualTo(Chain.Step.DONE);
    assertThatThrownBy(() -> Chain.builder(rows(stage, 0), stage)
        .backoff(Duration.ofMillis(3), Duration.ofMillis(2)))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
