package dev.handoff.simulator;

import dev.handoff.api.EncodedChunk;
import dev.handoff.core.Chain;
import dev.handoff.core.ChunkPool;
import dev.handoff.core.InflightBudget;
import dev.handoff.core.ShardQueues;
import dev.handoff.core.ack.SourceAcks;
import dev.handoff.core.ack.SourceBatch;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * One process lifetime (epoch) of the simulated pipeline: the real core objects it built and the
 * engine's shadow of what they hold. A restart throws it away and builds the next one from the
 * sources' checkpoints, the only state that survives a process.
 */
final class Life {
  final int epoch;
  final long startTick;
  final boolean faulty;
  final long deadlineTick;

  ShardQueues queues;
  InflightBudget budget;
  /**
   * Lends the stage's chunk arrays, checked: a double or foreign return throws, and returned
   * arrays are poisoned. The budget charges each chunk its whole array.
   */
  ChunkPool pool;
  /** The real shard queues, and the way the workers take chunks from them. */
  QueueView view;
  SimStage stage;
  Chain<SimRow> chain;
  SourceAcks[] acks;
  /** Per source and batch id: the batch as the stage holds it, with the cause it failed with. */
  final ShadowAck[][] shadowAcks;
  /** Per source: the next batch id the source will push. */
  final long[] nextBatch;
  /** Per source: the batch the source has begun and not completed (interleaved pulls). */
  final ShadowAck[] openBatch;
  /** Per source: the next record number of its open batch. */
  final int[] openNext;
  /** Per source: the checkpoint the engine computes from the batches it saw delivered. */
  final long[] expectedCheckpoint;
  /** Per source and batch id: whether the batch resolved as delivered in this lifetime. */
  final boolean[][] deliveredBatch;

  /** Per shard: record ids in the open chunk, in encode order. */
  final IntList[] open;
  /** Per shard: the tick at which the open chunk got its first row. */
  final long[] openSince;
  /** Per shard: record ids of each sealed chunk, by chunk sequence (null once written). */
  final List<List<int[]>> sealedIds;
  /** Per shard: bytes of each sealed chunk's frame, by chunk sequence. */
  final List<List<Integer>> sealedBytes;
  /**
   * Per shard: the bytes of the chunks sealed before each sequence (entry {@code q} is the sum of
   * chunks {@code 0..q-1}), so the bytes of a range of chunks are a difference.
   */
  long[][] sealedBytesBefore;
  /** Per shard: the tick of each sealed chunk's first row, by chunk sequence. */
  final List<List<Long>> sealedFirstTick;
  /** Per shard: the oldest event time of each sealed chunk's rows, by chunk sequence. */
  final List<List<Long>> sealedOldestEvent;
  /** Per shard: the RowBinary bytes of the rows encoded into the open chunk. */
  final long[] openBytes;
  /** Per shard: the oldest event time of the open chunk's rows. */
  final long[] openOldestEvent;
  /** Per shard: chunks taken from the queue by the worker (counted by {@link SimRuntime}). */
  final long[] polled;
  /** Per shard: chunks the engine took out of the queue unwritten (crash, drain deadline). */
  final long[] drained;
  /** Per shard: the sequences of the chunks a worker took from the queue. */
  final java.util.BitSet[] taken;
  /** Chunks the workers took and the engine has not seen settled yet (frame not released). */
  final List<EncodedChunk> inWorker = new ArrayList<>();
  /**
   * Per shard, what the sink answered as written (inserts, rows, bytes) and stored as dead letters
   * (inserts, rows): the expectation for the workers' report.
   */
  final long[][] sinkCounts;
  /** The simulated sink of this lifetime. */
  SimWriter writer;
  /** The workers' listener of this lifetime. */
  SimListener listener;
  /** The runtime the real sink workers run on in this lifetime. */
  SimRuntime runtime;
  /** The real sink workers of this lifetime. */
  dev.handoff.core.sink.SinkWorkers workers;
  /** Whether shutdown of the workers began (a worker may end only after that). */
  boolean shuttingDown;
  /** When the workers' shutdown began, and its deadline, in ticks. */
  long shutdownStart = -1;
  long shutdownDeadline = -1;
  /** What the workers' shutdown reported (null until it returned), and the sink's attempts. */
  dev.handoff.core.sink.WorkersReport workersReport;
  long insertAttempts;
  /** Records the sink rejects for the rest of this lifetime (an injected permanent failure). */
  final java.util.Set<Integer> rejected = new java.util.HashSet<>();
  /** Per shard and source: the last record number written; order must increase. */
  final int[] lastN;

