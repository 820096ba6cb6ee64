package dev.handoff.simulator;

import dev.handoff.api.EncodedChunk;
import dev.handoff.api.ErrorPolicy;
import dev.handoff.api.spi.RowEncoder;
import dev.handoff.api.spi.ShardRouter;
import dev.handoff.core.Chain;
import dev.handoff.core.ChunkPool;
import dev.handoff.core.InflightBudget;
import dev.handoff.core.Providers;
import dev.handoff.core.ShardQueues;
import dev.handoff.core.ShardReport;
import dev.handoff.core.ack.SourceAcks;
import dev.handoff.simulator.report.SimulationReport;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * One simulation run: the event loop, the process lifetimes, the simulated sources and sink
 * workers, and the fault injection. Record bookkeeping and the oracles live in {@link Ledger},
 * the driver's step and its checks in {@link SimDriver}, the report's material in {@link
 * RunRecord}; everything runs on the calling thread, in the order the {@link Scheduler} gives.
 */
final class Engine {
  static final int EV_DRIVER = 0;
  static final int EV_START = 3;
  static final int EV_TIMER = 4;
  /** The driver's longest back-off, in ticks. */
  static final long MAX_BACKOFF_TICKS = 16;
  /** The workers' shutdown deadline when no drain deadline follows a teardown, in ticks. */
  static final long SHUTDOWN_TICKS = 10_000;
  /** Why the engine fails what a dead process held. */
  static final dev.handoff.api.HandoffException TORN_DOWN = new dev.handoff.api.HandoffException(
      dev.handoff.api.ErrorClass.TRANSIENT, "simulated process ended before the chunk was written");

  final SimulationOptions o;
  final Rng rng;
  final VirtualClock clock = new VirtualClock();
  final Scheduler sched = new Scheduler();
  final EventLog log = new EventLog();
  final OracleBook book = new OracleBook();
  final Workload w;
  final Ledger ledger;
  final StageChecks stageChecks;
  final SeriesRecorder series;
  final SimSources feed = new SimSources(this);
  final EncodeShadow shadow = new EncodeShadow(this);
  final Gauges gauges = new Gauges(this);

  final int shards;
  final int sources;
  final int capacity;
  final int target;
  final long budgetLimit;
  final ErrorPolicy policy;
  final double recordErrorRate;
  final double fatalEncodeRate;
  final double fatalFinishRate;
  final double stallRate;
  final double transientRate;
  final double permanentRate;
  final double restartRate;
  final double timeoutRate;
  final double stuckRate;
  final double deadLetterErrorRate;
  final double splitRefuseRate;
  /** Poison pills refused by the sink (dead-lettered); else by the encoder (skipped). */
  final boolean sinkPoison;
  final boolean encodePoison;
  final boolean rowBinary;
  /** The encoder is ClickHouse Native: a chunk is one block, its size known from its rows. */
  final boolean nativeFormat;
  final long maxInsertBytes;
  final int maxInsertRows;
  final long lingerTicks;
  final long pollTicks;
  final long graceTicks;
  final int retryAttempts;
  final long retryBackoffTicks;
  /** The retry policy's maxElapsed, in ticks. */
  final long retryMaxElapsedTicks;
  final dev.handoff.core.sink.PermanentPolicy onPermanent;
  private int untilConcurrentRun = 1;
  final double sourceErrorRate;
  final double routerErrorRate;
  final int interleave;
  final int batchRecords;
  final int stallTicks;
  final int writeTicks;
  final int faultEpochs;
  final long teardownAt;
  final long drainDeadline;
  final Mutation mutation;
  /** The stage's maximum chunk age, in ticks. */
  final long maxAgeTicks;
  final RowEncoder<SimRow> template;
  final ShardRouter router;
  private final ShardRouter routerFound;
  private final long faultyBound;
  private final long quietBound;
  private final long maxEvents;

  final RunRecord record;
  final SimDriver driver = new SimDriver(this);
  Life cur;
  int lastRoutedShard;
  /** Whether the router was asked since the last row was encoded (a stage of one shard never asks). */
  boolean routed;
  private boolean finished;

