package dev.handoff.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.handoff.api.Ack;
import dev.handoff.api.ChunkBuffer;
import dev.handoff.api.ChunkConfig;
import dev.handoff.api.EncodedChunk;
import dev.handoff.api.ErrorClass;
import dev.handoff.api.ErrorPolicy;
import dev.handoff.api.FatalError;
import dev.handoff.api.FlowControl;
import dev.handoff.api.HandoffException;
import dev.handoff.api.Envelope;
import dev.handoff.api.RecordMeta;
import dev.handoff.api.spi.RowEncoder;
import dev.handoff.api.spi.ShardRouter;
import dev.handoff.core.ack.SourceAcks;
import dev.handoff.core.ack.SourceBatch;
import dev.handoff.core.internal.WarnLimiter;
import dev.handoff.testkit.ManualClock;
import dev.handoff.testkit.RecordingAck;
import dev.handoff.testkit.TestRow;
import dev.handoff.testkit.TestRowEncoder;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * One test (or a small group) per behaviour B1 to B14 of {@link SinkHandoff}; each fails if its
 * behaviour is removed. Budget checks are exact: the in-flight bytes always equal the bytes of
 * chunks sealed (queued or parked) minus those a test worker took and released.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD) // a hung mutant fails
final class SinkHandoffTest {

  /** Routes a record to {@code routingKey mod numShards}, so tests choose the shard by key. */
  static final ShardRouter BY_KEY = (key, time, n) -> (int) Math.floorMod(key, (long) n);

  /** The two encoder kinds: rows written in {@code encode}, or held until {@code finishChunk}. */
  enum Mode {
    ROWS,
    COLUMNAR;

    TestRowEncoder template() {
      return this == ROWS ? TestRowEncoder.rows() : TestRowEncoder.columnar();
    }
  }

  /* ------------------------------------------------------------------ fixture */

  /** Every fixture of the running test, torn down and checked after it. */
  private final List<Fixture> fixtures = new ArrayList<>();

  /**
   * Tears every stage down as a driver would (close, then workers abandon what is queued) and
   * checks that the budget is then exactly zero: every sealed byte was released exactly once.
   */
  @AfterEach
  void tearDownAndCheckTheBudgetReturnsToZero() {
    for (Fixture f : fixtures) {
      f.stage.close();
      for (int s = 0; s < f.queues.numShards(); s++) {
        for (EncodedChunk c : f.queues.drain(s)) {
          f.budget.release(c.sizeBytes());
          c.acks().fail(new IllegalStateException("abandoned at test teardown"));
        }
      }
      assertThat(f.budget.inflightBytes()).as("budget after teardown and drain").isZero();
    }
  }

  /** A stage with its queues, budget, clock and metrics, plus a test worker. */
  final class Fixture {
    final ManualClock clock = new ManualClock();
    final InflightBudget budget = new InflightBudget(1L << 40);
    final List<StageMetrics> flushes = new ArrayList<>();
    final ShardQueues queues;
    final RowEncoder<TestRow> template;
    final SinkHandoff<TestRow> stage;
    long bytesTakenAndReleased;

    Fixture(RowEncoder<TestRow> template, int shards, int capacity, int target,
        ErrorPolicy policy) {
      this("test-stage", template, shards, capacity, target, policy);
    }

    Fixture(String name, RowEncoder<TestRow> template, int shards, int capacity, int target,
        ErrorPolicy policy) {
      this.template = template;
      this.queues = new ShardQueues(shards, capacity);
      this.stage = SinkHandoff.builder(template, queues)
          .name(name)
          .router(BY_KEY)
          .budget(budget)
          .config(ChunkConfig.defaults().withTargetBytes(target).withEncodePolicy(policy))
          .clock(clock)
          .metrics(flushes::add)
          .build();
      fixtures.add(this);
    }

    /** The test worker: takes up to {@code max} chunks of {@code shard}, writes them, acks them. */
    List<EncodedChunk> take(int shard, int max) {
      List<EncodedChunk> taken = new ArrayList<>();
      EncodedChunk c;
      while (taken.size() < max && (c = queues.poll(shard)) != null) {
        taken.add(c);
        budget.release(c.sizeBytes());
        bytesTakenAndReleased += c.sizeBytes();
        c.acks().succeed();
      }
      return taken;
    }

    List<EncodedChunk> takeAll(int shard) {
      return take(shard, Integer.MAX_VALUE);
    }

    /** Checks the budget: exactly the bytes of the chunks queued and parked now. */
    void assertBudgetExact() {
      assertThat(budget.inflightBytes())
          .as("in-flight budget = queued + parked bytes")
          .isEqualTo(queuedBytes(queues) + stage.parkedBytes());
    }
  }

  Fixture fixture(Mode mode, int shards, int capacity, int target) {
    return new Fixture(mode.template(), shards, capacity, target, ErrorPolicy.SKIP);
  }

  /** Sums the sizes of the chunks in every queue, leaving the queues as they were. */
  static long queuedBytes(ShardQueues queues) {
    long sum = 0;
    for (int s = 0; s < queues.numShards(); s++) {
      for (EncodedChunk c : queues.drain(s)) {
        sum += c.sizeBytes();
        assertThat(queues.trySend(c)).isTrue(); // put back, same order
      }
    }
    return sum;
  }

  /** The chunks in {@code shard}'s queue, oldest first, left in place. */
  static List<EncodedChunk> peekAll(ShardQueues queues, int shard) {
    List<EncodedChunk> all = queues.drain(shard);
    for (EncodedChunk c : all) {
      assertThat(queues.trySend(c)).isTrue();
    }
    return all;
  }

  static Envelope<TestRow> rec(long seq, long key, int bytes, Ack ack) {
    return rec(new TestRow(seq, key, bytes, TestRow.Fault.NONE), 1_000L + seq, ack);
  }

  static Envelope<TestRow> rec(TestRow row, long eventTimeMs, Ack ack) {
    return new Envelope<>(row, new RecordMeta(eventTimeMs, row.key()), ack);
  }

  static Envelope<TestRow> bad(long seq, long key, int bytes, TestRow.Fault fault, Ack ack) {
    return rec(new TestRow(seq, key, bytes, fault), 1_000L + seq, ack);
  }

  static List<Long> seqs(EncodedChunk chunk) {
    return TestRowEncoder.decodeSeqs(chunk.frame().toByteArray());
  }

  static List<Long> seqs(List<EncodedChunk> chunks) {
    List<Long> all = new ArrayList<>();
    for (EncodedChunk c : chunks) {
      all.addAll(seqs(c));
    }
    return all;
  }

  static List<Long> sequences(List<EncodedChunk> chunks) {
    return chunks.stream().map(EncodedChunk::sequence).toList();
  }

  /**
   * An encoder that wraps a {@link TestRowEncoder} and records what the stage does with it: the
   * buffers it is given, their capacity at the first encode, and the calls. Every instance made by
   * {@link #newInstance()} is kept in {@link #children}, in creation order (shard order).
   */
  static final class SpyEncoder implements RowEncoder<TestRow> {
    final TestRowEncoder inner;
    final List<SpyEncoder> children;
    final Set<ChunkBuffer> buffers = Collections.newSetFromMap(new IdentityHashMap<>());
    int capacityAtFirstEncode = -1;
    int encodes;
    int finishes;

    SpyEncoder(TestRowEncoder inner, List<SpyEncoder> children) {
      this.inner = inner;
      this.children = children;
    }

    @Override
    public void encode(TestRow row, ChunkBuffer buffer) {
      encodes++;
      buffers.add(buffer);
      if (capacityAtFirstEncode < 0) {
        capacityAtFirstEncode = buffer.capacity();
      }
      inner.encode(row, buffer);
    }