  /** Per source: the first batch id of this lifetime (the checkpoint it started from, plus one). */
  final long[] firstBatch;
  /** Per source: the batches the engine heard resolve in this lifetime, and those delivered. */
  final long[] resolvedBatches;
  final long[] deliveredBatches;
  /** Per source: the ids of the batches the engine heard fail, in order. */
  final List<List<Long>> failedBatches;
  /**
   * Per shard: the chunks a worker took and settled without the sink having written or
   * dead-lettered every one of their rows (abandoned, by the engine's count), and their rows.
   */
  final long[][] abandoned;
  /** Per shard: the tick each chunk was taken by the worker at, by chunk sequence. */
  long[][] takenTick;
  /** The tick the chain began to drain at (source exhausted or teardown), or -1. */
  long drainStartTick = -1;
  /** The latest tick at which the engine saw the budget full, or -1. */
  long budgetLastFull = -1;
  /** The tick since which the budget is full by the engine's count, or -1. */
  long budgetFullSince = -1;
  /** Payloads the sources pushed whole (the driver counts them too). */
  long pulls;
  /** Whether the engine injected a fault that stops the stage (a fatal error). */
  boolean stopInjected;
  /** The driver's next back-off by the engine's count, in ticks. */
  long nextBackoffTicks = 1;
  /** The tick the driver's current step began at. */
  long driverTick;

  /** Bytes of chunks sealed and not yet written or abandoned, by the engine's own count. */
  long expectedBytes;
  long injectedSkips;
  long stageSkipped;
  long stageSeen;
  long stageOut;
  long stageErrors;
  /** Records pushed into the stage, encoded without error, and encode errors injected. */
  long pushedToStage;
  long encodedOk;
  long injectedEncodeErrors;
  int lastParked;
  boolean chainDone;
  long teardownTick = -1;
  /** Per shard: chunks handed to the queue so far, at the moment the stage was stopped. */
  long[] fatalSnapshot;
  volatile boolean dead;

  Life(int epoch, long startTick, boolean faulty, long deadlineTick, int shards, int sources) {
    this.epoch = epoch;
    this.startTick = startTick;
    this.faulty = faulty;
    this.deadlineTick = deadlineTick;
    this.nextBatch = new long[sources];
    this.openBatch = new ShadowAck[sources];
    this.openNext = new int[sources];
    this.expectedCheckpoint = new long[sources];
    this.deliveredBatch = new boolean[sources][];
    this.shadowAcks = new ShadowAck[sources][];
    this.open = new IntList[shards];
    this.openSince = new long[shards];
    this.sealedIds = new ArrayList<>(shards);
    this.sealedBytes = new ArrayList<>(shards);
    this.sealedFirstTick = new ArrayList<>(shards);
    this.sealedBytesBefore = new long[shards][8];
    this.sealedOldestEvent = new ArrayList<>(shards);
    this.openBytes = new long[shards];
    this.openOldestEvent = new long[shards];
    Arrays.fill(openOldestEvent, Long.MAX_VALUE);
    for (int s = 0; s < shards; s++) {
      open[s] = new IntList();
      sealedIds.add(new ArrayList<>());
      sealedBytes.add(new ArrayList<>());
      sealedFirstTick.add(new ArrayList<>());
      sealedOldestEvent.add(new ArrayList<>());
    }
    this.polled = new long[shards];
    this.sinkCounts = new long[shards][5];
    this.drained = new long[shards];
    this.taken = new java.util.BitSet[shards];
    for (int s = 0; s < shards; s++) {
      taken[s] = new java.util.BitSet();
    }
    this.firstBatch = new long[sources];
    this.resolvedBatches = new long[sources];
    this.deliveredBatches = new long[sources];
    this.failedBatches = new ArrayList<>(sources);
    for (int s = 0; s < sources; s++) {
      failedBatches.add(new ArrayList<>());
    }
    this.abandoned = new long[shards][2];
    this.takenTick = new long[shards][8];
    this.lastN = new int[shards * sources];
    Arrays.fill(lastN, -1);
  }

  /** Returns the chunks of {@code shard} handed to its queue so far. */
  /** Notes that shard {@code s} sealed its chunk {@code seq} of {@code bytes}. */
  void sealedBytes(int s, int seq, int bytes) {
    if (seq + 1 >= sealedBytesBefore[s].length) {
      sealedBytesBefore[s] = Arrays.copyOf(sealedBytesBefore[s], 2 * (seq + 1));
    }
    sealedBytesBefore[s][seq + 1] = sealedBytesBefore[s][seq] + bytes;
  }

  /** Notes that shard {@code s}'s worker took chunk {@code seq} at {@code tick}. */
  void takenAt(int s, int seq, long tick) {
    if (seq >= takenTick[s].length) {
      takenTick[s] = Arrays.copyOf(takenTick[s], 2 * (seq + 1));
    }
    takenTick[s][seq] = tick;
  }

  /** Opens source {@code s}'s next batch and returns it as the stage is to hold it. */
  ShadowAck begin(int s) {
    SourceBatch batch = acks[s].begin();
    ShadowAck a = new ShadowAck(batch);
    shadowAcks[s][(int) batch.batchId()] = a;
    return a;
  }

  long arrived(int shard) {
    return polled[shard] + drained[shard] + view.size(shard);
  }
}
