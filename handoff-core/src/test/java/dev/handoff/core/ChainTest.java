package dev.handoff.core;

import static dev.handoff.core.SinkHandoffTest.BY_KEY;
import static dev.handoff.core.SinkHandoffTest.bad;
import static dev.handoff.core.SinkHandoffTest.queuedBytes;
import static dev.handoff.core.SinkHandoffTest.rec;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.handoff.api.Ack;
import dev.handoff.api.ChunkConfig;
import dev.handoff.api.HandoffClock;
import dev.handoff.api.EncodedChunk;
import dev.handoff.api.Envelope;
import dev.handoff.api.FatalError;
import dev.handoff.api.ErrorPolicy;
import dev.handoff.api.FlowControl;
import dev.handoff.api.stage.Collector;
import dev.handoff.api.spi.RowEncoder;
import dev.handoff.core.ack.SourceAcks;
import dev.handoff.core.ack.SourceBatch;
import dev.handoff.testkit.ManualClock;
import dev.handoff.testkit.RecordingAck;
import dev.handoff.testkit.TestRow;
import dev.handoff.testkit.TestRowEncoder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The {@link Chain} driver on a {@link ManualClock}: pulling, backoff while the stage is blocked or
 * the budget is full, stop on a fatal, drain and its deadline, teardown, and the {@code step()}
 * protocol. No test sleeps: backoff advances the manual clock, and a test "worker" runs as a hook
 * on those sleeps.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD) // a hung mutant fails
final class ChainTest {

  private static final long MS = 1_000_000L;

  /** A {@link ManualClock} whose sleeps are recorded and run a hook: a worker, say. */
  static final class HookClock implements HandoffClock {
    final ManualClock inner = new ManualClock();
    final List<Long> sleeps = new ArrayList<>();
    Runnable onSleep = () -> {};

    @Override
    public long nanoTime() {
      return inner.nanoTime();
    }

    @Override
    public long millis() {
      return inner.millis();
    }

    @Override
    public void sleep(long nanos) {
      if (sleeps.size() >= 100_000) {
        throw new AssertionError("the chain backs off for ever");
      }
      sleeps.add(nanos);
      inner.sleep(nanos);
      onSleep.run();
    }
  }

  /** A source whose payloads are scripted pushes; counts how often it was asked. */
  static final class ScriptedSource implements Source<TestRow> {
    final List<Consumer<Collector<TestRow>>> payloads = new ArrayList<>();
    int pulls;

    ScriptedSource payload(Consumer<Collector<TestRow>> pushes) {
      payloads.add(pushes);
      return this;
    }

    @Override
    public boolean pushNext(Collector<TestRow> out) {
      pulls++;
      if (pulls > payloads.size()) {
        return false;
      }
      payloads.get(pulls - 1).accept(out);
      return true;
    }
  }

  /** Every rig of the running test, torn down and checked after it. */
  private final List<Rig> rigs = new ArrayList<>();

  /** After the chain, workers abandon what is queued: the budget must then be exactly zero. */
  @AfterEach
  void tearDownAndCheckTheBudgetReturnsToZero() {
    for (Rig rig : rigs) {
      rig.stage.close(); // idempotent; the chain closed it already unless a test stopped early
      for (int s = 0; s < rig.queues.numShards(); s++) {
        for (EncodedChunk c : rig.queues.drain(s)) {
          rig.budget.release(c.sizeBytes());
          c.acks().fail(new IllegalStateException("abandoned at test teardown"));
        }
      }
      assertThat(rig.budget.inflightBytes()).as("budget after teardown and drain").isZero();
    }
  }

  /** A stage, its queues and budget, and a worker that writes chunks and acknowledges them. */
  final class Rig {
    final ShardQueues queues;
    final InflightBudget budget;
    final List<StageMetrics> flushes = new ArrayList<>();
    final SinkHandoff<TestRow> stage;
    final List<List<EncodedChunk>> written = new ArrayList<>();

    Rig(RowEncoder<TestRow> encoder, HandoffClock clock, int shards, int capacity, int target,
        long budgetLimit) {
      this.queues = new ShardQueues(shards, capacity);
      this.budget = new InflightBudget(budgetLimit);
      this.stage = SinkHandoff.builder(encoder, queues)
          .name("chain-test")
          .router(BY_KEY)
          .budget(budget)
          .config(ChunkConfig.defaults().withTargetBytes(target)
              .withEncodePolicy(ErrorPolicy.SKIP))
          .clock(clock)
          .metrics(flushes::add)
          .build();
      for (int s = 0; s < shards; s++) {
        written.add(new ArrayList<>());
      }
      rigs.add(this);
    }

