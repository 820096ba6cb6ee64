package dev.handoff.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.handoff.api.AckSet;
import dev.handoff.api.ChunkConfig;
import dev.handoff.api.EncodedChunk;
import dev.handoff.api.ErrorPolicy;
import dev.handoff.api.FlowControl;
import dev.handoff.api.Envelope;
import dev.handoff.api.RecordMeta;
import dev.handoff.api.spi.ShardRouter;
import dev.handoff.testkit.ManualClock;
import dev.handoff.testkit.RecordingAck;
import dev.handoff.testkit.SeedSweep;
import dev.handoff.testkit.Shrink;
import dev.handoff.testkit.Shrinker;
import dev.handoff.testkit.TestRow;
import dev.handoff.testkit.TestRowEncoder;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/*
 * Seed-swept properties of SinkHandoff together with its queues, budget and acks.
 *
 * Each seed makes a Scenario: a configuration (shards, queue capacity, target size, row or
 * columnar encoder, error policy, router) and a list of operations (push rows, a worker writes
 * or abandons chunks of a shard, a stall, relieve, flushTerminal, close, closing the queues,
 * onBatchEnd). A Run replays the operations from scratch against a fresh stage and, after every
 * one, checks:
 *
 *   (a) per-shard order: the rows a worker takes from shard s come in exactly the order they were
 *       pushed to s (minus skipped ones), chunk.sequence() goes up by one per shard;
 *   (b) the budget equals the bytes of the chunks sealed and not yet released (queued + parked),
 *       never negative, and exactly 0 after teardown and a full drain;
 *   (c) no row is delivered twice and no frame is corrupt;
 *   (d) at the end every row the stage took was written, or its batch failed: nothing silently
 *       lost; the skipped count equals the DATA faults injected under SKIP;
 *   (e) at the end every batch is resolved, and failed exactly when one of its rows was not
 *       written (abandoned, parked or open at teardown, pushed after a stop or teardown);
 *   (model) the stage's visible state (queued, parked, open rows, stopped, relieve/flush results)
 *       matches a small reference model of the contract B1-B14.
 *
 * A failure is shrunk (testkit Shrinker over the operation list, each candidate replayed from
 * scratch, keeping the same invariant failing) and reported by SeedSweep with the seed, the
 * shrunk list and a -Dhandoff.seed reproduction hint. The checker's own tests at the bottom run
 * it against deliberately broken workers, so a checker that cannot fail would be caught.
 */
final class SinkHandoffProperties {

  private static final int SEEDS = 500;
  private static final String RERUN =
      "mvn -B -pl handoff-core -am install -Dsurefire.failIfNoSpecifiedTests=false"
          + " -Dtest=SinkHandoffProperties#";

  /* ================================================================== the properties */

  @Test
  void randomSequences_keepShardOrderExactBudgetAndLoseNothing() {
    Coverage coverage = sweep("randomSequences_keepShardOrderExactBudgetAndLoseNothing",
        Profile.MIXED, 1, Sabotage.NONE);
    coverage.assertExercised(SEEDS);
  }

  @Test
  void stalledWorkers_parkAndDrainInSealOrderWithoutLeakingBudget() {
    Coverage coverage = sweep("stalledWorkers_parkAndDrainInSealOrderWithoutLeakingBudget",
        Profile.STALLED, 10_001, Sabotage.NONE);
    System.out.println(coverage);
    assertThat(coverage.runsThatParked).isGreaterThan(SEEDS / 2);
    assertThat(coverage.blockedRelieves).isGreaterThan(SEEDS);
  }

  @Test
  void faultsStopsAndEarlyTeardown_failEveryBatchThatWasNotWritten() {
    Coverage coverage = sweep("faultsStopsAndEarlyTeardown_failEveryBatchThatWasNotWritten",
        Profile.FAULTS, 20_001, Sabotage.NONE);
    System.out.println(coverage);
    assertThat(coverage.runsStopped).isGreaterThan(SEEDS / 5);
    assertThat(coverage.pushesAfterStopOrClose).isGreaterThan(SEEDS);
    assertThat(coverage.failedBatches).isGreaterThan(SEEDS);
  }

  /*
   * Found by the sweep (shrunk to [close, push]): a push after close() used to be encoded into a
   * torn-down shard. A record of a new batch made AckSet.add throw out of push (B1); a record of
   * the batch seen last was kept by nobody, and its batch could be acknowledged without it.
   */
  @Test
  void pushAfterClose_failsItsBatchAndLeavesNothingInTheStage() {
    ShardQueues queues = new ShardQueues(1, 4);
    InflightBudget budget = new InflightBudget(1_000);
    SinkHandoff<TestRow> stage = SinkHandoff.builder(TestRowEncoder.rows(), queues)
        .budget(budget)
        .config(new ChunkConfig(24, ErrorPolicy.SKIP))
        .clock(new ManualClock())
        .build();
    RecordingAck first = new RecordingAck(0);
    RecordingAck later = new RecordingAck(1);
    stage.push(new Envelope<>(TestRow.of(0, 12), new RecordMeta(0, 0), first));
    stage.close();

    // 30 bytes reach the 24-byte target: a stage that still took rows would seal and send.
    FlowControl sameBatch = stage.push(new Envelope<>(TestRow.of(1, 30), new RecordMeta(0, 0), first));
    FlowControl newBatch = stage.push(new Envelope<>(TestRow.of(2, 30), new RecordMeta(0, 0), later));

    assertThat(sameBatch).isEqualTo(FlowControl.CONTINUE);
    assertThat(newBatch).isEqualTo(FlowControl.CONTINUE);
    assertThat(stage.openRows(0)).isZero();
    assertThat(queues.size(0)).isZero();
    assertThat(budget.inflightBytes()).isZero();
    assertThat(first.failed()).isTrue();
    assertThat(first.holders()).isZero();
    assertThat(later.failed()).isTrue();
    assertThat(later.holders()).isZero();
  }