    @Override
    public void finishChunk(ChunkBuffer buffer) {
      finishes++;
      inner.finishChunk(buffer);
    }

    @Override
    public int bufferedBytes() {
      return inner.bufferedBytes();
    }

    @Override
    public SpyEncoder newInstance() {
      SpyEncoder child = new SpyEncoder(inner.newInstance(), children);
      children.add(child);
      return child;
    }
  }

  static SpyEncoder spy(Mode mode) {
    return new SpyEncoder(mode.template(), new ArrayList<>());
  }

  Fixture spyFixture(SpyEncoder spy, int shards, int capacity, int target) {
    return new Fixture(spy, shards, capacity, target, ErrorPolicy.SKIP);
  }

  /* ------------------------------------------------------------------ B1 */

  @Nested
  final class B1 {
    @ParameterizedTest
    @EnumSource(Mode.class)
    void b1_pushNeverRejectsNorBlocksWhenTheQueueIsFull(Mode mode) {
      Fixture f = fixture(mode, 1, 1, 100);
      RecordingAck ack = new RecordingAck(1);
      List<FlowControl> flows = new ArrayList<>();
      assertTimeoutPreemptively(Duration.ofSeconds(10), () -> {
        for (int i = 0; i < 50; i++) {
          flows.add(f.stage.push(rec(i, 0, 100, ack))); // every record seals a chunk
        }
      });
      assertThat(flows).hasSize(50).containsOnly(FlowControl.CONTINUE);
      assertThat(f.queues.size(0)).isEqualTo(1);
      assertThat(f.stage.parkedChunks()).isEqualTo(49);
      assertThat(f.stage.relieve()).as("pressure shows in relieve()").isEqualTo(FlowControl.BLOCKED);
      assertThat(f.budget.inflightBytes()).isEqualTo(50 * 100);
      f.assertBudgetExact();
      assertThat(f.stage.isStopped()).isFalse();
    }

    /**
     * Regression: an exception thrown by the router escaped {@code push} (the record was rejected
     * and the driver died without tearing the stage down). An encoder's unchecked exception was
     * already fatal; a router's now is too.
     */
    @Test
    void b1_aThrowingRouterStopsTheStageInsteadOfEscapingPush() {
      ShardQueues queues = new ShardQueues(2, 4);
      InflightBudget budget = new InflightBudget(1L << 40);
      SinkHandoff<TestRow> stage = SinkHandoff.builder(TestRowEncoder.rows(), queues)
          .name("router-test")
          .router((key, time, n) -> {
            if (key == 13) {
              throw new IllegalStateException("router bug");
            }
            return 0;
          })
          .budget(budget)
          .config(ChunkConfig.defaults().withTargetBytes(1000))
          .clock(new ManualClock())
          .build();
      RecordingAck ok = new RecordingAck(1);
      RecordingAck hit = new RecordingAck(2);
      stage.push(rec(0, 0, 20, ok));
      assertThatCode(() -> stage.push(rec(1, 13, 20, hit))).doesNotThrowAnyException();
      assertThat(stage.isStopped()).isTrue();
      assertThat(hit.failed()).as("the record the stage did not take fails its batch").isTrue();
      FatalError fatal = stage.takeFatal().orElseThrow();
      assertThat(fatal.reason()).contains("router");
      assertThat(fatal.cause()).hasMessage("router bug");
      stage.close();
      assertThat(ok.failed()).isTrue();
      assertThat(ok.holders()).isZero();
      assertThat(budget.inflightBytes()).isZero();
    }
  }

  /* ------------------------------------------------------------------ B2 */

  @Nested
  final class B2 {
    @ParameterizedTest
    @EnumSource(Mode.class)
    void b2_eachShardGetsItsOwnEncoderInstance(Mode mode) {
      TestRowEncoder template = mode.template();
      new Fixture(template, 4, 8, 1024, ErrorPolicy.SKIP);
      assertThat(template.instancesCreated()).isEqualTo(4);
    }

    @Test
    void b2_theBufferHasAnEighthOfTheTargetAboveIt_atLeast4KiB() {
      assertThat(ChunkPool.arrayLengthFor(1 << 20)).isEqualTo((1 << 20) + (1 << 17));
      assertThat(ChunkPool.arrayLengthFor(100)).isEqualTo(4196);
      assertThat(ChunkPool.arrayLengthFor(Integer.MAX_VALUE - 8)).isEqualTo(Integer.MAX_VALUE - 8);
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    void b2_eachShardOwnsABufferPreSizedToTheTarget(Mode mode) {
      SpyEncoder spy = spy(mode);
      Fixture f = spyFixture(spy, 3, 8, 4096);
      for (int i = 0; i < 9; i++) {
        f.stage.push(rec(i, i % 3, 20, Ack.NONE));
      }
      assertThat(spy.children).hasSize(3);
      Set<ChunkBuffer> all = Collections.newSetFromMap(new IdentityHashMap<>());
      for (SpyEncoder child : spy.children) {
        assertThat(child.encodes).isEqualTo(3);
        assertThat(child.buffers).as("one buffer per shard").hasSize(1);
        assertThat(child.capacityAtFirstEncode).as("pre-sized: the target + 4 KiB")
            .isEqualTo(8192);
        all.addAll(child.buffers);
      }
      assertThat(all).as("no buffer shared between shards").hasSize(3);
    }

    @Test
    void b2_columnarRowsOfDifferentShardsNeverMixInOneFrame() {
      Fixture f = fixture(Mode.COLUMNAR, 3, 64, 200);
      for (int i = 0; i < 60; i++) {
        f.stage.push(rec(i, i % 3, 30, Ack.NONE)); // interleaved shards 0,1,2,0,1,2...
      }
      assertThat(f.stage.flushTerminal()).isEqualTo(FlowControl.CONTINUE);
      for (int s = 0; s < 3; s++) {
        List<EncodedChunk> chunks = f.takeAll(s);
        assertThat(chunks).isNotEmpty();
        List<Long> expected = new ArrayList<>();
        for (long i = s; i < 60; i += 3) {
          expected.add(i);
        }
        for (EncodedChunk c : chunks) {
          int shard = s;
          assertThat(c.shard()).isEqualTo(s);
          assertThat(seqs(c)).as("frame of shard %d", s).allMatch(q -> q % 3 == shard);
          assertThat(c.rows()).isEqualTo(seqs(c).size());
        }
        assertThat(seqs(chunks)).isEqualTo(expected);
      }
      assertThat(f.budget.inflightBytes()).isZero();
    }
  }

  /* ------------------------------------------------------------------ B3 */