    Rig(HandoffClock clock, int shards, int capacity, int target) {
      this(TestRowEncoder.rows(), clock, shards, capacity, target, 1L << 40);
    }

    Chain.Builder<TestRow> chain(Source<TestRow> source, HandoffClock clock) {
      return Chain.builder(source, stage).clock(clock);
    }

    /** Takes up to {@code max} chunks of {@code shard}, writes and acknowledges them. */
    int take(int shard, int max) {
      int n = 0;
      EncodedChunk c;
      while (n < max && (c = queues.poll(shard)) != null) {
        written.get(shard).add(c);
        budget.release(c.sizeBytes());
        c.acks().succeed();
        n++;
      }
      return n;
    }

    void takeAll() {
      for (int s = 0; s < queues.numShards(); s++) {
        take(s, Integer.MAX_VALUE);
      }
    }

    List<Long> writtenSeqs(int shard) {
      return SinkHandoffTest.seqs(written.get(shard));
    }
  }

  /* ------------------------------------------------------------------ pulling */

  @Test
  void pullsEveryPayloadAndCallsOnBatchEndOncePerPayload() throws InterruptedException {
    ManualClock clock = new ManualClock();
    Rig rig = new Rig(clock, 2, 64, 1000);
    ScriptedSource source = new ScriptedSource();
    for (int p = 0; p < 5; p++) {
      int payload = p;
      source.payload(out -> {
        for (int r = 0; r < 3; r++) {
          long seq = payload * 3L + r;
          out.push(rec(seq, seq % 2, 100, Ack.NONE));
        }
        clock.advance(Duration.ofMillis(payload + 1)); // the payload takes p+1 ms
      });
    }

    ChainReport report = rig.chain(source, clock).build().run();

    assertThat(report.payloads()).isEqualTo(5);
    assertThat(source.pulls).as("5 payloads, then the exhausted pull").isEqualTo(6);
    assertThat(rig.flushes).as("one onBatchEnd per payload").hasSize(5);
    for (int p = 0; p < 5; p++) {
      StageMetrics m = rig.flushes.get(p);
      assertThat(m.seen()).isEqualTo(3);
      assertThat(m.out()).isEqualTo(3);
      assertThat(m.elapsed()).isEqualTo(Duration.ofMillis(p + 1));
    }
    assertThat(report.clean()).isTrue();
    assertThat(report.fatal()).isEmpty();
    assertThat(report.drainTimedOut()).isFalse();
    assertThat(rig.budget.inflightBytes()).isEqualTo(queuedBytes(rig.queues)).isEqualTo(1500);
    rig.takeAll();
    assertThat(rig.writtenSeqs(0)).containsExactly(0L, 2L, 4L, 6L, 8L, 10L, 12L, 14L);
    assertThat(rig.writtenSeqs(1)).containsExactly(1L, 3L, 5L, 7L, 9L, 11L, 13L);
    assertThat(rig.budget.inflightBytes()).isZero();
  }

  /* ------------------------------------------------------------------ backoff */

  @Test
  void backsOffExponentiallyUpToTheMaximumWhileTheStageIsBlocked() {
    ManualClock clock = new ManualClock();
    Rig rig = new Rig(clock, 1, 1, 100);
    ScriptedSource source = new ScriptedSource()
        .payload(out -> {
          out.push(rec(0, 0, 100, Ack.NONE)); // queued
          out.push(rec(1, 0, 100, Ack.NONE)); // parked
        })
        .payload(out -> out.push(rec(2, 0, 100, Ack.NONE)));
    Chain<TestRow> chain = rig.chain(source, clock)
        .backoff(Duration.ofMillis(1), Duration.ofMillis(16)).build();

    assertThat(chain.step()).isEqualTo(Chain.Step.PULLED);
    List<Long> backoffs = new ArrayList<>();
    for (int i = 0; i < 7; i++) {
      assertThat(chain.step()).isEqualTo(Chain.Step.BACKOFF);
      backoffs.add(chain.backoffNanos() / MS);
    }
    assertThat(backoffs).containsExactly(1L, 2L, 4L, 8L, 16L, 16L, 16L);
    assertThat(source.pulls).as("nothing pulled while blocked").isEqualTo(1);
    assertThat(clock.nanoTime()).as("step() itself never waits").isZero();

    rig.take(0, 1);
    assertThat(chain.step()).isEqualTo(Chain.Step.PULLED); // relieve() drained; pulled again
    assertThat(chain.payloads()).isEqualTo(2);
    assertThat(chain.step()).isEqualTo(Chain.Step.BACKOFF); // the new chunk is parked
    assertThat(chain.backoffNanos()).as("reset after a pull").isEqualTo(1 * MS);
  }