  /* ================================================================== the checker can fail */

  /*
   * Each sabotage breaks the worker side in one way (the stage itself is untouched), so exactly
   * one invariant must catch it. The report must carry the seed, a shrunk operation list that is
   * small, and the reproduction hint.
   */
  @ParameterizedTest
  @EnumSource(value = Sabotage.class, names = "NONE", mode = EnumSource.Mode.EXCLUDE)
  void checker_reportsABrokenWorkerWithSeedShrunkOpsAndReproduction(Sabotage sabotage) {
    assumeTrue(System.getProperty(SeedSweep.SEED_PROPERTY) == null,
        "a pinned seed need not show this sabotage");
    AssertionError report = null;
    try {
      sweep("checker_reportsABrokenWorker", Profile.MIXED, 1, sabotage);
    } catch (AssertionError e) {
      report = e;
    }

    assertThat(report).as("no seed exposed the sabotage %s", sabotage).isNotNull();
    String msg = report.getMessage();
    assertThat(msg)
        .contains("failed at seed ")
        .contains("shrunk:")
        .contains("-D" + SeedSweep.SEED_PROPERTY + "=")
        .contains(RERUN)
        .containsPattern(sabotage.expected);
    Matcher shrunk = Pattern.compile("shrunk: +Scenario\\{[^}]*?; (\\d+) ops").matcher(msg);
    assertThat(shrunk.find()).as("shrunk scenario in %s", msg).isTrue();
    assertThat(Integer.parseInt(shrunk.group(1))).as(msg).isBetween(1, sabotage.maxShrunkOps);
  }

  @Test
  void checker_acceptsAHandWrittenScenarioThatParksStopsAndTearsDown() {
    Config config = new Config(2, 1, 30, false, ErrorPolicy.SKIP, RouterKind.ROUND_ROBIN);
    Scenario scenario = new Scenario(config, List.of(
        push(true, row(0, 20), row(1, 20), row(0, 20), row(1, 20)),
        push(false, row(0, 20), row(1, 20), row(0, 20, TestRow.Fault.DATA)),
        new Relieve(),
        new Write(0, 1),
        new Relieve(),
        push(true, row(0, 12)),
        new Abandon(1, 3),
        new FlushTerminal(),
        new Close(),
        push(true, row(0, 12))));
    Coverage coverage = new Coverage();

    new Run(scenario, Sabotage.NONE, coverage).execute();

    assertThat(coverage.runsThatParked).isEqualTo(1);
    assertThat(coverage.pushesAfterStopOrClose).isEqualTo(1);
    assertThat(coverage.skipped).isEqualTo(1);
  }

  @Test
  void shrinking_keepsTheSameInvariantFailing() {
    // Seed-independent: a scenario that double-releases, padded with irrelevant operations.
    Config config = new Config(1, 3, 16, false, ErrorPolicy.SKIP, RouterKind.KEY_HASH);
    List<Op> ops = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      ops.add(new Stall());
      ops.add(new Relieve());
    }
    ops.add(push(true, row(5, 20), row(5, 20)));
    ops.add(new BatchEnd());
    ops.add(new Write(0, 2));
    ops.add(new FlushTerminal());
    Scenario failing = new Scenario(config, ops);

    String label = failureLabel(failing, Sabotage.DOUBLE_RELEASE);
    Scenario shrunk = shrinkKeeping(Sabotage.DOUBLE_RELEASE).shrink(failing,
        c -> failureLabel(c, Sabotage.DOUBLE_RELEASE) != null);