  /**
   * The providers found by name, looked up once per JVM: a {@code ServiceLoader} scan per seed
   * cost a tenth of a sweep. Providers are factories; each run creates its own encoder and router.
   */
  private static final java.util.concurrent.ConcurrentHashMap<String,
      dev.handoff.api.spi.RowEncoderProvider> ENCODERS = new java.util.concurrent.ConcurrentHashMap<>();
  private static final java.util.concurrent.ConcurrentHashMap<String,
      dev.handoff.api.spi.ShardRouterProvider> ROUTERS = new java.util.concurrent.ConcurrentHashMap<>();

  private static dev.handoff.api.spi.ShardRouterProvider routerProvider(String name) {
    return ROUTERS.computeIfAbsent(name, n -> {
      Providers.router(n); // the lookup's clear error when no provider is called so
      for (dev.handoff.api.spi.ShardRouterProvider p
          : java.util.ServiceLoader.load(dev.handoff.api.spi.ShardRouterProvider.class)) {
        if (p.name().equals(n)) {
          return p;
        }
      }
      throw new IllegalArgumentException("no shard router called " + n);
    });
  }

  Engine(SimulationOptions options, boolean withSeries) {
    this.o = options;
    this.rng = Rng.derive(options.seed(), 7);
    this.shards = options.intValue(KnobSpec.SHARDS);
    this.sources = options.intValue(KnobSpec.SOURCES);
    this.capacity = options.intValue(KnobSpec.QUEUE_CAPACITY);
    this.target = options.intValue(KnobSpec.TARGET_BYTES);
    this.budgetLimit = options.longOrNone(KnobSpec.BUDGET_BYTES, Long.MAX_VALUE);
    this.policy = options.value(KnobSpec.ERROR_POLICY).equals("fail") ? ErrorPolicy.FAIL
        : ErrorPolicy.SKIP;
    this.recordErrorRate = options.rate(KnobSpec.RECORD_ERROR_RATE);
    this.fatalEncodeRate = options.rate(KnobSpec.FATAL_ENCODE_RATE);
    this.fatalFinishRate = options.rate(KnobSpec.FATAL_FINISH_RATE);
    this.stallRate = options.rate(KnobSpec.STALL_RATE);
    this.transientRate = options.rate(KnobSpec.SINK_TRANSIENT_RATE);
    this.permanentRate = options.rate(KnobSpec.SINK_PERMANENT_RATE);
    this.restartRate = options.rate(KnobSpec.RESTART_RATE);
    this.timeoutRate = options.rate(KnobSpec.SINK_TIMEOUT_RATE);
    this.stuckRate = options.rate(KnobSpec.STUCK_RATE);
    this.deadLetterErrorRate = options.rate(KnobSpec.DEAD_LETTER_ERROR_RATE);
    this.splitRefuseRate = options.rate(KnobSpec.SPLIT_REFUSE_RATE);
    double poisonRate = options.rate(KnobSpec.POISON_RATE);
    this.encodePoison = poisonRate > 0 && policy == ErrorPolicy.SKIP;
    this.sinkPoison = poisonRate > 0 && !encodePoison;
    this.rowBinary = options.value(KnobSpec.ENCODER).equals("rowbinary");
    this.nativeFormat = options.value(KnobSpec.ENCODER).equals("native");
    this.maxInsertBytes = options.longValue(KnobSpec.MAX_INSERT_BYTES);
    this.maxInsertRows = options.intValue(KnobSpec.MAX_INSERT_ROWS);
    this.lingerTicks = options.longValue(KnobSpec.LINGER_TICKS);
    this.pollTicks = options.longValue(KnobSpec.POLL_TICKS);
    this.graceTicks = options.longValue(KnobSpec.GRACE_TICKS);
    this.retryAttempts = options.intValue(KnobSpec.RETRY_ATTEMPTS);
    this.retryBackoffTicks = options.longValue(KnobSpec.RETRY_BACKOFF_TICKS);
    this.retryMaxElapsedTicks = options.longOrNone(KnobSpec.RETRY_MAX_ELAPSED_TICKS,
        retryBackoffTicks * 64L * retryAttempts);
    this.onPermanent = options.value(KnobSpec.ON_PERMANENT).equals("fail-acks")
        ? dev.handoff.core.sink.PermanentPolicy.FAIL_ACKS
        : dev.handoff.core.sink.PermanentPolicy.DEAD_LETTER;
    this.sourceErrorRate = options.rate(KnobSpec.SOURCE_ERROR_RATE);
    this.routerErrorRate = options.rate(KnobSpec.ROUTER_ERROR_RATE);
    this.interleave = options.intValue(KnobSpec.INTERLEAVE);
    this.batchRecords = options.intValue(KnobSpec.BATCH_RECORDS);
    this.stallTicks = options.intValue(KnobSpec.STALL_TICKS);
    this.writeTicks = options.intValue(KnobSpec.WRITE_TICKS);
    this.faultEpochs = options.intValue(KnobSpec.FAULT_EPOCHS);
    this.teardownAt = options.longOrNone(KnobSpec.TEARDOWN_AT, -1);
    this.drainDeadline = options.longOrNone(KnobSpec.DRAIN_DEADLINE, -1);
    this.mutation = options.mutation();
    this.maxAgeTicks = options.intValue(KnobSpec.MAX_CHUNK_AGE);
    int records = options.intValue(KnobSpec.RECORDS);
    this.w = new Workload(options.seed(), records, sources,
        options.intValue(KnobSpec.BATCH_RECORDS), options.intValue(KnobSpec.KEYS),
        options.intValue(KnobSpec.ROW_PAD), poisonRate);
    this.ledger = new Ledger(this);
    this.stageChecks = new StageChecks(this);
    this.series = withSeries ? new SeriesRecorder(shards, sources) : null;
    this.record = new RunRecord(this);
    RowEncoder<SimRow> found = ENCODERS.computeIfAbsent(options.value(KnobSpec.ENCODER),
        Providers::encoder).create(SimRow.SCHEMA, SimRow.ACCESSOR, Map.of());
    this.template = new SimEncoder(this, found);
    this.routerFound = routerProvider(options.value(KnobSpec.ROUTER)).create();
    this.router = (key, eventTime, n) -> {
      Life l = cur;
      if (l.faulty && rng.chance(routerErrorRate)) {
        boolean throwIt = rng.nextInt(2) == 0;
        fault(Faults.ROUTER_ERROR, throwIt ? "router threw" : "shard " + n + " of " + n);
        stopping(l);
        if (throwIt) {
          throw new IllegalStateException("injected: the router broke");
        }
        return n; // one past the last shard
      }
      routed = true;
      return lastRoutedShard = routerFound.route(key, eventTime, n);
    };
    // Liveness bounds: generous multiples of the work left (every record written one chunk of
    // one row at a time, plus retries and stalls), in ticks.
    // A parked chunk moves only when the driver calls relieve(), at most once per back-off (up
    // to MAX_BACKOFF_TICKS), and then only as many chunks as the queue has room for.
    // A worker adds its linger per insert (a poll ends when a chunk arrives), a lifetime a poll
    // interval, and a shutdown its deadline and two grace periods; a failed write costs at most
    // the retry policy's elapsed time.
    long perRecord = writeTicks + 2L + lingerTicks + (MAX_BACKOFF_TICKS + capacity - 1) / capacity;
    long retryElapsed = retryBackoffTicks * 64L * retryAttempts;
    this.quietBound = 5_000 + pollTicks + 2 * graceTicks + 4L * records * perRecord;
    double failRate = transientRate + permanentRate + options.rate(KnobSpec.SINK_TIMEOUT_RATE);
    this.faultyBound = quietBound + SHUTDOWN_TICKS + 8L * records
        * (long) Math.ceil(stallRate * stallTicks + 1) * perRecord
        + (long) Math.ceil(4 * records * failRate) * retryElapsed;
    this.maxEvents = 1_000_000L + 200L * records;
  }