  @Test
  void runSleepsOnTheClockForEachBackoffUntilAWorkerMakesRoom() throws InterruptedException {
    HookClock clock = new HookClock();
    Rig rig = new Rig(clock, 1, 1, 100);
    ScriptedSource source = new ScriptedSource()
        .payload(out -> {
          out.push(rec(0, 0, 100, Ack.NONE));
          out.push(rec(1, 0, 100, Ack.NONE));
        })
        .payload(out -> out.push(rec(2, 0, 100, Ack.NONE)));
    clock.onSleep = () -> {
      if (clock.sleeps.size() >= 5) {
        rig.take(0, 1); // the worker wakes up late
      }
    };
    ChainReport report = rig.chain(source, clock)
        .backoff(Duration.ofMillis(1), Duration.ofMillis(8)).build().run();

    assertThat(clock.sleeps).containsExactly(1 * MS, 2 * MS, 4 * MS, 8 * MS, 8 * MS, 1 * MS);
    assertThat(clock.nanoTime()).isEqualTo(24 * MS);
    assertThat(report.clean()).isTrue();
    assertThat(report.payloads()).isEqualTo(2);
    rig.takeAll();
    assertThat(rig.writtenSeqs(0)).containsExactly(0L, 1L, 2L);
    assertThat(rig.budget.inflightBytes()).isZero();
  }

  @Test
  void backsOffWhileTheBudgetHasNoRoom() {
    ManualClock clock = new ManualClock();
    Rig rig = new Rig(TestRowEncoder.rows(), clock, 1, 64, 100, 250);
    ScriptedSource source = new ScriptedSource();
    for (int p = 0; p < 3; p++) {
      long base = p * 2L;
      source.payload(out -> {
        out.push(rec(base, 0, 100, Ack.NONE));
        out.push(rec(base + 1, 0, 100, Ack.NONE));
      });
    }
    Chain<TestRow> chain = rig.chain(source, clock).build();

    assertThat(chain.step()).isEqualTo(Chain.Step.PULLED); // 200 in flight
    assertThat(chain.step()).isEqualTo(Chain.Step.PULLED); // 200 < 250: may pull; 400 now
    assertThat(rig.budget.inflightBytes()).isEqualTo(400);
    assertThat(rig.stage.relieve()).isEqualTo(FlowControl.CONTINUE);
    assertThat(chain.step()).isEqualTo(Chain.Step.BACKOFF);
    assertThat(chain.step()).isEqualTo(Chain.Step.BACKOFF);
    assertThat(chain.backoffNanos()).isEqualTo(2 * MS);
    rig.take(0, 1); // 300: still no room
    assertThat(chain.step()).isEqualTo(Chain.Step.BACKOFF);
    assertThat(source.pulls).isEqualTo(2);
    rig.take(0, 1); // 200: room
    assertThat(chain.step()).isEqualTo(Chain.Step.PULLED);
    assertThat(source.pulls).isEqualTo(3);
    assertThat(rig.budget.inflightBytes()).isEqualTo(queuedBytes(rig.queues)).isEqualTo(400);
  }

  /* ------------------------------------------------------------------ fatal */