    assertThat(label).isEqualTo("(b)");
    assertThat(failureLabel(shrunk, Sabotage.DOUBLE_RELEASE)).isEqualTo("(b)");
    // The final drain writes (and double-releases) too, so the push alone still fails (b).
    assertThat(shrunk.ops()).containsExactly(push(true, row(5, 20), row(5, 20)));
  }

  /* ================================================================== sweeping */

  private static Coverage sweep(String method, Profile profile, long firstSeed, Sabotage sabotage) {
    return onShortStack(() -> sweepHere(method, profile, firstSeed, sabotage));
  }

  /*
   * The stage logs every stop with the error's stack trace; run on a fresh thread, those traces
   * are a dozen frames instead of JUnit's ninety, which keeps the build log readable.
   */
  private static Coverage onShortStack(Callable<Coverage> body) {
    FutureTask<Coverage> task = new FutureTask<>(body);
    Thread thread = new Thread(task, "sink-handoff-properties");
    thread.start();
    try {
      return task.get(5, TimeUnit.MINUTES);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof Error err) {
        throw err;
      }
      if (e.getCause() instanceof RuntimeException re) {
        throw re;
      }
      throw new IllegalStateException(e.getCause());
    } catch (InterruptedException | TimeoutException e) {
      thread.interrupt();
      throw new IllegalStateException("the sweep did not finish", e);
    }
  }

  private static Coverage sweepHere(
      String method, Profile profile, long firstSeed, Sabotage sabotage) {
    Coverage coverage = new Coverage();
    SeedSweep.run(
        "SinkHandoffProperties#" + method + " (profile " + profile + ", sabotage " + sabotage
            + "); rerun: " + RERUN + method,
        firstSeed,
        SEEDS,
        profile::generate,
        scenario -> {
          new Run(scenario, sabotage, coverage).execute();
          return true;
        },
        shrinkKeeping(sabotage));
    return coverage;
  }

  /**
   * Shrinks the operation list while the same invariant keeps failing, then the rows of each
   * remaining push. Every candidate is replayed from scratch.
   */
  private static Shrink<Scenario> shrinkKeeping(Sabotage sabotage) {
    return (failing, stillFails) -> {
      String label = failureLabel(failing, sabotage);
      if (label == null) {
        return failing;
      }
      List<Op> ops = new ArrayList<>(Shrinker.shrinkList(failing.ops(),
          candidate -> label.equals(failureLabel(failing.withOps(candidate), sabotage)),
          20_000));
      for (int i = 0; i < ops.size(); i++) {
        if (ops.get(i) instanceof Push p && p.rows().size() > 1) {
          int at = i;
          List<Row> rows = Shrinker.shrinkList(p.rows(), candidate -> {
            if (candidate.isEmpty()) {
              return false;
            }
            List<Op> trial = new ArrayList<>(ops);
            trial.set(at, new Push(p.newBatch(), candidate));
            return label.equals(failureLabel(failing.withOps(trial), sabotage));
          }, 1_000);
          ops.set(i, new Push(p.newBatch(), rows));
        }
      }
      return failing.withOps(ops);
    };
  }

  /** Returns the label of the invariant {@code scenario} breaks, or {@code null} if it passes. */
  private static String failureLabel(Scenario scenario, Sabotage sabotage) {
    try {
      new Run(scenario, sabotage, new Coverage()).execute();
      return null;
    } catch (Violation v) {
      return v.invariant;
    }
  }

  /* ================================================================== the case */

  enum RouterKind { KEY_HASH, ROUND_ROBIN, SINGLE_SHARD }

  record Config(int shards, int capacity, int targetBytes, boolean columnar, ErrorPolicy policy,
      RouterKind router) {
    @Override
    public String toString() {
      return "shards=" + shards + " capacity=" + capacity + " target=" + targetBytes
          + (columnar ? " columnar " : " rows ") + policy + " " + router;
    }
  }

  /** One row to push: its routing key, encoded size and fault. */
  record Row(long key, int bytes, TestRow.Fault fault) {
    @Override
    public String toString() {
      return "k" + key + "/" + bytes + "b" + (fault == TestRow.Fault.NONE ? "" : "!" + fault);
    }
  }

  sealed interface Op permits Push, Write, Abandon, Stall, Relieve, FlushTerminal, Close,
      CloseQueues, BatchEnd {}

  /** Pushes rows of one batch: a new batch, or the one the previous push used. */
  record Push(boolean newBatch, List<Row> rows) implements Op {
    @Override
    public String toString() {
      return "push(" + (newBatch ? "new batch, " : "") + rows + ")";
    }
  }

  /** A worker takes up to {@code chunks} chunks of {@code shard}, writes them, acks success. */
  record Write(int shard, int chunks) implements Op {
    @Override
    public String toString() {
      return "write(shard " + shard + ", " + chunks + ")";
    }
  }

  /** A worker takes up to {@code chunks} chunks of {@code shard} and gives up on them. */
  record Abandon(int shard, int chunks) implements Op {
    @Override
    public String toString() {
      return "abandon(shard " + shard + ", " + chunks + ")";
    }
  }

  /** Nobody does anything; the clock moves. */
  record Stall() implements Op {
    @Override
    public String toString() {
      return "stall";
    }
  }

  record Relieve() implements Op {
    @Override
    public String toString() {
      return "relieve";
    }
  }

  record FlushTerminal() implements Op {
    @Override
    public String toString() {
      return "flushTerminal";
    }
  }

  /** Tears the stage down; the run goes on (later pushes must fail their batches). */
  record Close() implements Op {
    @Override
    public String toString() {
      return "close";
    }
  }

  /** Closes the shard queues: every later trySend is refused. */
  record CloseQueues() implements Op {
    @Override
    public String toString() {
      return "closeQueues";
    }
  }

  record BatchEnd() implements Op {
    @Override
    public String toString() {
      return "onBatchEnd";
    }
  }

  record Scenario(Config config, List<Op> ops) {
    Scenario withOps(List<Op> newOps) {
      return new Scenario(config, List.copyOf(newOps));
    }

    @Override
    public String toString() {
      return "Scenario{" + config + "; " + ops.size() + " ops: " + ops + "}";
    }
  }

  private static Push push(boolean newBatch, Row... rows) {
    return new Push(newBatch, List.of(rows));
  }

  private static Row row(long key, int bytes) {
    return new Row(key, bytes, TestRow.Fault.NONE);
  }

  private static Row row(long key, int bytes, TestRow.Fault fault) {
    return new Row(key, bytes, fault);
  }

  /* ================================================================== generators */

  /** Operation weights and fault rates of a family of scenarios. */
  enum Profile {
    /** A bit of everything. */
    MIXED(120, 1, 3, 16, 200, 10, 8, 2,
        new int[] {350, 200, 50, 100, 150, 60, 3, 3, 40}),
    /** Slow workers and one-chunk queues: parking and draining. */
    STALLED(150, 1, 1, 16, 60, 0, 3, 0,
        new int[] {400, 60, 20, 250, 180, 50, 2, 0, 10}),
    /** Bad data, FAIL policy, fatal encoder errors, early teardown, pushes after it. */
    FAULTS(100, 1, 3, 16, 120, 25, 20, 8,
        new int[] {400, 150, 100, 50, 100, 80, 12, 5, 50});

    private final int maxOps;
    private final int minCapacity;
    private final int maxCapacity;
    private final int minTarget;
    private final int maxTarget;
    private final int failPolicyPercent;
    private final int dataFaultPercent;
    private final int fatalFaultPermille;
    /** push, write, abandon, stall, relieve, flush, close, closeQueues, batchEnd. */
    private final int[] weights;

    Profile(int maxOps, int minCapacity, int maxCapacity, int minTarget, int maxTarget,
        int failPolicyPercent, int dataFaultPercent, int fatalFaultPermille, int[] weights) {
      this.maxOps = maxOps;
      this.minCapacity = minCapacity;
      this.maxCapacity = maxCapacity;
      this.minTarget = minTarget;
      this.maxTarget = maxTarget;
      this.failPolicyPercent = failPolicyPercent;
      this.dataFaultPercent = dataFaultPercent;
      this.fatalFaultPermille = fatalFaultPermille;
      this.weights = weights;
    }

    Scenario generate(long seed) {
      SplittableRandom r = new SplittableRandom(seed);
      int shards = r.nextInt(1, 5);
      int roll = r.nextInt(100);
      RouterKind router = roll < 60 ? RouterKind.KEY_HASH
          : roll < 85 ? RouterKind.ROUND_ROBIN : RouterKind.SINGLE_SHARD;
      Config config = new Config(
          shards,
          r.nextInt(minCapacity, maxCapacity + 1),
          r.nextInt(minTarget, maxTarget + 1),
          r.nextBoolean(),
          r.nextInt(100) < failPolicyPercent ? ErrorPolicy.FAIL : ErrorPolicy.SKIP,
          router);
      int total = 0;
      for (int w : weights) {
        total += w;
      }
      int n = r.nextInt(maxOps + 1);
      List<Op> ops = new ArrayList<>(n);
      for (int i = 0; i < n; i++) {
        int pick = r.nextInt(total);
        int kind = 0;
        while (pick >= weights[kind]) {
          pick -= weights[kind++];
        }
        ops.add(switch (kind) {
          case 0 -> genPush(r);
          case 1 -> new Write(r.nextInt(shards), r.nextInt(1, 4));
          case 2 -> new Abandon(r.nextInt(shards), r.nextInt(1, 4));
          case 3 -> new Stall();
          case 4 -> new Relieve();
          case 5 -> new FlushTerminal();
          case 6 -> new Close();
          case 7 -> new CloseQueues();
          default -> new BatchEnd();
        });
      }
      return new Scenario(config, List.copyOf(ops));
    }

    private Push genPush(SplittableRandom r) {
      int count = r.nextInt(1, 7);
      List<Row> rows = new ArrayList<>(count);
      for (int i = 0; i < count; i++) {
        TestRow.Fault fault = TestRow.Fault.NONE;
        if (r.nextInt(1000) < fatalFaultPermille) {
          fault = r.nextBoolean() ? TestRow.Fault.FATAL : TestRow.Fault.UNCHECKED;
        } else if (r.nextInt(100) < dataFaultPercent) {
          fault = TestRow.Fault.DATA;
        }
        rows.add(new Row(r.nextInt(8), r.nextInt(TestRowEncoder.MIN_ROW_BYTES, 61), fault));
      }
      return new Push(r.nextInt(10) < 3, List.copyOf(rows));
    }
  }

  /* ================================================================== sabotage of the checker */

  /** A way to break the worker side, to prove the checker notices. */
  enum Sabotage {
    NONE("", 0),
    /** Hands two chunks of a shard to the checker in the wrong order. */
    REORDER("invariant \\(a\\)", 8),
    /** Releases a written chunk's bytes twice (when the budget can take it). */
    DOUBLE_RELEASE("invariant \\(b\\)", 8),
    /** Reports one written chunk to the checker twice. */
    DUPLICATE("invariant \\(c\\)", 6),
    /** At the final drain, drops a shard's last chunk but releases it and acks success. */
    LOSE_LAST_CHUNK("invariant \\(d\\)", 6),
    /** Writes chunks but never resolves their acks. */
    KEEP_ACKS("invariant \\(e\\)", 6);

    final Pattern expected;
    final int maxShrunkOps;

    Sabotage(String expected, int maxShrunkOps) {
      this.expected = Pattern.compile(expected);
      this.maxShrunkOps = maxShrunkOps;
    }
  }

  /** Counts what the sweeps exercised, so a generator that stops reaching a path shows up. */
  static final class Coverage {
    int runs;
    int runsThatParked;
    int runsStopped;
    int runsClosedEarly;
    long blockedRelieves;
    long chunksWritten;
    long chunksAbandoned;
    long pushesAfterStopOrClose;
    long skipped;
    long failedBatches;
    int columnarRuns;

    @Override
    public String toString() {
      return "Coverage{runs=" + runs + ", parked=" + runsThatParked + ", stopped=" + runsStopped
          + ", closedEarly=" + runsClosedEarly + ", blockedRelieves=" + blockedRelieves
          + ", written=" + chunksWritten + ", abandoned=" + chunksAbandoned
          + ", pushesAfterStopOrClose=" + pushesAfterStopOrClose + ", skipped=" + skipped
          + ", failedBatches=" + failedBatches + ", columnar=" + columnarRuns + "}";
    }

    void assertExercised(int seeds) {
      System.out.println(this);
      assertThat(runs).isGreaterThanOrEqualTo(seeds);
      assertThat(runsThatParked).as("runs that parked").isGreaterThan(seeds / 10);
      assertThat(runsStopped).as("runs stopped by a fault").isGreaterThan(seeds / 20);
      assertThat(runsClosedEarly).as("runs torn down mid-way").isGreaterThan(seeds / 10);
      assertThat(chunksWritten).isGreaterThan(seeds);
      assertThat(chunksAbandoned).isGreaterThan(seeds / 10);
      assertThat(pushesAfterStopOrClose).isPositive();
      assertThat(skipped).isGreaterThan(seeds / 10);
      assertThat(failedBatches).isGreaterThan(seeds / 10);
      assertThat(columnarRuns).isBetween(seeds / 4, seeds * 3 / 4);
    }
  }

  /** An invariant that does not hold; {@link #invariant} says which. */
  static final class Violation extends AssertionError {
    private static final long serialVersionUID = 1L;
    final String invariant;

    Violation(String invariant, String message, Throwable cause) {
      super((invariant.matches("\\([a-e]\\)") ? "invariant " : "") + invariant + " " + message,
          cause);
      this.invariant = invariant;
    }
  }

  /* ================================================================== one run */

  /** Records the shard the wrapped router chose for the last record. */
  private static final class RecordingRouter implements ShardRouter {
    private final ShardRouter delegate;
    int last = -1;

    RecordingRouter(ShardRouter delegate) {
      this.delegate = delegate;
    }

    @Override
    public int route(long routingKey, long eventTimeMs, int numShards) {
      last = delegate.route(routingKey, eventTimeMs, numShards);
      return last;
    }
  }

  /** A row the stage took, as the model knows it. */
  private record ModelRow(long seq, int bytes, int batch) {}

  /** A sealed chunk, as the model knows it. */
  private record ModelChunk(int shard, List<ModelRow> rows, long bytes) {}

  /**
   * Replays one scenario against a fresh stage and a reference model, checking every invariant
   * after every operation. Single-threaded: the test plays the pipeline thread and the workers.
   */
  static final class Run {
    private final Scenario scenario;
    private final Config config;
    private final Sabotage sabotage;
    private final Coverage coverage;

    private final ManualClock clock = new ManualClock();
    private final ShardQueues queues;
    private final InflightBudget budget = new InflightBudget(1L << 30);
    private final RecordingRouter router;
    private final SinkHandoff<TestRow> stage;
    private final long[] metrics = new long[4]; // seen, out, skipped, errors

    private final List<RecordingAck> batches = new ArrayList<>();
    private final BitSet mustFail = new BitSet();
    private final Map<Long, ModelRow> taken = new HashMap<>();
    private final List<List<Long>> pushedOrder = new ArrayList<>();
    private final int[] deliveredUpTo;
    private final long[] nextChunkSequence;
    private final Set<Long> delivered = new HashSet<>();
    private final Set<Long> written = new HashSet<>();
    private final List<AckSet> unresolvedByTest = new ArrayList<>();

    // The reference model.
    private final List<List<ModelRow>> open = new ArrayList<>();
    private final long[] openBytes;
    private final List<ArrayDeque<ModelChunk>> queued = new ArrayList<>();
    private final List<ArrayDeque<ModelChunk>> parked = new ArrayList<>();
    private long modelBudget;
    private boolean stopped;
    private boolean closed;
    private boolean queuesClosed;
    private long nextSeq;
    private long expectedSeen;
    private long expectedOut;
    private long expectedSkipped;
    private long expectedErrors;

    private String where = "before the first op";
    private boolean parkedOnce;

    Run(Scenario scenario, Sabotage sabotage, Coverage coverage) {
      this.scenario = scenario;
      this.config = scenario.config();
      this.sabotage = sabotage;
      this.coverage = coverage;
      int n = config.shards();
      this.queues = new ShardQueues(n, config.capacity());
      this.router = new RecordingRouter(switch (config.router()) {
        case KEY_HASH -> Routers.keyHash();
        case ROUND_ROBIN -> Routers.roundRobin();
        case SINGLE_SHARD -> Routers.singleShard(n - 1);
      });
      this.stage = SinkHandoff.builder(
              config.columnar() ? TestRowEncoder.columnar() : TestRowEncoder.rows(), queues)
          .name("property")
          .router(router)
          .budget(budget)
          .config(new ChunkConfig(config.targetBytes(), config.policy()))
          .clock(clock)
          .metrics(m -> {
            metrics[0] += m.seen();
            metrics[1] += m.out();
            metrics[2] += m.skipped();
            metrics[3] += m.errors();
          })
          .build();
      this.deliveredUpTo = new int[n];
      this.nextChunkSequence = new long[n];
      this.openBytes = new long[n];
      for (int s = 0; s < n; s++) {
        pushedOrder.add(new ArrayList<>());
        open.add(new ArrayList<>());
        queued.add(new ArrayDeque<>());
        parked.add(new ArrayDeque<>());
      }
    }

    void execute() {
      try {
        List<Op> ops = scenario.ops();
        for (int i = 0; i < ops.size(); i++) {
          Op op = ops.get(i);
          where = "after op #" + i + " " + op;
          try {
            apply(op);
          } catch (Violation v) {
            throw v;
          } catch (RuntimeException e) {
            throw new Violation("(unexpected " + e.getClass().getSimpleName() + ")",
                where + ": " + e, e);
          }
          checkState();
        }
        where = "at the final teardown (close, then a worker writes every queued chunk)";
        finish();
        coverage.runs++;
        coverage.runsThatParked += parkedOnce ? 1 : 0;
        coverage.runsStopped += stopped ? 1 : 0;
        coverage.columnarRuns += config.columnar() ? 1 : 0;
      } finally {
        cleanUp();
      }
    }

    /* ---------------------------------------------------------------- operations */

    private void apply(Op op) {
      if (op instanceof Push p) {
        push(p);
      } else if (op instanceof Write w) {
        work(w.shard(), w.chunks(), true, false);
      } else if (op instanceof Abandon a) {
        work(a.shard(), a.chunks(), false, false);
      } else if (op instanceof Stall) {
        clock.advance(Duration.ofMillis(7));
      } else if (op instanceof Relieve) {
        FlowControl flow = stage.relieve();
        if (!stopped && !closed) {
          modelDrain();
        }
        expectFlow("relieve", flow);
        coverage.blockedRelieves += flow == FlowControl.BLOCKED ? 1 : 0;
      } else if (op instanceof FlushTerminal) {
        FlowControl flow = stage.flushTerminal();
        if (!stopped && !closed) {
          for (int s = 0; s < config.shards(); s++) {
            modelSeal(s);
          }
          modelDrain();
        }
        expectFlow("flushTerminal", flow);
      } else if (op instanceof Close) {
        coverage.runsClosedEarly += closed ? 0 : 1;
        stage.close();
        modelClose();
      } else if (op instanceof CloseQueues) {
        queues.close();
        queuesClosed = true;
      } else if (op instanceof BatchEnd) {
        stage.onBatchEnd(Duration.ofMillis(1));
      } else {
        throw new IllegalArgumentException("unknown op " + op);
      }
    }

    private void push(Push p) {
      if (p.newBatch() || batches.isEmpty()) {
        batches.add(new RecordingAck(batches.size()));
      }
      int batch = batches.size() - 1;
      RecordingAck ack = batches.get(batch);
      for (Row row : p.rows()) {
        long seq = nextSeq++;
        TestRow payload = new TestRow(seq, row.key(), row.bytes(), row.fault());
        router.last = -1;
        FlowControl flow;
        try {
          flow = stage.push(new Envelope<>(payload, new RecordMeta(1_000 + seq, row.key()), ack));
        } catch (RuntimeException e) {
          throw new Violation("(B1)", where + ": push of row " + seq + " threw " + e
              + " (a push must never reject a record)", e);
        }
        if (flow != FlowControl.CONTINUE) {
          throw new Violation("(B1)", where + ": push of row " + seq + " returned " + flow, null);
        }
        expectedSeen++;
        if (stopped || closed) {
          mustFail.set(batch); // B11/B14: taken by nobody, so the batch must replay
          coverage.pushesAfterStopOrClose++;
          continue;
        }
        switch (row.fault()) {
          case NONE -> {
            // A stage of one shard does not ask its router (the only answer is 0).
            int s = config.shards() == 1 ? 0 : router.last;
            if (s < 0 || s >= config.shards()) {
              throw new Violation("(model)", where + ": router chose shard " + s, null);
            }
            expectedOut++;
            ModelRow taken = new ModelRow(seq, row.bytes(), batch);
            this.taken.put(seq, taken);
            pushedOrder.get(s).add(seq);
            open.get(s).add(taken);
            openBytes[s] += row.bytes();
            if (openBytes[s] >= config.targetBytes()) {
              modelSeal(s); // B4
            }
          }
          case DATA -> {
            expectedErrors++;
            if (config.policy() == ErrorPolicy.SKIP) {
              expectedSkipped++;
              coverage.skipped++;
            } else {
              stopped = true;
              mustFail.set(batch);
            }
          }
          default -> {
            expectedErrors++;
            stopped = true;
            mustFail.set(batch);
          }
        }
      }
    }

    /** A worker takes up to {@code max} chunks of {@code shard} and writes or abandons them. */
    private void work(int shard, int max, boolean write, boolean finalDrain) {
      List<EncodedChunk> got = new ArrayList<>();
      EncodedChunk c;
      while (got.size() < max && (c = queues.poll(shard)) != null) {
        got.add(c);
        unresolvedByTest.add(c.acks());
      }
      List<ModelChunk> expected = new ArrayList<>();
      for (int i = 0; i < got.size(); i++) {
        ModelChunk m = queued.get(shard).pollFirst();
        if (m == null) {
          throw new Violation("(model)", where + ": shard " + shard + " handed out "
              + got.size() + " chunk(s), the model expected only " + i, null);
        }
        expected.add(m);
      }
      if (sabotage == Sabotage.REORDER && got.size() >= 2) {
        Collections.reverse(got);
      }
      for (int i = 0; i < got.size(); i++) {
        EncodedChunk chunk = got.get(i);
        ModelChunk model = expected.get(i);
        boolean lose = finalDrain && sabotage == Sabotage.LOSE_LAST_CHUNK
            && i == got.size() - 1 && queues.size(shard) == 0;
        if (!lose) {
          checkDelivered(shard, chunk, model);
          if (sabotage == Sabotage.DUPLICATE && write) {
            checkDelivered(shard, chunk, model);
          }
        }
        budget.release(chunk.sizeBytes());
        modelBudget -= model.bytes();
        if (sabotage == Sabotage.DOUBLE_RELEASE && write
            && budget.inflightBytes() >= chunk.sizeBytes()) {
          budget.release(chunk.sizeBytes());
        }
        checkBudget();
        if (write) {
          coverage.chunksWritten++;
          if (sabotage != Sabotage.KEEP_ACKS) {
            chunk.acks().succeed();
          }
          if (!lose) {
            for (ModelRow r : model.rows()) {
              written.add(r.seq());
            }
          }
        } else {
          coverage.chunksAbandoned++;
          chunk.acks().fail(new IllegalStateException("abandoned by the test's worker"));
          for (ModelRow r : model.rows()) {
            mustFail.set(r.batch());
          }
        }
      }
    }

    /* ---------------------------------------------------------------- delivery checks */

    /** Checks (c), then (a), then the model, for a chunk a worker took from {@code shard}. */
    private void checkDelivered(int shard, EncodedChunk chunk, ModelChunk model) {
      List<Long> seqs;
      try {
        seqs = TestRowEncoder.decodeSeqs(chunk.frame().toByteArray());
      } catch (IllegalArgumentException e) {
        throw new Violation("(c)", where + ": corrupt frame in " + chunk + ": " + e.getMessage(),
            e);
      }
      for (long seq : seqs) {
        if (!delivered.add(seq)) {
          throw new Violation("(c)", where + ": row " + seq + " delivered twice (" + chunk + ")",
              null);
        }
      }

      String prefix = where + ": shard " + shard + " ";
      if (chunk.shard() != shard) {
        throw new Violation("(a)", prefix + "handed out a chunk of shard " + chunk.shard(), null);
      }
      if (chunk.sequence() != nextChunkSequence[shard]) {
        throw new Violation("(a)", prefix + "handed out chunk sequence " + chunk.sequence()
            + ", expected " + nextChunkSequence[shard], null);
      }
      nextChunkSequence[shard]++;
      List<Long> pushed = pushedOrder.get(shard);
      int from = deliveredUpTo[shard];
      List<Long> expectedSeqs = pushed.subList(from, Math.min(pushed.size(), from + seqs.size()));
      if (seqs.isEmpty() || !seqs.equals(expectedSeqs)) {
        throw new Violation("(a)", prefix + "delivered rows " + seqs + " but the next rows "
            + "pushed to it were " + expectedSeqs, null);
      }
      deliveredUpTo[shard] += seqs.size();
      long bytes = 0;
      for (long seq : seqs) {
        bytes += taken.get(seq).bytes();
      }
      if (chunk.rows() != seqs.size() || chunk.sizeBytes() != bytes) {
        throw new Violation("(c)", prefix + "chunk says " + chunk.rows() + " rows / "
            + chunk.sizeBytes() + " bytes, its frame holds " + seqs.size() + " rows / "
            + bytes + " bytes", null);
      }

      List<Long> modelSeqs = model.rows().stream().map(ModelRow::seq).toList();
      if (!seqs.equals(modelSeqs)) {
        throw new Violation("(model)", prefix + "chunk holds rows " + seqs
            + ", the model sealed " + modelSeqs + " (B4: seal when the bytes reach the target)",
            null);
      }
    }

    /* ---------------------------------------------------------------- the model */

    private void modelSeal(int s) {
      List<ModelRow> rows = open.get(s);
      if (rows.isEmpty() || stopped) {
        return; // B5: an empty shard seals nothing; a stopped stage ships nothing
      }
      ModelChunk chunk = new ModelChunk(s, List.copyOf(rows), openBytes[s]);
      rows.clear();
      openBytes[s] = 0;
      modelBudget += chunk.bytes(); // B5: the budget grows at seal
      if (parked.get(s).isEmpty() && !queuesClosed && queued.get(s).size() < config.capacity()) {
        queued.get(s).addLast(chunk);
      } else {
        parked.get(s).addLast(chunk); // B6/B7: behind the shard's older parked chunks
        parkedOnce = true;
      }
    }

    private void modelDrain() {
      for (int s = 0; s < config.shards(); s++) {
        ArrayDeque<ModelChunk> p = parked.get(s);
        while (!p.isEmpty() && !queuesClosed && queued.get(s).size() < config.capacity()) {
          queued.get(s).addLast(p.pollFirst());
        }
      }
    }

    private void modelClose() {
      if (closed) {
        return;
      }
      closed = true;
      for (int s = 0; s < config.shards(); s++) {
        for (ModelChunk c : parked.get(s)) {
          modelBudget -= c.bytes(); // B13: parked bytes go back to the budget
          c.rows().forEach(r -> mustFail.set(r.batch()));
        }
        parked.get(s).clear();
        open.get(s).forEach(r -> mustFail.set(r.batch()));
        open.get(s).clear();
        openBytes[s] = 0;
      }
    }

    private int modelParked() {
      int n = 0;
      for (ArrayDeque<ModelChunk> p : parked) {
        n += p.size();
      }
      return n;
    }

    private void expectFlow(String call, FlowControl actual) {
      FlowControl expected = modelParked() == 0 ? FlowControl.CONTINUE : FlowControl.BLOCKED;
      if (actual != expected) {
        throw new Violation("(model)", where + ": " + call + "() returned " + actual
            + " with " + modelParked() + " chunk(s) parked in the model, expected " + expected,
            null);
      }
    }

    /* ---------------------------------------------------------------- after every op */

    private void checkBudget() {
      long inflight = budget.inflightBytes();
      if (inflight < 0 || inflight != modelBudget) {
        throw new Violation("(b)", where + ": the budget holds " + inflight + " bytes, the"
            + " chunks sealed and not yet released weigh " + modelBudget + " (queued "
            + describe(queued) + ", parked " + describe(parked) + ")", null);
      }
    }

    private void checkState() {
      checkBudget();
      long parkedBytes = 0;
      for (int s = 0; s < config.shards(); s++) {
        String prefix = where + ": shard " + s + " ";
        if (queues.size(s) != queued.get(s).size()) {
          throw new Violation("(model)", prefix + "has " + queues.size(s)
              + " queued chunk(s), the model " + queued.get(s).size(), null);
        }
        if (stage.parkedChunks(s) != parked.get(s).size()) {
          throw new Violation("(model)", prefix + "has " + stage.parkedChunks(s)
              + " parked chunk(s), the model " + parked.get(s).size(), null);
        }
        if (stage.openRows(s) != open.get(s).size()) {
          throw new Violation("(model)", prefix + "has " + stage.openRows(s)
              + " open row(s), the model " + open.get(s).size(), null);
        }
        for (ModelChunk c : parked.get(s)) {
          parkedBytes += c.bytes();
        }
      }
      if (stage.parkedBytes() != parkedBytes) {
        throw new Violation("(model)", where + ": parkedBytes() " + stage.parkedBytes()
            + ", the model " + parkedBytes, null);
      }
      if (stage.isStopped() != stopped) {
        throw new Violation("(model)", where + ": isStopped() " + stage.isStopped()
            + ", the model " + stopped, null);
      }
    }

    private static String describe(List<ArrayDeque<ModelChunk>> chunks) {
      StringBuilder sb = new StringBuilder("[");
      for (int s = 0; s < chunks.size(); s++) {
        long bytes = 0;
        for (ModelChunk c : chunks.get(s)) {
          bytes += c.bytes();
        }
        sb.append(s == 0 ? "" : ", ").append(chunks.get(s).size()).append(" chunk(s)/")
            .append(bytes).append("b");
      }
      return sb.append("]").toString();
    }

    /* ---------------------------------------------------------------- the end */

    private void finish() {
      stage.close();
      modelClose();
      checkState();
      for (int s = 0; s < config.shards(); s++) {
        work(s, Integer.MAX_VALUE, true, true);
      }
      checkState();
      if (budget.inflightBytes() != 0) {
        throw new Violation("(b)", where + ": the budget holds " + budget.inflightBytes()
            + " bytes after teardown and a full drain, expected exactly 0", null);
      }

      stage.onBatchEnd(Duration.ZERO);
      if (metrics[2] != expectedSkipped) {
        throw new Violation("(d)", where + ": the stage skipped " + metrics[2]
            + " record(s), " + expectedSkipped + " DATA fault(s) were injected under SKIP",
            null);
      }
      if (metrics[0] != expectedSeen || metrics[1] != expectedOut || metrics[3] != expectedErrors) {
        throw new Violation("(model)", where + ": metrics seen/out/errors " + metrics[0] + "/"
            + metrics[1] + "/" + metrics[3] + ", expected " + expectedSeen + "/" + expectedOut
            + "/" + expectedErrors, null);
      }

      List<Long> seqs = new ArrayList<>(taken.keySet());
      Collections.sort(seqs);
      for (long seq : seqs) {
        int batch = taken.get(seq).batch();
        if (!written.contains(seq) && !batches.get(batch).failed()) {
          throw new Violation("(d)", where + ": row " + seq + " of batch " + batch
              + " was taken by the stage, never written, and its batch did not fail:"
              + " silently lost", null);
        }
      }

      for (int b = 0; b < batches.size(); b++) {
        RecordingAck ack = batches.get(b);
        if (ack.holders() != 0) {
          throw new Violation("(e)", where + ": batch " + b + " is still held by "
              + ack.holders() + " holder(s); it would never resolve", null);
        }
        if (ack.failed() != mustFail.get(b)) {
          throw new Violation("(e)", where + ": batch " + b + (ack.failed()
              ? " failed although every row of it was written (" + ack.failure() + ")"
              : " did not fail although some row of it was not written"), null);
        }
      }
      coverage.failedBatches += mustFail.cardinality();
    }

    /** Resolves whatever a failing run left open, so no ack set leaks into other tests. */
    private void cleanUp() {
      IllegalStateException cause = new IllegalStateException("property run cleanup");
      try {
        stage.close();
      } catch (RuntimeException ignored) {
        // the run already failed; this is best effort
      }
      for (int s = 0; s < config.shards(); s++) {
        for (EncodedChunk c : queues.drain(s)) {
          unresolvedByTest.add(c.acks());
        }
      }
      for (AckSet set : unresolvedByTest) {
        if (!set.isResolved()) {
          set.fail(cause);
        }
      }
    }
  }
}