  boolean faultsOn() {
    return cur.faulty;
  }

  /* ------------------------------------------------------------------ the loop */

  SimulationReport run() {
    long wallStart = WallClock.nanoTime();
    ledger.simThread = Thread.currentThread();
    sched.schedule(0, EV_START, -1, 0);
    while (!finished && !book.anyFailed()) {
      SimRuntime threads = cur == null ? null : cur.runtime;
      if (threads != null && threads.nextWake() != Long.MAX_VALUE
          && (sched.isEmpty() || threads.nextWake() <= sched.peekTime())) {
        book.event = log.count();
        threads.runNext();
        continue;
      }
      if (sched.isEmpty()) {
        book.fail(OracleBook.LIVENESS, "nothing left to run at t=" + clock.tick
            + " but the sources are not all committed");
        break;
      }
      sched.pop();
      book.checks[OracleBook.NO_EXCEPTION]++;
      if (sched.popKind != EV_START && (cur == null || sched.popEpoch != cur.epoch)) {
        continue; // an event of a process that is gone
      }
      clock.tick = Math.max(clock.tick, sched.popTime);
      book.event = log.count();
      try {
        switch (sched.popKind) {
          case EV_START: startLife(); break;
          case EV_DRIVER: driver.step(); break;
          default: timer(); break;
        }
      } catch (RuntimeException e) {
        book.fail(OracleBook.NO_EXCEPTION, "event threw " + e);
        break;
      }
      if (!finished) {
        ledger.afterEvent(cur);
      }
      if (series != null && series.due(clock.tick) && cur != null) {
        record.sample(cur);
      }
      if (log.count() > maxEvents) {
        book.fail(OracleBook.LIVENESS, "more than " + maxEvents + " events without finishing");
      }
    }
    if (cur != null && cur.runtime != null) {
      cur.runtime.killAll(); // a run an oracle stopped leaves no worker behind
    }
    if (finished) {
      ledger.atEnd();
    }
    long wall = Math.max(1, WallClock.nanoTime() - wallStart);
    return record.report(cur, wall);
  }