  @Test
  void stopsAtAFatalWithoutDrainingAndClosesTheStage() {
    ManualClock clock = new ManualClock();
    Rig rig = new Rig(clock, 1, 1, 100);
    RecordingAck ack = new RecordingAck(7);
    RecordingAck never = new RecordingAck(8);
    ScriptedSource source = new ScriptedSource()
        .payload(out -> {
          out.push(rec(0, 0, 100, ack)); // queued
          out.push(rec(1, 0, 100, ack)); // parked
          out.push(rec(2, 0, 30, ack)); // open
          out.push(bad(3, 0, 30, TestRow.Fault.FATAL, ack));
        })
        .payload(out -> out.push(rec(4, 0, 100, never)));
    Chain<TestRow> chain = rig.chain(source, clock).build();

    assertThat(chain.step()).isEqualTo(Chain.Step.DONE);
    assertThat(chain.step()).isEqualTo(Chain.Step.DONE);
    ChainReport report = chain.report().orElseThrow();
    assertThat(report.fatal()).isPresent();
    assertThat(report.fatal().get().component()).isEqualTo("chain-test");
    assertThat(report.payloads()).isEqualTo(1);
    assertThat(report.drainTimedOut()).isFalse();
    assertThat(report.clean()).isFalse();
    assertThat(report.shards()).containsExactly(new ShardReport(0, 2, 1, 1, 100, 2));
    assertThat(source.pulls).as("no pull after the fatal").isEqualTo(1);
    assertThat(rig.flushes).hasSize(1);
    // No drain after a fatal: the queue holds exactly what it held when the stage stopped.
    assertThat(rig.queues.size(0)).isEqualTo(1);
    assertThat(rig.queues.peek(0).sequence()).isZero();
    assertThat(rig.stage.parkedChunks()).isZero();
    assertThat(rig.budget.inflightBytes()).isEqualTo(queuedBytes(rig.queues)).isEqualTo(100);
    assertThat(ack.failed()).isTrue();
    assertThat(ack.holders()).as("only the queued chunk still holds the batch").isEqualTo(1);
    assertThat(never.retains()).isZero();
    rig.takeAll();
    assertThat(ack.holders()).isZero();
    assertThat(rig.budget.inflightBytes()).isZero();
  }

  @Test
  void stopsAtAFatalRaisedWhileBlocked_insteadOfBackingOffForEver() {
    // A stage stops between payloads when sealing an aged chunk fails (in pressure() or on its
    // timer); with chunks parked it then says BLOCKED for ever, so the chain must ask for the fatal.
    FatalError fatal = new FatalError("aged", "finishChunk failed", null);
    List<String> calls = new ArrayList<>();
    Stage<TestRow> stage = new Stage<>() {
      private boolean taken;

      @Override
      public FlowControl push(Envelope<TestRow> record) {
        calls.add("push");
        return FlowControl.CONTINUE;
      }

      @Override
      public void onBatchEnd(Duration elapsed) {
        calls.add("onBatchEnd");
      }

      @Override
      public Optional<FatalError> takeFatal() {
        Optional<FatalError> f = taken ? Optional.empty() : Optional.of(fatal);
        taken = true;
        return f;
      }

      @Override
      public FlowControl relieve() {
        return FlowControl.BLOCKED;
      }

      @Override
      public FlowControl pressure() {
        return FlowControl.BLOCKED;
      }

      @Override
      public FlowControl flushTerminal() {
        calls.add("flushTerminal");
        return FlowControl.BLOCKED;
      }

      @Override
      public void close() {
        calls.add("close");
      }

      @Override
      public List<ShardReport> shardReports() {
        return List.of();
      }
    };
    ScriptedSource source = new ScriptedSource().payload(out -> out.push(rec(0, 0, 10, Ack.NONE)));
    Chain<TestRow> chain = Chain.builder(source, stage).clock(new ManualClock()).build();

    assertThat(chain.step()).isEqualTo(Chain.Step.DONE);
    assertThat(chain.report().orElseThrow().fatal()).containsSame(fatal);
    assertThat(source.pulls).as("no pull from a stopped stage").isZero();
    assertThat(calls).containsExactly("close");
  }

  @Test
  void stopsAtAFatalRaisedWhileDraining() throws InterruptedException {
    ManualClock clock = new ManualClock();
    SinkHandoffTest.SpyEncoder spy =
        new SinkHandoffTest.SpyEncoder(TestRowEncoder.columnar(), new ArrayList<>());
    Rig rig = new Rig(spy, clock, 1, 8, 1000, 1L << 40);
    RecordingAck ack = new RecordingAck(1);
    ScriptedSource source = new ScriptedSource()
        .payload(out -> {
          out.push(rec(0, 0, 100, ack));
          out.push(rec(1, 0, 100, ack));
        });
    spy.children.get(0).inner.failFinishChunk();

    ChainReport report = rig.chain(source, clock).build().run();

    assertThat(report.fatal()).isPresent();
    assertThat(report.fatal().get().reason()).contains("finishChunk");
    assertThat(report.drainTimedOut()).isFalse();
    assertThat(report.shards()).containsExactly(new ShardReport(0, 0, 0, 0, 0, 2));
    assertThat(rig.queues.size(0)).isZero();
    assertThat(rig.budget.inflightBytes()).isZero();
    assertThat(ack.failed()).isTrue();
    assertThat(ack.holders()).isZero();
  }