  @Nested
  final class B3 {
    @ParameterizedTest
    @EnumSource(Mode.class)
    void b3_ackCapturedOncePerRunOfConsecutiveSameBatchRecords(Mode mode) {
      Fixture f = fixture(mode, 1, 8, 10_000);
      RecordingAck a = new RecordingAck(1);
      RecordingAck b = new RecordingAck(2);
      RecordingAck c = new RecordingAck(3);
      Ack[] order = {a, a, a, b, b, a, c, c};
      for (int i = 0; i < order.length; i++) {
        f.stage.push(rec(i, 0, 20, order[i]));
      }
      assertThat(a.retains()).isEqualTo(2); // two runs of batch 1
      assertThat(b.retains()).isEqualTo(1);
      assertThat(c.retains()).isEqualTo(1);
      assertThat(f.stage.flushTerminal()).isEqualTo(FlowControl.CONTINUE);
      EncodedChunk chunk = f.queues.peek(0);
      assertThat(chunk.acks().size()).isEqualTo(4);
      assertThat(List.of(chunk.acks().batchIdAt(0), chunk.acks().batchIdAt(1),
          chunk.acks().batchIdAt(2), chunk.acks().batchIdAt(3))).containsExactly(1L, 2L, 1L, 3L);
      f.take(0, 1); // written and acknowledged
      assertThat(List.of(a, b, c)).allMatch(RecordingAck::delivered);
      assertThat(f.budget.inflightBytes()).isZero();
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    void b3_aBatchSpanningTwoChunksIsRetainedByEach(Mode mode) {
      Fixture f = fixture(mode, 1, 8, 60);
      RecordingAck a = new RecordingAck(1);
      for (int i = 0; i < 5; i++) {
        f.stage.push(rec(i, 0, 20, a)); // seals after row 3 (60 bytes); rows 4-5 open
      }
      assertThat(f.queues.size(0)).isEqualTo(1);
      assertThat(a.retains()).isEqualTo(2);
      assertThat(f.stage.flushTerminal()).isEqualTo(FlowControl.CONTINUE);
      List<EncodedChunk> chunks = f.takeAll(0);
      assertThat(chunks).extracting(c -> c.acks().size()).containsExactly(1, 1);
      assertThat(a.delivered()).isTrue();
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    void b3_rowsCountedFirstIngestSetOnceAndOldestEventTimeIsTheMinimum(Mode mode) {
      Fixture f = fixture(mode, 1, 8, 100);
      f.clock.advance(Duration.ofMillis(5));
      f.stage.push(rec(TestRow.of(0, 20), 300L, Ack.NONE));
      f.clock.advance(Duration.ofMillis(1));
      f.stage.push(rec(TestRow.of(1, 20), 100L, Ack.NONE));
      f.clock.advance(Duration.ofMillis(1));
      f.stage.push(rec(TestRow.of(2, 20), 200L, Ack.NONE));
      assertThat(f.stage.openRows(0)).isEqualTo(3);
      f.clock.advance(Duration.ofMillis(1));
      f.stage.push(rec(TestRow.of(3, 40), 150L, Ack.NONE)); // 100 bytes: seals

      EncodedChunk first = f.take(0, 1).get(0);
      assertThat(first.rows()).isEqualTo(4);
      assertThat(first.oldestIngestNanos()).isEqualTo(Duration.ofMillis(5).toNanos());
      assertThat(first.oldestEventTimeMs()).isEqualTo(100L);

      // The next chunk starts afresh: its own first-ingest time and event-time minimum.
      f.clock.advance(Duration.ofMillis(10));
      f.stage.push(rec(TestRow.of(4, 20), 900L, Ack.NONE));
      f.clock.advance(Duration.ofMillis(10));
      f.stage.push(rec(TestRow.of(5, 20), 950L, Ack.NONE));
      assertThat(f.stage.flushTerminal()).isEqualTo(FlowControl.CONTINUE);
      EncodedChunk second = f.take(0, 1).get(0);
      assertThat(second.rows()).isEqualTo(2);
      assertThat(second.oldestIngestNanos()).isEqualTo(Duration.ofMillis(18).toNanos());
      assertThat(second.oldestEventTimeMs()).isEqualTo(900L);
      assertThat(List.of(first.sequence(), second.sequence())).containsExactly(0L, 1L);
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    void b3_skippedRecordIsNotCountedAndCapturesNoAck(Mode mode) {
      Fixture f = fixture(mode, 1, 8, 10_000);
      RecordingAck good = new RecordingAck(1);
      RecordingAck onlyBad = new RecordingAck(2);
      f.stage.push(rec(0, 0, 20, good));
      f.stage.push(bad(1, 0, 20, TestRow.Fault.DATA, onlyBad));
      assertThat(f.stage.openRows(0)).isEqualTo(1);
      assertThat(onlyBad.retains()).isZero();
      assertThat(onlyBad.failed()).isFalse();
      f.stage.flushTerminal();
      EncodedChunk c = f.take(0, 1).get(0);
      assertThat(c.rows()).isEqualTo(1);
      assertThat(c.acks().size()).isEqualTo(1);
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    void b3_skippedFirstRecordLeavesTheChunkWithoutRowsOrIngestTime(Mode mode) {
      Fixture f = fixture(mode, 1, 8, 10_000);
      RecordingAck batch = new RecordingAck(1);
      f.clock.advance(Duration.ofMillis(3));
      f.stage.push(bad(0, 0, 20, TestRow.Fault.DATA, batch)); // the chunk's first record fails
      assertThat(f.stage.openRows(0)).isZero();
      assertThat(f.stage.oldestOpenIngestNanos()).isEqualTo(Long.MAX_VALUE);
      f.clock.advance(Duration.ofMillis(4));
      f.stage.push(rec(1, 0, 20, batch)); // same batch: still the chunk's first row and run
      f.stage.push(rec(2, 0, 20, batch));
      assertThat(f.stage.oldestOpenIngestNanos()).isEqualTo(Duration.ofMillis(7).toNanos());
      f.stage.flushTerminal();
      EncodedChunk c = f.take(0, 1).get(0);
      assertThat(c.rows()).isEqualTo(2);
      assertThat(c.oldestIngestNanos()).isEqualTo(Duration.ofMillis(7).toNanos());
      assertThat(c.acks().size()).isEqualTo(1);
      assertThat(batch.retains()).isEqualTo(1);
    }
  }

  /* ------------------------------------------------------------------ B4 */

  @Nested
  final class B4 {
    @ParameterizedTest
    @EnumSource(Mode.class)
    void b4_chunkSealsWhenBufferPlusBufferedBytesReachesTheTarget(Mode mode) {
      Fixture f = fixture(mode, 1, 8, 100);
      for (int i = 0; i < 3; i++) {
        f.stage.push(rec(i, 0, 30, Ack.NONE)); // 90 bytes: below the target
      }
      assertThat(f.queues.size(0)).isZero();
      assertThat(f.stage.openRows(0)).isEqualTo(3);
      assertThat(f.budget.inflightBytes()).isZero();
      f.stage.push(rec(3, 0, 30, Ack.NONE)); // 120 >= 100
      assertThat(f.queues.size(0)).isEqualTo(1);
      assertThat(f.stage.openRows(0)).isZero();
      EncodedChunk c = f.queues.peek(0);
      assertThat(c.sizeBytes()).isEqualTo(120);
      assertThat(seqs(c)).containsExactly(0L, 1L, 2L, 3L);
      assertThat(f.budget.inflightBytes()).isEqualTo(120);
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    void b4_chunkSealsWhenExactlyAtTheTarget(Mode mode) {
      Fixture f = fixture(mode, 1, 8, 100);
      for (int i = 0; i < 3; i++) {
        f.stage.push(rec(i, 0, 25, Ack.NONE));
      }
      assertThat(f.queues.size(0)).isZero();
      f.stage.push(rec(3, 0, 25, Ack.NONE)); // exactly 100
      assertThat(f.queues.size(0)).isEqualTo(1);
      assertThat(f.queues.peek(0).sizeBytes()).isEqualTo(100);
      f.assertBudgetExact();
    }
  }

  /* ------------------------------------------------------------------ B5 */

  @Nested
  final class B5 {
    @ParameterizedTest
    @EnumSource(Mode.class)
    void b5_sealingAnEmptyShardDoesNothing(Mode mode) {
      SpyEncoder spy = spy(mode);
      Fixture f = spyFixture(spy, 2, 8, 100);
      f.stage.push(bad(0, 0, 20, TestRow.Fault.DATA, Ack.NONE)); // skipped: shard 0 stays empty
      assertThat(f.stage.flushTerminal()).isEqualTo(FlowControl.CONTINUE);
      assertThat(f.queues.size(0)).isZero();
      assertThat(f.queues.size(1)).isZero();
      assertThat(spy.children).allMatch(c -> c.finishes == 0);
      assertThat(f.budget.inflightBytes()).isZero();
      assertThat(f.stage.shardReports()).allMatch(r -> r.chunksSealed() == 0);
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    void b5_sealCallsFinishChunkFirstSoTheFrameHoldsEveryRow(Mode mode) {
      SpyEncoder spy = spy(mode);
      Fixture f = spyFixture(spy, 1, 8, 100);
      for (int i = 0; i < 4; i++) {
        f.stage.push(rec(i, 0, 30, Ack.NONE)); // seals at the 4th (via push)
      }
      f.stage.push(rec(4, 0, 30, Ack.NONE));
      assertThat(f.stage.flushTerminal()).isEqualTo(FlowControl.CONTINUE); // seals the 5th
      assertThat(spy.children.get(0).finishes).isEqualTo(2);
      List<EncodedChunk> chunks = f.takeAll(0);
      assertThat(chunks).extracting(EncodedChunk::sizeBytes).containsExactly(120, 30);
      assertThat(seqs(chunks)).containsExactly(0L, 1L, 2L, 3L, 4L);
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    void b5_budgetGrowsByTheFrameSizeAtSealWhetherQueuedOrParked(Mode mode) {
      Fixture f = fixture(mode, 1, 1, 100);
      f.stage.push(rec(0, 0, 100, Ack.NONE)); // queued
      assertThat(f.budget.inflightBytes()).isEqualTo(100);
      f.stage.push(rec(1, 0, 130, Ack.NONE)); // parked
      assertThat(f.stage.parkedChunks()).isEqualTo(1);
      assertThat(f.budget.inflightBytes()).isEqualTo(230);
      f.stage.push(rec(2, 0, 40, Ack.NONE)); // open, not sealed: not in the budget
      assertThat(f.budget.inflightBytes()).isEqualTo(230);
      f.assertBudgetExact();
      f.take(0, 1);
      assertThat(f.stage.relieve()).isEqualTo(FlowControl.CONTINUE);
      assertThat(f.budget.inflightBytes()).isEqualTo(130);
      f.assertBudgetExact();
    }

    @Test
    void b5_finishChunkFailureOnPushShipsNothingKeepsTheBudgetAndStopsTheStage() {
      SpyEncoder spy = spy(Mode.COLUMNAR);
      Fixture f = spyFixture(spy, 2, 8, 100);
      RecordingAck a = new RecordingAck(1);
      RecordingAck b = new RecordingAck(2);
      f.stage.push(rec(0, 1, 100, b)); // shard 1 seals one good chunk
      assertThat(f.budget.inflightBytes()).isEqualTo(100);
      spy.children.get(0).inner.failFinishChunk();
      f.stage.push(rec(1, 0, 60, a));
      f.stage.push(rec(2, 0, 60, a)); // shard 0 reaches the target: finishChunk fails

      assertThat(f.queues.size(0)).as("nothing shipped").isZero();
      assertThat(f.budget.inflightBytes()).as("budget unchanged").isEqualTo(100);
      assertThat(f.stage.isStopped()).isTrue();
      Optional<FatalError> fatal = f.stage.takeFatal();
      assertThat(fatal).isPresent();
      assertThat(fatal.get().reason()).contains("finishChunk");
      assertThat(f.stage.shardReports().get(0).chunksSealed()).isZero();

      f.stage.close();
      assertThat(a.failed()).as("the rows that were not shipped replay").isTrue();
      assertThat(a.holders()).isZero();
      assertThat(f.stage.shardReports().get(0).rowsFailedBack()).isEqualTo(2);
      assertThat(f.budget.inflightBytes()).isEqualTo(100);
      assertThat(seqs(f.takeAll(1))).containsExactly(0L);
      assertThat(b.delivered()).isTrue();
      assertThat(f.budget.inflightBytes()).isZero();
    }

    @Test
    void b5_finishChunkFailureOnFlushTerminalShipsNothingAndStopsTheStage() {
      SpyEncoder spy = spy(Mode.COLUMNAR);
      Fixture f = spyFixture(spy, 1, 8, 1000);
      RecordingAck a = new RecordingAck(1);
      f.stage.push(rec(0, 0, 60, a));
      spy.children.get(0).inner.failFinishChunk();
      f.stage.flushTerminal();
      assertThat(f.queues.size(0)).isZero();
      assertThat(f.budget.inflightBytes()).isZero();
      assertThat(f.stage.takeFatal()).isPresent();
      // Stopped: later flushes seal nothing even though finishChunk would work now.
      assertThat(f.stage.flushTerminal()).isEqualTo(FlowControl.CONTINUE);
      assertThat(f.queues.size(0)).isZero();
      assertThat(f.budget.inflightBytes()).isZero();
      f.stage.close();
      assertThat(a.failed()).isTrue();
      assertThat(a.holders()).isZero();
    }

    /**
     * Regression: {@code flushTerminal} checked for a fatal error only before sealing, so when
     * {@code finishChunk} failed on one shard it still drained the other shards' parked chunks
     * after the stop, although a stopped stage sends nothing (and {@code relieve} did not).
     */
    @Test
    void b5_finishChunkFailureDuringFlushTerminalSendsNoParkedChunkAfterTheStop() {
      SpyEncoder spy = spy(Mode.COLUMNAR);
      Fixture f = spyFixture(spy, 2, 1, 100);
      RecordingAck a = new RecordingAck(1);
      RecordingAck b = new RecordingAck(2);
      f.stage.push(rec(0, 0, 100, a)); // shard 0: queued
      f.stage.push(rec(1, 0, 100, a)); // shard 0: parked
      f.stage.push(rec(2, 1, 40, b)); // shard 1: open
      assertThat(f.stage.parkedChunks(0)).isEqualTo(1);
      f.take(0, 1); // room in shard 0's queue now
      spy.children.get(1).inner.failFinishChunk();

      f.stage.flushTerminal(); // shard 1's finishChunk fails
      assertThat(f.stage.isStopped()).isTrue();
      assertThat(f.queues.size(0)).as("a stopped stage sends nothing").isZero();
      assertThat(f.stage.parkedChunks(0)).isEqualTo(1);
      f.assertBudgetExact();

      f.stage.close();
      assertThat(a.failed()).isTrue();
      assertThat(b.failed()).isTrue();
      assertThat(f.budget.inflightBytes()).isZero();
    }
  }

  /* ------------------------------------------------------------------ B6 */

  @Nested
  final class B6 {
    @ParameterizedTest
    @EnumSource(Mode.class)
    void b6_unsendableChunksAreParkedAndDrainInSealOrder(Mode mode) {
      Fixture f = fixture(mode, 1, 2, 100);
      for (int i = 0; i < 6; i++) {
        f.stage.push(rec(i, 0, 100, Ack.NONE)); // six chunks: 2 queued, 4 parked
      }
      assertThat(f.queues.size(0)).isEqualTo(2);
      assertThat(f.stage.parkedChunks()).isEqualTo(4);
      assertThat(f.stage.parkedBytes()).isEqualTo(400);
      f.assertBudgetExact();

      List<EncodedChunk> written = new ArrayList<>(f.takeAll(0));
      while (f.stage.relieve() == FlowControl.BLOCKED) {
        f.assertBudgetExact();
        written.addAll(f.takeAll(0));
      }
      written.addAll(f.takeAll(0));
      assertThat(sequences(written)).containsExactly(0L, 1L, 2L, 3L, 4L, 5L);
      assertThat(seqs(written)).containsExactly(0L, 1L, 2L, 3L, 4L, 5L);
      assertThat(f.budget.inflightBytes()).isZero();
    }

    @Test
    void b6_drainStopsAtTheFirstChunkThatCannotBeSent() {
      Fixture f = fixture(Mode.ROWS, 1, 2, 100);
      for (int i = 0; i < 6; i++) {
        f.stage.push(rec(i, 0, 100, Ack.NONE));
      }
      f.take(0, 1); // one free slot
      assertThat(f.stage.relieve()).isEqualTo(FlowControl.BLOCKED);
      assertThat(f.stage.parkedChunks()).as("exactly the oldest parked chunk left").isEqualTo(3);
      assertThat(sequences(peekAll(f.queues, 0))).containsExactly(1L, 2L);
      assertThat(f.stage.oldestParkedIngestNanos(0)).isEqualTo(0L);
      f.assertBudgetExact();

      f.take(0, 2); // two free slots
      assertThat(f.stage.relieve()).isEqualTo(FlowControl.BLOCKED);
      assertThat(f.stage.parkedChunks()).isEqualTo(1);
      assertThat(sequences(peekAll(f.queues, 0))).containsExactly(3L, 4L);
      f.assertBudgetExact();
    }
  }

  /* ------------------------------------------------------------------ B7 */

  @Nested
  final class B7 {
    @ParameterizedTest
    @EnumSource(Mode.class)
    void b7_newChunkNeverOvertakesParkedChunkOfSameShard(Mode mode) {
      Fixture f = fixture(mode, 1, 1, 100);
      f.stage.push(rec(0, 0, 100, Ack.NONE)); // seq 0 queued
      f.stage.push(rec(1, 0, 100, Ack.NONE)); // seq 1 parked
      List<EncodedChunk> written = new ArrayList<>(f.take(0, 1)); // queue empty again
      f.stage.push(rec(2, 0, 100, Ack.NONE)); // seq 2 sealed while seq 1 is parked
      assertThat(f.queues.size(0)).as("seq 2 must not jump the queue").isZero();
      assertThat(f.stage.parkedChunks(0)).isEqualTo(2);
      f.assertBudgetExact();
      while (f.stage.relieve() == FlowControl.BLOCKED) {
        written.addAll(f.take(0, 1));
      }
      written.addAll(f.takeAll(0));
      assertThat(sequences(written)).containsExactly(0L, 1L, 2L);
      assertThat(seqs(written)).containsExactly(0L, 1L, 2L);
    }

    @Test
    void b7_flushTerminalKeepsTheNewChunkBehindParkedOnes() {
      Fixture f = fixture(Mode.ROWS, 1, 1, 100);
      f.stage.push(rec(0, 0, 100, Ack.NONE)); // queued
      f.stage.push(rec(1, 0, 100, Ack.NONE)); // parked
      f.stage.push(rec(2, 0, 30, Ack.NONE)); // open
      List<EncodedChunk> written = new ArrayList<>(f.take(0, 1));
      assertThat(f.stage.flushTerminal()).isEqualTo(FlowControl.BLOCKED);
      assertThat(sequences(peekAll(f.queues, 0))).containsExactly(1L);
      assertThat(f.stage.parkedChunks(0)).isEqualTo(1);
      written.addAll(f.take(0, 1));
      assertThat(f.stage.flushTerminal()).isEqualTo(FlowControl.CONTINUE);
      written.addAll(f.takeAll(0));
      assertThat(sequences(written)).containsExactly(0L, 1L, 2L);
      assertThat(seqs(written)).containsExactly(0L, 1L, 2L);
      assertThat(f.budget.inflightBytes()).isZero();
    }

    @Test
    void b7_blockedShardDoesNotDelayOtherShards() {
      Fixture f = fixture(Mode.ROWS, 2, 1, 100);
      f.stage.push(rec(0, 0, 100, Ack.NONE)); // shard 0: queued
      f.stage.push(rec(1, 0, 100, Ack.NONE)); // shard 0: parked
      f.stage.push(rec(2, 1, 100, Ack.NONE)); // shard 1: must go straight to its queue
      assertThat(f.queues.size(1)).isEqualTo(1);
      f.stage.push(rec(3, 1, 100, Ack.NONE)); // shard 1: parked (its queue is full)
      assertThat(f.stage.parkedChunks(0)).isEqualTo(1);
      assertThat(f.stage.parkedChunks(1)).isEqualTo(1);

      assertThat(seqs(f.take(1, 1))).containsExactly(2L); // only shard 1's worker makes progress
      assertThat(f.stage.relieve()).isEqualTo(FlowControl.BLOCKED); // shard 0 still blocked
      assertThat(f.stage.parkedChunks(1)).as("shard 1 drained despite shard 0").isZero();
      assertThat(seqs(f.take(1, 1))).containsExactly(3L);
      f.stage.push(rec(4, 1, 100, Ack.NONE)); // shard 1 seals again: straight to its queue
      assertThat(f.queues.size(1)).isEqualTo(1);
      assertThat(f.stage.parkedChunks(0)).isEqualTo(1);
      f.assertBudgetExact();
    }

    @Test
    void b7_teardownHandsNoParkedChunkToItsQueue() {
      Fixture f = fixture(Mode.ROWS, 1, 1, 100);
      f.stage.push(rec(0, 0, 100, Ack.NONE));
      f.stage.push(rec(1, 0, 100, Ack.NONE));
      f.take(0, 1); // the queue has room, but close must not use it
      f.stage.close();
      assertThat(f.queues.size(0)).isZero();
      assertThat(f.stage.parkedChunks()).isZero();
      assertThat(f.budget.inflightBytes()).isZero();
    }
  }

  /* ------------------------------------------------------------------ B8 */

  @Nested
  final class B8 {
    @Test
    void b8_relieveContinueWhenNothingParked() {
      Fixture f = fixture(Mode.ROWS, 2, 1, 100);
      assertThat(f.stage.relieve()).isEqualTo(FlowControl.CONTINUE);
      f.stage.push(rec(0, 0, 100, Ack.NONE)); // queued, nothing parked
      assertThat(f.stage.relieve()).isEqualTo(FlowControl.CONTINUE);
    }

    @Test
    void b8_relieveBlockedWhileAnythingParkedAndContinueOnceAllDrained() {
      Fixture f = fixture(Mode.ROWS, 2, 1, 100);
      for (int i = 0; i < 3; i++) {
        f.stage.push(rec(i, 0, 100, Ack.NONE)); // shard 0: 1 queued, 2 parked
      }
      f.stage.push(rec(3, 1, 100, Ack.NONE)); // shard 1: queued
      assertThat(f.stage.relieve()).isEqualTo(FlowControl.BLOCKED);
      f.take(0, 1);
      assertThat(f.stage.relieve()).as("one still parked").isEqualTo(FlowControl.BLOCKED);
      f.take(0, 1);
      assertThat(f.stage.relieve()).as("everything drained now").isEqualTo(FlowControl.CONTINUE);
      assertThat(f.stage.parkedChunks()).isZero();
      assertThat(f.stage.parkedBytes()).isZero();
      f.assertBudgetExact();
    }

    @Test
    void b8_relieveAfterAStopSendsNothingAndStaysBlocked() {
      Fixture f = fixture(Mode.ROWS, 1, 1, 100);
      f.stage.push(rec(0, 0, 100, Ack.NONE));
      f.stage.push(rec(1, 0, 100, Ack.NONE)); // parked
      f.stage.push(bad(2, 0, 50, TestRow.Fault.FATAL, Ack.NONE));
      f.take(0, 1);
      assertThat(f.stage.relieve()).isEqualTo(FlowControl.BLOCKED);
      assertThat(f.queues.size(0)).isZero();
      f.assertBudgetExact();
    }
  }

  /* ------------------------------------------------------------------ B9 */

  @Nested
  final class B9 {
    @ParameterizedTest
    @EnumSource(Mode.class)
    void b9_flushTerminalSealsEveryShardAndDrains(Mode mode) {
      Fixture f = fixture(mode, 3, 4, 1000);
      for (int i = 0; i < 9; i++) {
        f.stage.push(rec(i, i % 3, 20, Ack.NONE));
      }
      assertThat(f.queues.size(0) + f.queues.size(1) + f.queues.size(2)).isZero();
      assertThat(f.stage.flushTerminal()).isEqualTo(FlowControl.CONTINUE);
      for (int s = 0; s < 3; s++) {
        assertThat(f.stage.openRows(s)).isZero();
        List<EncodedChunk> chunks = f.takeAll(s);
        assertThat(chunks).hasSize(1);
        assertThat(seqs(chunks)).containsExactly((long) s, s + 3L, s + 6L);
      }
      assertThat(f.budget.inflightBytes()).isZero();
      assertThat(f.stage.flushTerminal()).as("nothing more to seal").isEqualTo(FlowControl.CONTINUE);
      assertThat(f.queues.size(0)).isZero();
    }

    @Test
    void b9_flushTerminalIsBlockedOnlyWhileSomethingStaysParked() {
      Fixture f = fixture(Mode.ROWS, 2, 1, 100);
      f.stage.push(rec(0, 0, 100, Ack.NONE)); // shard 0 queued
      f.stage.push(rec(1, 0, 30, Ack.NONE)); // shard 0 open
      f.stage.push(rec(2, 1, 30, Ack.NONE)); // shard 1 open
      assertThat(f.stage.flushTerminal()).isEqualTo(FlowControl.BLOCKED);
      assertThat(f.stage.parkedChunks(0)).isEqualTo(1);
      assertThat(f.queues.size(1)).isEqualTo(1);
      f.assertBudgetExact();
      f.take(0, 1);
      assertThat(f.stage.flushTerminal()).isEqualTo(FlowControl.CONTINUE);
      assertThat(f.stage.parkedChunks()).isZero();
      f.assertBudgetExact();
    }
  }

  /* ------------------------------------------------------------------ B10 */

  @Nested
  final class B10 {
    @ParameterizedTest
    @EnumSource(Mode.class)
    void b10_dataErrorRollsThePartialRowBackSoNoFrameIsCorrupt(Mode mode) {
      Fixture f = fixture(mode, 2, 64, 150);
      List<List<Long>> expected = List.of(new ArrayList<>(), new ArrayList<>());
      for (int i = 0; i < 40; i++) {
        int shard = i % 2;
        if (i % 3 == 1) {
          f.stage.push(bad(i, shard, 40, TestRow.Fault.DATA, Ack.NONE)); // writes half, throws
        } else {
          f.stage.push(rec(i, shard, 40, Ack.NONE));
          expected.get(shard).add((long) i);
        }
      }
      assertThat(f.stage.flushTerminal()).isEqualTo(FlowControl.CONTINUE);
      assertThat(f.stage.isStopped()).isFalse();
      for (int s = 0; s < 2; s++) {
        List<EncodedChunk> chunks = f.takeAll(s);
        for (EncodedChunk c : chunks) {
          assertThatCode(() -> seqs(c)).as("well-formed frame").doesNotThrowAnyException();
          assertThat(c.sizeBytes()).isEqualTo(40 * c.rows());
        }
        assertThat(seqs(chunks)).isEqualTo(expected.get(s));
      }
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    void b12_countsPerBatchAcrossSealsShardsAndClose(Mode mode) {
      Fixture f = fixture(mode, 2, 8, 100); // 40-byte rows: a chunk seals at its third row
      for (int i = 0; i < 7; i++) {
        f.stage.push(rec(i, i % 2, 40, Ack.NONE));
      }
      f.stage.onBatchEnd(Duration.ZERO);
      for (int i = 7; i < 12; i++) {
        f.stage.push(rec(i, i % 2, 40, Ack.NONE));
      }
      f.stage.push(bad(12, 0, 40, TestRow.Fault.DATA, Ack.NONE));
      f.stage.onBatchEnd(Duration.ZERO);
      f.stage.push(rec(13, 1, 40, Ack.NONE));
      f.stage.close(); // drops the open rows: they were taken, and their batch fails
      f.stage.push(rec(14, 0, 40, Ack.NONE));
      f.stage.push(rec(15, 1, 40, Ack.NONE));
      f.stage.onBatchEnd(Duration.ZERO);
      f.stage.onBatchEnd(Duration.ZERO);
      assertThat(f.flushes).extracting(StageMetrics::seen, StageMetrics::out,
              StageMetrics::skipped, StageMetrics::errors)
          .containsExactly(tuple(7L, 7L, 0L, 0L), tuple(6L, 5L, 1L, 1L),
              tuple(3L, 1L, 0L, 0L), tuple(0L, 0L, 0L, 0L));
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    void b10_skipCountsSkippedAndErrorsAndGoesOn(Mode mode) {
      Fixture f = fixture(mode, 1, 8, 10_000);
      f.stage.push(rec(0, 0, 20, Ack.NONE));
      f.stage.push(bad(1, 0, 20, TestRow.Fault.DATA, Ack.NONE));
      f.stage.push(bad(2, 0, 20, TestRow.Fault.DATA, Ack.NONE));
      f.stage.push(rec(3, 0, 20, Ack.NONE));
      f.stage.onBatchEnd(Duration.ofMillis(1));
      StageMetrics m = f.flushes.get(0);
      assertThat(m.seen()).isEqualTo(4);
      assertThat(m.out()).isEqualTo(2);
      assertThat(m.skipped()).isEqualTo(2);
      assertThat(m.errors()).isEqualTo(2);
      assertThat(f.stage.isStopped()).isFalse();
      assertThat(f.stage.takeFatal()).isEmpty();
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    void b10_fatalClassErrorStopsTheStageEvenUnderSkip(Mode mode) {
      Fixture f = fixture(mode, 1, 8, 10_000);
      RecordingAck ack = new RecordingAck(1);
      f.stage.push(rec(0, 0, 20, ack));
      f.stage.push(bad(1, 0, 20, TestRow.Fault.FATAL, ack));
      assertThat(f.stage.isStopped()).isTrue();
      FatalError fatal = f.stage.takeFatal().orElseThrow();
      assertThat(fatal.component()).isEqualTo("test-stage");
      assertThat(fatal.cause()).isInstanceOf(HandoffException.class);
      assertThat(((HandoffException) fatal.cause()).errorClass()).isEqualTo(ErrorClass.FATAL);
      assertThat(ack.failed()).as("the stopping record's batch fails").isTrue();
      f.stage.onBatchEnd(Duration.ZERO);
      assertThat(f.flushes.get(0).skipped()).isZero();
      assertThat(f.flushes.get(0).errors()).isEqualTo(1);
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    void b10_uncheckedNonHandoffExceptionFromTheEncoderIsFatal(Mode mode) {
      Fixture f = fixture(mode, 1, 8, 10_000);
      RecordingAck ack = new RecordingAck(1);
      assertThatCode(() -> f.stage.push(bad(0, 0, 20, TestRow.Fault.UNCHECKED, ack)))
          .as("push never throws").doesNotThrowAnyException();
      assertThat(f.stage.isStopped()).isTrue();
      FatalError fatal = f.stage.takeFatal().orElseThrow();
      assertThat(fatal.cause()).isInstanceOf(HandoffException.class);
      assertThat(((HandoffException) fatal.cause()).errorClass()).isEqualTo(ErrorClass.FATAL);
      assertThat(fatal.cause().getCause()).isInstanceOf(IllegalStateException.class);
      assertThat(ack.failed()).isTrue();
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    void b10_dataErrorUnderFailStopsTheStage(Mode mode) {
      Fixture f = new Fixture(mode.template(), 1, 8, 10_000, ErrorPolicy.FAIL);
      RecordingAck ack = new RecordingAck(1);
      f.stage.push(rec(0, 0, 20, ack));
      f.stage.push(bad(1, 0, 20, TestRow.Fault.DATA, ack));
      assertThat(f.stage.isStopped()).isTrue();
      assertThat(f.stage.takeFatal()).isPresent();
      assertThat(ack.failed()).isTrue();
      f.stage.onBatchEnd(Duration.ZERO);
      assertThat(f.flushes.get(0).skipped()).isZero();
      assertThat(f.flushes.get(0).errors()).isEqualTo(1);
    }

    /**
     * Counts the stage's warnings as slf4j-simple prints them: to {@code System.err}, looked up
     * at every write (its default), so swapping {@code System.err} captures them. The limiter
     * itself is also tested directly below.
     */
    @Test
    void b10_skipWarningsAreRateLimitedToFivePerTenSecondsOfTheStageClock() {
      Fixture f = new Fixture("b10-skip-warnings", TestRowEncoder.rows(), 1, 8, 10_000,
          ErrorPolicy.SKIP);
      String marker = "stage b10-skip-warnings: record of batch";
      ByteArrayOutputStream captured = new ByteArrayOutputStream();
      PrintStream original = System.err;
      System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
      List<String> burst;
      List<String> sameWindow;
      List<String> nextWindow;
      try {
        for (int i = 0; i < 20; i++) {
          f.stage.push(bad(i, 0, 20, TestRow.Fault.DATA, Ack.NONE));
        }
        burst = lines(captured, marker);
        f.clock.advance(Duration.ofMillis(9_999));
        for (int i = 20; i < 25; i++) {
          f.stage.push(bad(i, 0, 20, TestRow.Fault.DATA, Ack.NONE));
        }
        sameWindow = lines(captured, marker);
        f.clock.advance(Duration.ofMillis(1)); // 10 s after the window opened
        f.stage.push(bad(25, 0, 20, TestRow.Fault.DATA, Ack.NONE));
        nextWindow = lines(captured, marker);
      } finally {
        System.setErr(original);
      }
      assertThat(burst).hasSize(5);
      assertThat(sameWindow).hasSize(5);
      assertThat(nextWindow).hasSize(6);
      assertThat(nextWindow.get(5)).contains("20 similar warnings suppressed");
      f.stage.onBatchEnd(Duration.ZERO);
      assertThat(f.flushes.get(0).skipped()).isEqualTo(26);
      assertThat(f.flushes.get(0).errors()).isEqualTo(26);
    }

    private List<String> lines(ByteArrayOutputStream captured, String marker) {
      return captured.toString(StandardCharsets.UTF_8).lines()
          .filter(l -> l.contains(marker)).toList();
    }

    @Test
    void b10_warnLimiterAllowsFivePerWindowAndCountsWhatItSuppressed() {
      ManualClock clock = new ManualClock();
      WarnLimiter limiter = new WarnLimiter(5, Duration.ofSeconds(10).toNanos(), clock);
      int allowed = 0;
      for (int i = 0; i < 12; i++) {
        allowed += limiter.tryAcquire() ? 1 : 0;
      }
      assertThat(allowed).isEqualTo(5);
      assertThat(limiter.takeSuppressed()).isEqualTo(7);
      assertThat(limiter.takeSuppressed()).as("reset by take").isZero();
      clock.advance(Duration.ofSeconds(10).minusNanos(1));
      assertThat(limiter.tryAcquire()).isFalse();
      clock.advance(Duration.ofNanos(1));
      for (int i = 0; i < 5; i++) {
        assertThat(limiter.tryAcquire()).as("permit %d of the new window", i).isTrue();
      }
      assertThat(limiter.tryAcquire()).isFalse();
      assertThat(limiter.takeSuppressed()).isEqualTo(2);
    }
  }

  /* ------------------------------------------------------------------ B11 */

  @Nested
  final class B11 {
    @Test
    void b11_afterAStopPushOnlyCountsRecordsAsSeen() {
      SpyEncoder spy = spy(Mode.ROWS);
      Fixture f = spyFixture(spy, 1, 8, 100);
      f.stage.push(rec(0, 0, 30, Ack.NONE));
      f.stage.push(bad(1, 0, 30, TestRow.Fault.FATAL, Ack.NONE));
      f.stage.onBatchEnd(Duration.ZERO);
      int encodes = spy.children.get(0).encodes;
      for (int i = 2; i < 12; i++) {
        assertThat(f.stage.push(rec(i, 0, 30, Ack.NONE))).isEqualTo(FlowControl.CONTINUE);
      }
      assertThat(spy.children.get(0).encodes).as("nothing encoded after the stop")
          .isEqualTo(encodes);
      assertThat(f.stage.openRows(0)).isEqualTo(1);
      assertThat(f.queues.size(0)).isZero();
      assertThat(f.budget.inflightBytes()).isZero();
      f.stage.onBatchEnd(Duration.ZERO);
      StageMetrics m = f.flushes.get(1);
      assertThat(m.seen()).isEqualTo(10);
      assertThat(m.out()).isZero();
      assertThat(m.skipped()).isZero();
      assertThat(m.errors()).isZero();
    }

    @Test
    void b11_takeFatalReturnsTheErrorExactlyOnce() {
      Fixture f = fixture(Mode.ROWS, 1, 8, 100);
      assertThat(f.stage.takeFatal()).isEmpty();
      f.stage.push(bad(0, 0, 30, TestRow.Fault.FATAL, Ack.NONE));
      Optional<FatalError> first = f.stage.takeFatal();
      assertThat(first).isPresent();
      assertThat(f.stage.takeFatal()).isEmpty();
      assertThat(f.stage.takeFatal()).isEmpty();
      // A second failure does not replace or re-arm the first.
      f.stage.push(bad(1, 0, 30, TestRow.Fault.FATAL, Ack.NONE));
      assertThat(f.stage.takeFatal()).isEmpty();
      assertThat(f.stage.fatalError()).containsSame(first.get());
    }
  }

  /* ------------------------------------------------------------------ B12 */

  @Nested
  final class B12 {
    @Test
    void b12_onBatchEndDeliversExactCountersAndResetsThem() {
      Fixture f = fixture(Mode.ROWS, 1, 1, 100);
      for (int i = 0; i < 3; i++) {
        f.stage.push(rec(i, 0, 100, Ack.NONE)); // 1 queued, 2 parked
      }
      f.stage.push(bad(3, 0, 100, TestRow.Fault.DATA, Ack.NONE));
      f.stage.onBatchEnd(Duration.ofMillis(7));
      f.stage.push(rec(4, 0, 100, Ack.NONE)); // parked
      f.stage.onBatchEnd(Duration.ofMillis(3));
      f.stage.onBatchEnd(Duration.ofMillis(1));

      assertThat(f.flushes).containsExactly(
          new StageMetrics("test-stage", 4, 3, 1, 1, Duration.ofMillis(7), 2, 200),
          new StageMetrics("test-stage", 1, 1, 0, 0, Duration.ofMillis(3), 3, 300),
          new StageMetrics("test-stage", 0, 0, 0, 0, Duration.ofMillis(1), 3, 300));
    }
  }

  /* ------------------------------------------------------------------ B13 */

  @Nested
  final class B13 {
    @ParameterizedTest
    @EnumSource(Mode.class)
    void b13_closeFailsAcksOfParkedChunksAndOpenBuffersAndReleasesBudget(Mode mode) {
      Fixture f = fixture(mode, 2, 1, 100);
      RecordingAck queued = new RecordingAck(1);
      RecordingAck parked = new RecordingAck(2);
      RecordingAck open0 = new RecordingAck(3);
      RecordingAck open1 = new RecordingAck(4);
      f.stage.push(rec(0, 0, 100, queued)); // shard 0 queued
      f.stage.push(rec(1, 0, 60, parked));
      f.stage.push(rec(2, 0, 60, parked)); // shard 0 parked, 120 bytes
      f.stage.push(rec(3, 0, 30, open0)); // shard 0 open
      f.stage.push(rec(4, 1, 30, open1)); // shard 1 open
      f.stage.push(rec(5, 1, 20, open1));
      assertThat(f.budget.inflightBytes()).isEqualTo(220);
      List<EncodedChunk> queueBefore = peekAll(f.queues, 0);

      f.stage.close();

      assertThat(f.budget.inflightBytes()).as("only the queued chunk stays in flight")
          .isEqualTo(100);
      f.assertBudgetExact();
      assertThat(f.stage.parkedChunks()).isZero();
      assertThat(f.stage.parkedBytes()).isZero();
      assertThat(peekAll(f.queues, 0)).containsExactlyElementsOf(queueBefore);
      for (RecordingAck a : List.of(parked, open0, open1)) {
        assertThat(a.failed()).as("batch %d fails", a.batchId()).isTrue();
        assertThat(a.holders()).as("batch %d released", a.batchId()).isZero();
      }
      assertThat(queued.failed()).isFalse();
      assertThat(queued.holders()).isEqualTo(1);
      assertThat(f.stage.shardReports()).containsExactly(
          new ShardReport(0, 2, 1, 1, 120, 3),
          new ShardReport(1, 0, 0, 0, 0, 2));

      // The worker still writes what was queued; the budget ends at zero.
      f.takeAll(0);
      assertThat(queued.delivered()).isTrue();
      assertThat(f.budget.inflightBytes()).isZero();
    }

    @Test
    void b13_closeIsIdempotent() {
      Fixture f = fixture(Mode.ROWS, 1, 1, 100);
      RecordingAck a = new RecordingAck(1);
      f.stage.push(rec(0, 0, 100, a));
      f.stage.push(rec(1, 0, 100, a)); // parked
      f.stage.push(rec(2, 0, 20, a)); // open
      f.stage.close();
      assertThatCode(f.stage::close).doesNotThrowAnyException();
      assertThat(a.releases()).isEqualTo(2); // the parked chunk's and the open buffer's, once
      assertThat(f.budget.inflightBytes()).isEqualTo(100);
      assertThat(f.stage.shardReports().get(0).chunksFailedBack()).isEqualTo(1);
      assertThat(f.stage.relieve()).isEqualTo(FlowControl.CONTINUE);
      assertThat(f.stage.flushTerminal()).isEqualTo(FlowControl.CONTINUE);
      assertThat(f.queues.size(0)).isEqualTo(1);
    }

    @Test
    void b13_closeFailsSourceBatchesSoTheyReplay() {
      Fixture f = fixture(Mode.ROWS, 1, 1, 100);
      SourceAcks acks = new SourceAcks("src");
      SourceBatch b0 = acks.begin();
      f.stage.push(rec(0, 0, 100, b0)); // queued
      b0.complete();
      SourceBatch b1 = acks.begin();
      f.stage.push(rec(1, 0, 100, b1)); // parked
      b1.complete();
      SourceBatch b2 = acks.begin();
      f.stage.push(rec(2, 0, 50, b2)); // open
      b2.complete();
      f.stage.close();
      f.takeAll(0);
      assertThat(b0.state()).isEqualTo(SourceBatch.State.DELIVERED);
      assertThat(b1.state()).isEqualTo(SourceBatch.State.FAILED);
      assertThat(b2.state()).isEqualTo(SourceBatch.State.FAILED);
      assertThat(acks.checkpoint()).isZero();
      assertThat(acks.failedBatchIds()).containsExactlyInAnyOrder(1L, 2L);
      assertThat(f.budget.inflightBytes()).isZero();
    }
  }

  /* ------------------------------------------------------------------ B14 */

  @Nested
  final class B14 {
    @Test
    void b14_recordsPushedAfterFatalFailTheirBatch() {
      Fixture f = fixture(Mode.ROWS, 1, 8, 10_000);
      RecordingAck before = new RecordingAck(1);
      RecordingAck after = new RecordingAck(2);
      f.stage.push(bad(0, 0, 20, TestRow.Fault.FATAL, before));
      f.stage.push(rec(1, 0, 20, after));
      assertThat(after.failed()).as("a record the stage did not take fails its batch").isTrue();
      assertThat(after.retains()).isZero();
    }

    @Test
    void b14_noBatchWithARecordPushedAfterTheStopIsDelivered() {
      Fixture f = fixture(Mode.ROWS, 1, 8, 40);
      SourceAcks acks = new SourceAcks("src");

      SourceBatch b0 = acks.begin(); // fully shipped before the stop
      f.stage.push(rec(0, 0, 40, b0));
      b0.complete();

      SourceBatch b1 = acks.begin(); // one record shipped, then the stop, then more records
      f.stage.push(rec(1, 0, 40, b1));
      f.stage.push(bad(2, 0, 20, TestRow.Fault.FATAL, b1));
      f.stage.push(rec(3, 0, 40, b1));
      b1.complete();

      SourceBatch b2 = acks.begin(); // only pushed after the stop
      f.stage.push(rec(4, 0, 40, b2));
      f.stage.push(rec(5, 0, 40, b2));
      b2.complete();
      assertThat(b2.state()).as("resolved at once, as failed").isEqualTo(SourceBatch.State.FAILED);

      f.takeAll(0); // the worker writes the two chunks sealed before the stop
      f.stage.close();
      assertThat(b0.state()).isEqualTo(SourceBatch.State.DELIVERED);
      assertThat(b1.state()).isEqualTo(SourceBatch.State.FAILED);
      assertThat(acks.checkpoint()).isZero();
      assertThat(acks.pendingBatches()).isZero();
      assertThat(f.budget.inflightBytes()).isZero();
    }

    @Test
    void b14_recordsPushedAfterFinishChunkFailureFailTheirBatch() {
      SpyEncoder spy = spy(Mode.COLUMNAR);
      Fixture f = spyFixture(spy, 1, 8, 100);
      spy.children.get(0).inner.failFinishChunk();
      RecordingAck first = new RecordingAck(1);
      RecordingAck later = new RecordingAck(2);
      f.stage.push(rec(0, 0, 100, first)); // seal fails
      f.stage.push(rec(1, 0, 100, later));
      assertThat(later.failed()).isTrue();
      f.stage.close();
      assertThat(first.failed()).isTrue();
      assertThat(first.holders()).isZero();
      assertThat(later.holders()).isZero();
    }
  }
}