  /** After a worker ran until it waited again (or ended): what the engine checks then. */
  void workerRan(SimRuntime.W w) {
    Life l = cur;
    ledger.settledChunks(l);
    book.checks[OracleBook.NO_EXCEPTION]++;
    if (w.ended && !w.killed && !l.shuttingDown) {
      book.fail(OracleBook.NO_EXCEPTION, "the sink worker of shard " + w.shard + " ended"
          + " before shutdown" + (w.died != null ? ": " + w.died : ""));
    }
    if (w.died != null) {
      book.fail(OracleBook.NO_EXCEPTION, "the sink worker of shard " + w.shard + " threw "
          + w.died);
    }
    if (l.dead) {
      return;
    }
    if (driver.inStep) {
      stageChecks.checkBudget(l); // the stage's other books settle at the end of the payload
    } else {
      ledger.afterWorker(l);
    }
  }

  /**
   * Called after each record a payload pushes: the workers run concurrently with the pipeline
   * thread, so every few records (drawn from the seed) the workers whose queues got a chunk, and
   * any other worker due now, run in the middle of the payload.
   */
  void afterRecord(Life l) {
    if (--untilConcurrentRun == 0) {
      untilConcurrentRun = 1 + rng.nextInt(32);
      l.runtime.wakePollers();
      l.runtime.runDue(clock.tick);
    }
  }

  /* ------------------------------------------------------------------ process lifetimes */