  /* ------------------------------------------------------------------ drain and teardown */

  @Test
  void onExhaustionDrainsViaFlushTerminalAndClosesTheStage() throws InterruptedException {
    ManualClock clock = new ManualClock();
    Rig rig = new Rig(clock, 2, 4, 1000);
    ScriptedSource source = new ScriptedSource();
    for (int p = 0; p < 3; p++) {
      long seq = p * 2L;
      source.payload(out -> {
        out.push(rec(seq, 0, 100, Ack.NONE));
        out.push(rec(seq + 1, 1, 100, Ack.NONE));
      });
    }
    ChainReport report = rig.chain(source, clock).build().run();

    assertThat(report.clean()).isTrue();
    assertThat(report.shards()).containsExactly(
        new ShardReport(0, 1, 1, 0, 0, 0), new ShardReport(1, 1, 1, 0, 0, 0));
    assertThat(rig.stage.toString()).contains("closed");
    assertThat(clock.nanoTime()).as("no backoff needed").isZero();
    rig.takeAll();
    assertThat(rig.writtenSeqs(0)).containsExactly(0L, 2L, 4L);
    assertThat(rig.writtenSeqs(1)).containsExactly(1L, 3L, 5L);
    assertThat(rig.budget.inflightBytes()).isZero();
  }

  @Test
  void drainTimesOutAtTheDeadlineWhenAQueueStaysFull() throws InterruptedException {
    HookClock clock = new HookClock();
    Rig rig = new Rig(clock, 2, 1, 100);
    AtomicReference<Chain<TestRow>> chainRef = new AtomicReference<>();
    RecordingAck queued = new RecordingAck(1);
    RecordingAck parked = new RecordingAck(2);
    ScriptedSource source = new ScriptedSource().payload(out -> {
      out.push(rec(0, 0, 100, queued)); // shard 0: queued
      out.push(rec(1, 0, 100, parked)); // shard 0: parked
      out.push(rec(2, 0, 100, parked)); // shard 0: parked
      out.push(rec(3, 0, 40, parked)); // shard 0: open
      out.push(rec(4, 1, 100, queued)); // shard 1: queued
      out.push(rec(5, 1, 100, parked)); // shard 1: parked
      out.push(rec(6, 1, 20, parked)); // shard 1: open
      chainRef.get().requestStop(); // an operator stops the run; nobody drains the queues
    });
    Chain<TestRow> chain = rig.chain(source, clock)
        .backoff(Duration.ofMillis(1), Duration.ofMillis(100))
        .drainTimeout(Duration.ofSeconds(1)).build();
    chainRef.set(chain);

    ChainReport report = chain.run();

    assertThat(report.drainTimedOut()).isTrue();
    assertThat(report.fatal()).isEmpty();
    assertThat(report.clean()).isFalse();
    assertThat(report.payloads()).isEqualTo(1);
    assertThat(report.shards()).containsExactly(
        new ShardReport(0, 4, 1, 3, 240, 3),
        new ShardReport(1, 3, 1, 2, 120, 2));
    assertThat(report.chunksFailedBack()).isEqualTo(5);
    assertThat(report.bytesAbandoned()).isEqualTo(360);
    // The deadline: the drain started at 0 and ended on the first check at or after 1 s.
    long end = clock.nanoTime();
    long beforeLastSleep = end - clock.sleeps.get(clock.sleeps.size() - 1);
    assertThat(end).isGreaterThanOrEqualTo(1_000 * MS).isLessThan(1_100 * MS);
    assertThat(beforeLastSleep).isLessThan(1_000 * MS);
    assertThat(clock.sleeps).allMatch(s -> s <= 100 * MS);
    assertThat(clock.sleeps.subList(0, 8))
        .containsExactly(1 * MS, 2 * MS, 4 * MS, 8 * MS, 16 * MS, 32 * MS, 64 * MS, 100 * MS);
    // The budget is back to exactly the bytes still queued.
    assertThat(rig.budget.inflightBytes()).isEqualTo(queuedBytes(rig.queues)).isEqualTo(200);
    assertThat(rig.stage.parkedChunks()).isZero();
    assertThat(parked.failed()).isTrue();
    assertThat(parked.holders()).isZero();
    assertThat(queued.failed()).isFalse();
    rig.takeAll();
    assertThat(queued.delivered()).isTrue();
    assertThat(rig.budget.inflightBytes()).isZero();
  }