  private void startLife() {
    int epoch = cur == null ? 0 : cur.epoch + 1;
    boolean faulty = epoch < faultEpochs;
    long bound = faulty ? faultyBound : quietBound;
    Life l = new Life(epoch, clock.tick, faulty, clock.tick + bound, shards, sources);
    cur = l;
    l.queues = new ShardQueues(shards, capacity);
    l.budget = budgetLimit == Long.MAX_VALUE ? InflightBudget.unlimited()
        : new InflightBudget(budgetLimit);
    l.pool = ChunkPool.checked(ChunkPool.arrayLengthFor(target), 64);
    l.view = QueueView.of(mutation, l.queues);
    StageVariants variants = new StageVariants(mutation);
    l.stage = variants.stage(this, l);
    l.acks = new SourceAcks[sources];
    for (int s = 0; s < sources; s++) {
      long cp = ledger.checkpoint[s];
      l.acks[s] = new SourceAcks("source-" + s, cp + 1,
          variants.checkpoints(ledger.listener(l, s), cp));
      l.nextBatch[s] = cp + 1;
      l.firstBatch[s] = cp + 1;
      l.expectedCheckpoint[s] = cp;
      l.deliveredBatch[s] = new boolean[w.batches(s)];
      l.shadowAcks[s] = new ShadowAck[w.batches(s)];
    }
    l.chain = Chain.builder(feed.source(), l.stage)
        .clock(clock)
        .backoff(Duration.ofMillis(1), Duration.ofMillis(MAX_BACKOFF_TICKS))
        .drainTimeout(Duration.ofMillis(faulty && drainDeadline >= 0 ? drainDeadline : 1L << 40))
        .build();
    SimWorkers.start(this, l);
    log.add(clock.tick, epoch, EventLog.EPOCH_START, -1, faulty ? 1 : 0, 0);
    sched.schedule(clock.tick, EV_DRIVER, -1, epoch);
    sched.schedule(clock.tick + 1, EV_TIMER, -1, epoch);
  }

  /**
   * The timer, every tick while the driver runs: seals the open chunks that reached the maximum
   * chunk age, as the ClickHouse sink facade's timer thread does (B15).
   */
  private void timer() {
    Life l = cur;
    if (l.chainDone) {
      return;
    }
    // The chunks due: open, with a first row at least the maximum age old (the engine's ticks).
    int due = 0;
    if (!l.stopInjected) {
      for (int sh = 0; sh < shards; sh++) {
        if (l.open[sh].size() > 0 && clock.tick - l.openSince[sh] >= maxAgeTicks) {
          due++;
        }
      }
    }
    int sealed = l.stage.sealAged();
    book.checks[OracleBook.MAX_CHUNK_AGE]++;
    if (sealed != due) {
      book.fail(OracleBook.MAX_CHUNK_AGE, "the timer's sealAged() at t=" + clock.tick + " says it"
          + " sealed " + sealed + " chunk(s); " + due + " open chunk(s) had reached the maximum"
          + " age of " + maxAgeTicks + " ticks");
    }
    if (sealed > 0) {
      log.add(clock.tick, l.epoch, EventLog.AGED, -1, sealed, 0);
      l.runtime.wakePollers();
    }
    sched.schedule(clock.tick + 1, EV_TIMER, -1, l.epoch);
  }

  /** Ends the current lifetime: checks it left nothing behind, then restarts or finishes. */
  void endLife(String why) {
    Life l = cur;
    l.runtime.killAll(); // a stuck writer unwinds now: its frames go back to the pool
    ledger.settledChunks(l);
    feed.closeOpenBatches(l, TORN_DOWN); // the process's sources go away too
    ledger.lifeEnded(l);
    l.dead = true;
    record.lifeEnded(l, why.equals("crash") ? "crashed" : "shut down");
    log.add(clock.tick, l.epoch, EventLog.EPOCH_END, -1, 0, 0);
    if (ledger.allCommitted()) {
      finished = true;
    } else {
      sched.schedule(clock.tick + 1, EV_START, -1, l.epoch + 1);
    }
  }