  @Test
  void requestStopStopsPullingAndDrainsWhatWasPushed() throws InterruptedException {
    ManualClock clock = new ManualClock();
    Rig rig = new Rig(clock, 1, 64, 1000);
    AtomicReference<Chain<TestRow>> chainRef = new AtomicReference<>();
    ScriptedSource source = new ScriptedSource();
    for (int p = 0; p < 10; p++) {
      long seq = p;
      source.payload(out -> {
        out.push(rec(seq, 0, 100, Ack.NONE));
        if (seq == 2) {
          chainRef.get().requestStop();
        }
      });
    }
    Chain<TestRow> chain = rig.chain(source, clock).build();
    chainRef.set(chain);

    ChainReport report = chain.run();

    assertThat(report.payloads()).isEqualTo(3);
    assertThat(source.pulls).isEqualTo(3);
    assertThat(report.clean()).isTrue();
    assertThat(rig.flushes).hasSize(3);
    rig.takeAll();
    assertThat(rig.writtenSeqs(0)).containsExactly(0L, 1L, 2L);
    assertThat(rig.budget.inflightBytes()).isZero();
  }

  @Test
  void requestStopBeforeTheFirstStepPullsNothing() throws InterruptedException {
    ManualClock clock = new ManualClock();
    Rig rig = new Rig(clock, 1, 4, 1000);
    ScriptedSource source = new ScriptedSource().payload(out -> out.push(rec(0, 0, 10, Ack.NONE)));
    Chain<TestRow> chain = rig.chain(source, clock).build();
    chain.requestStop();
    ChainReport report = chain.run();
    assertThat(report.payloads()).isZero();
    assertThat(source.pulls).isZero();
    assertThat(report.clean()).isTrue();
  }

  /**
   * Regression: {@code run()} closed the stage only when interrupted; an exception from the source
   * left parked chunks in the budget and their acknowledgements unresolved (until the leak
   * detector found them, if ever).
   */
  @Test
  void runClosesTheStageWhenTheSourceThrows() {
    ManualClock clock = new ManualClock();
    Rig rig = new Rig(clock, 1, 1, 100);
    RecordingAck ack = new RecordingAck(1);
    ScriptedSource source = new ScriptedSource().payload(out -> {
      out.push(rec(0, 0, 100, ack)); // queued
      out.push(rec(1, 0, 100, ack)); // parked
      out.push(rec(2, 0, 30, ack)); // open
      throw new IllegalStateException("source broke");
    });
    Chain<TestRow> chain = rig.chain(source, clock).build();

    assertThatThrownBy(chain::run).isInstanceOf(IllegalStateException.class)
        .hasMessage("source broke");

    assertThat(rig.stage.parkedChunks()).isZero();
    assertThat(rig.budget.inflightBytes()).isEqualTo(queuedBytes(rig.queues)).isEqualTo(100);
    assertThat(ack.failed()).isTrue();
    assertThat(ack.holders()).as("only the queued chunk still holds the batch").isEqualTo(1);
  }

  @Test
  void stepClosesTheStageAndIsDoneWhenTheSourceThrows() {
    ManualClock clock = new ManualClock();
    Rig rig = new Rig(clock, 1, 1, 100);
    RecordingAck ack = new RecordingAck(1);
    ScriptedSource source = new ScriptedSource().payload(out -> {
      out.push(rec(0, 0, 30, ack)); // open
      throw new IllegalStateException("source broke");
    });
    Chain<TestRow> chain = rig.chain(source, clock).build();

    assertThatThrownBy(chain::step).hasMessage("source broke");

    assertThat(ack.failed()).as("the open buffer's batch fails at once").isTrue();
    assertThat(ack.holders()).isZero();
    assertThat(chain.step()).isEqualTo(Chain.Step.DONE);
  }