  /** A crash: the process and everything in memory is gone; only checkpoints survive. */
  void crash() {
    Life l = cur;
    fault(Faults.RESTART, "epoch " + l.epoch);
    log.add(clock.tick, l.epoch, EventLog.CRASH, -1, 0, 0);
    // The dead process's workers stop where they are (what they held fails as after an Error);
    // what its queues held never reaches the sink: resolve it so the books balance.
    l.runtime.killAll();
    ledger.settledChunks(l);
    for (int s = 0; s < shards; s++) {
      for (EncodedChunk c : l.view.drain(s)) {
        l.drained[s]++;
        l.expectedBytes -= charged(l.sealedBytes.get(s).get((int) c.sequence()));
        try {
          l.budget.release(c.chargedBytes());
          c.frame().release();
        } catch (IllegalStateException ex) {
          book.fail(OracleBook.BUDGET_EXACT, ex.getMessage());
        }
        c.acks().fail(TORN_DOWN);
      }
    }
    if (!l.chainDone) {
      l.stage.close();
      stageClosed(l);
      l.chainDone = true;
    }
    endLife("crash");
  }

  void stageClosed(Life l) {
    stageChecks.checkShardReports(l, l.stage.shardReports());
    stageChecks.checkCounters(l); // the last payload's flush too: no event check follows
    gauges.checkClosed(l);
    // What teardown returned to the budget, from the engine's own record: every chunk sealed
    // and never handed to a queue, each charged its array.
    long abandoned = 0;
    for (int s = 0; s < l.sealedBytes.size(); s++) {
      List<Integer> bytes = l.sealedBytes.get(s);
      for (long seq = l.arrived(s); seq < bytes.size(); seq++) {
        abandoned += charged(bytes.get((int) seq));
      }
    }
    l.expectedBytes -= abandoned;
  }

  /**
   * What a sealed chunk of {@code bytes} weighs in the budget: the pool's whole array, since
   * simulated rows are far smaller than the array's headroom above the target (a chunk of more
   * would have grown out of the pool and weigh its own array, which the engine does not model).
   */
  long charged(int bytes) {
    int array = ChunkPool.arrayLengthFor(target);
    return bytes <= array ? array : bytes;
  }

  /* ------------------------------------------------------------------ encoder faults */

  void beforeEncode(SimRow row) {
    Life l = cur;
    if (!l.faulty) {
      return;
    }
    if (rng.chance(fatalEncodeRate)) {
      fault(Faults.FATAL_ENCODE, row.toString());
      l.injectedEncodeErrors++;
      stopping(l);
      // Half of them as an encoder bug: an exception that is not a HandoffException (B10).
      throw rng.nextInt(2) == 0 ? SimEncoder.fatal("FATAL while encoding " + row)
          : new IllegalStateException("injected: encoder bug while encoding " + row);
    }
    if (rng.chance(recordErrorRate)) {
      // The row carries a value its column cannot hold; the real encoder must refuse it.
      row.poisoned = true;
      l.injectedEncodeErrors++;
      if (policy == ErrorPolicy.SKIP) {
        fault(Faults.RECORD_ERROR_SKIP, row.toString());
        l.injectedSkips++;
        ledger.skipped(l, row.id);
      } else {
        fault(Faults.RECORD_ERROR_FAIL, row.toString());
        stopping(l);
      }
    }
  }

  void beforeFinish(int shard) {
    Life l = cur;
    if (l.faulty && rng.chance(fatalFinishRate)) {
      fault(Faults.FATAL_FINISH, "shard " + shard);
      stopping(l);
      throw rng.nextInt(2) == 0 ? SimEncoder.fatal("FATAL in finishChunk of shard " + shard)
          : new IllegalStateException("injected: encoder bug in finishChunk of shard " + shard);
    }
  }

  /** The stage is about to stop: remember how many chunks each queue got until now. */
  void stopping(Life l) {
    l.stopInjected = true;
    if (l.fatalSnapshot == null) {
      l.fatalSnapshot = new long[shards];
      for (int s = 0; s < shards; s++) {
        l.fatalSnapshot[s] = l.arrived(s);
      }
    }
  }

  /* ------------------------------------------------------------------ reporting */

  void fault(String name, String detail) {
    record.fault(name, detail);
  }
}