  /**
   * Regression, found by the simulator (seed 2712, shrunk: {@code ./handoff replay --seed 2712
   * --shards=1 --records=37 --record-error-rate=0.005 --source-error-rate=0.001 ...}): when the
   * source threw part-way through a payload, the driver closed the stage without calling {@code
   * onBatchEnd}, so the records of that payload (seen, out, and one skipped under SKIP) never
   * reached the metrics listener.
   */
  @Test
  void theCountersOfAPayloadWhoseSourceThrows_stillReachTheMetricsListener() {
    ManualClock clock = new ManualClock();
    Rig rig = new Rig(clock, 1, 4, 1_000);
    RecordingAck ack = new RecordingAck(1);
    ScriptedSource source = new ScriptedSource().payload(out -> {
      out.push(rec(0, 0, 30, ack));
      out.push(bad(1, 0, 30, TestRow.Fault.DATA, ack)); // skipped under SKIP
      throw new IllegalStateException("source broke");
    });
    Chain<TestRow> chain = rig.chain(source, clock).build();

    assertThatThrownBy(chain::step).hasMessage("source broke");

    assertThat(rig.flushes).hasSize(1);
    StageMetrics m = rig.flushes.get(0);
    assertThat(m.seen()).isEqualTo(2);
    assertThat(m.out()).isEqualTo(1);
    assertThat(m.skipped()).isEqualTo(1);
    assertThat(m.errors()).isEqualTo(1);
    assertThat(chain.payloads()).as("a payload that broke is not counted as pulled").isZero();
  }

  /* ------------------------------------------------------------------ step() protocol */

  @Test
  void stepReturnsPulledBackoffAndDoneAsDocumented() {
    ManualClock clock = new ManualClock();
    Rig rig = new Rig(clock, 1, 1, 100);
    ScriptedSource source = new ScriptedSource().payload(out -> {
      out.push(rec(0, 0, 100, Ack.NONE)); // queued
      out.push(rec(1, 0, 50, Ack.NONE)); // open
    });
    Chain<TestRow> chain = rig.chain(source, clock).build();

    assertThat(chain.report()).isEmpty();
    assertThat(chain.step()).isEqualTo(Chain.Step.PULLED);
    assertThat(chain.payloads()).isEqualTo(1);
    // The source is exhausted: nothing is pulled, so the step drains. flushTerminal seals the
    // open chunk, which is parked behind the full queue.
    assertThat(chain.step()).isEqualTo(Chain.Step.BACKOFF);
    assertThat(chain.payloads()).isEqualTo(1);
    assertThat(source.pulls).isEqualTo(2);
    assertThat(rig.stage.parkedChunks()).isEqualTo(1);
    assertThat(chain.step()).isEqualTo(Chain.Step.BACKOFF);
    assertThat(chain.backoffNanos()).isEqualTo(2 * MS);
    assertThat(chain.report()).isEmpty();
    rig.take(0, 1);
    assertThat(chain.step()).isEqualTo(Chain.Step.DONE);
    assertThat(chain.report()).isPresent();
    assertThat(chain.report().get().clean()).isTrue();
    assertThat(chain.step()).isEqualTo(Chain.Step.DONE);
    assertThat(source.pulls).as("DONE pulls nothing more").isEqualTo(2);
    assertThat(rig.flushes).as("no onBatchEnd for the exhausted pull").hasSize(1);
  }

  @Test
  void stepOnAnEmptySourceIsDoneAtOnce() {
    ManualClock clock = new ManualClock();
    Rig rig = new Rig(clock, 1, 1, 100);
    ScriptedSource source = new ScriptedSource();
    Chain<TestRow> chain = rig.chain(source, clock).build();
    assertThat(chain.step()).as("nothing was pulled: not PULLED").isEqualTo(Chain.Step.DONE);
    assertThat(chain.report().orElseThrow().payloads()).isZero();
    assertThat(rig.flushes).isEmpty();
  }

  /* ------------------------------------------------------------------ acknowledgements */

  /** A source of one {@link SourceBatch} per payload, {@code rows} rows each. */
  static ScriptedSource batches(SourceAcks acks, int batches, int rows, int shards) {
    ScriptedSource source = new ScriptedSource();
    for (int b = 0; b < batches; b++) {
      int batch = b;
      source.payload(out -> {
        SourceBatch ack = acks.begin();
        for (int r = 0; r < rows; r++) {
          long seq = (long) batch * rows + r;
          out.push(rec(seq, seq % shards, 100, ack));
        }
        ack.complete();
      });
    }
    return source;
  }

  @Test
  void cleanRunWithAWorkerMovesTheCheckpointToTheLastBatch() throws InterruptedException {
    HookClock clock = new HookClock();
    Rig rig = new Rig(clock, 2, 1, 200);
    SourceAcks acks = new SourceAcks("orders");
    ScriptedSource source = batches(acks, 8, 3, 2);
    clock.onSleep = () -> {
      rig.take(0, 1); // one chunk per shard per wake-up: a slow worker
      rig.take(1, 1);
    };

    ChainReport report = rig.chain(source, clock).build().run();
    rig.takeAll();

    assertThat(report.clean()).isTrue();
    assertThat(report.payloads()).isEqualTo(8);
    assertThat(clock.sleeps).as("the stage was blocked at times").isNotEmpty();
    assertThat(acks.checkpoint()).isEqualTo(7).isEqualTo(acks.nextBatchId() - 1);
    assertThat(acks.failedBatchIds()).isEmpty();
    assertThat(acks.pendingBatches()).isZero();
    assertThat(acks.deliveredBatches()).isEqualTo(8);
    assertThat(rig.budget.inflightBytes()).isZero();
    List<Long> all = new ArrayList<>(rig.writtenSeqs(0));
    all.addAll(rig.writtenSeqs(1));
    assertThat(all).hasSize(24).doesNotHaveDuplicates();
    assertThat(rig.writtenSeqs(0)).isSorted();
    assertThat(rig.writtenSeqs(1)).isSorted();
  }

  @Test
  void teardownWithParkedChunksFailsTheirBatchesAndStallsTheCheckpoint()
      throws InterruptedException {
    ManualClock clock = new ManualClock();
    Rig rig = new Rig(clock, 2, 1, 300);
    SourceAcks acks = new SourceAcks("orders");
    AtomicReference<Chain<TestRow>> chainRef = new AtomicReference<>();
    List<SourceBatch> opened = new ArrayList<>();
    ScriptedSource source = new ScriptedSource()
        .payload(out -> {
          SourceBatch b0 = acks.begin(); // shard 0: one chunk, queued
          opened.add(b0);
          for (int r = 0; r < 3; r++) {
            out.push(rec(r, 0, 100, b0));
          }
          b0.complete();
        })
        .payload(out -> {
          SourceBatch b1 = acks.begin(); // shard 0: a parked chunk and an open row
          opened.add(b1);
          for (int r = 3; r < 7; r++) {
            out.push(rec(r, 0, 100, b1));
          }
          b1.complete();
          SourceBatch b2 = acks.begin(); // shard 1: one chunk, queued
          opened.add(b2);
          for (int r = 7; r < 10; r++) {
            out.push(rec(r, 1, 100, b2));
          }
          b2.complete();
          chainRef.get().requestStop();
        });
    Chain<TestRow> chain = rig.chain(source, clock)
        .drainTimeout(Duration.ofMillis(500)).build();
    chainRef.set(chain);

    ChainReport report = chain.run();

    assertThat(report.drainTimedOut()).isTrue();
    assertThat(report.shards()).containsExactly(
        new ShardReport(0, 3, 1, 2, 400, 4), new ShardReport(1, 1, 1, 0, 0, 0));
    assertThat(opened.get(1).state()).isEqualTo(SourceBatch.State.FAILED);
    assertThat(rig.budget.inflightBytes()).isEqualTo(queuedBytes(rig.queues)).isEqualTo(600);

    rig.takeAll(); // the workers write what was queued
    assertThat(opened.get(0).state()).isEqualTo(SourceBatch.State.DELIVERED);
    assertThat(opened.get(2).state()).isEqualTo(SourceBatch.State.DELIVERED);
    assertThat(acks.failedBatchIds()).containsExactly(1L);
    assertThat(acks.checkpoint()).as("stalls before the first failed batch").isZero();
    assertThat(acks.pendingBatches()).isZero();
    assertThat(rig.budget.inflightBytes()).isZero();
  }
}
