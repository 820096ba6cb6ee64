package dev.handoff.simulator;

import dev.handoff.api.EncodedChunk;
import dev.handoff.api.ErrorClass;
import dev.handoff.api.HandoffException;

/**
 * The simulated sink workers, one per shard: they take chunks from the real {@code ShardQueues},
 * write them to the in-memory table (through {@link Ledger}), release their bytes from the real
 * budget and resolve their acks, and suffer the sink faults (stalls, transient and permanent
 * write failures, the drain deadline after a teardown).
 */
final class SinkWorkers {
  static final HandoffException TORN_DOWN = new HandoffException(ErrorClass.TRANSIENT,
      "simulated process ended before the chunk was written");

  private final Engine e;
  private int untilConcurrentTake = 1;

  SinkWorkers(Engine engine) {
    this.e = engine;
  }

  /** Called after each record a payload pushes; now and then a free worker takes a chunk. */
  void afterRecord(Life l) {
    if (--untilConcurrentTake == 0) {
      concurrentTake(l);
    }
  }

  /**
   * Sink workers run concurrently with the pipeline thread: while a payload is being pushed, a
   * free worker may take a chunk from its queue. Every few records one worker (drawn from the
   * seed) gets that chance, so a queue can gain room while its shard has parked chunks, the
   * interleaving that exposes a chunk overtaking parked ones. A worker that was waiting for work
   * goes further and writes the chunk at once: its chunk's bytes leave the budget and its acks
   * resolve while the source still holds the batch it is pushing.
   */
  void concurrentTake(Life l) {
    untilConcurrentTake = 1 + e.rng.nextInt(32);
    int s = e.rng.nextInt(e.shards);
    if (l.holding[s] != null || e.clock.tick < l.stalledUntil[s] || l.view.size(s) == 0) {
      return;
    }
    if (l.idle[s]) {
      l.idle[s] = false;
      worker(s); // the waiting worker's poll returns now, in the middle of the payload
      return;
    }
    EncodedChunk c = l.view.poll(s);
    l.polled[s]++;
    l.holding[s] = c;
    e.log.add(e.clock.tick, l.epoch, EventLog.TOOK, s, c.sequence(), c.rows());
    if (l.idle[s]) {
      l.idle[s] = false;
      e.sched.schedule(e.clock.tick + e.writeTicks, Engine.EV_WORKER, s, l.epoch);
    }
  }


  void worker(int s) {
    Life l = e.cur;
    EncodedChunk c = l.holding[s];
    if (c == null) {
      if (l.faulty && l.view.size(s) > 0 && e.rng.chance(e.stallRate)) {
        int d = 1 + e.rng.nextInt(e.stallTicks);
        l.stalledUntil[s] = e.clock.tick + d;
        e.fault(Faults.QUEUE_STALL, "shard " + s + ", " + d + " ticks");
        e.log.add(e.clock.tick, l.epoch, EventLog.STALL, s, d, 0);
        e.sched.schedule(e.clock.tick + d, Engine.EV_WORKER, s, l.epoch);
        return;
      }
      c = l.view.poll(s);
      if (c == null) {
        l.idle[s] = true;
        e.log.add(e.clock.tick, l.epoch, EventLog.IDLE, s, 0, 0);
        return;
      }
      l.polled[s]++;
      l.holding[s] = c;
    }
    if (l.faulty && e.rng.chance(e.permanentRate)) {
      e.fault(Faults.SINK_PERMANENT, "shard " + s + " chunk " + c.sequence());
      e.log.add(e.clock.tick, l.epoch, EventLog.ABANDONED, s, c.sequence(), c.rows());
      abandon(l, s, c, true);
    } else if (l.faulty && e.rng.chance(e.transientRate)) {
      e.fault(Faults.SINK_TRANSIENT, "shard " + s + " chunk " + c.sequence());
      e.log.add(e.clock.tick, l.epoch, EventLog.TRANSIENT, s, c.sequence(), c.rows());
      long retryAt = e.clock.tick + e.writeTicks + 1 + e.rng.nextInt(4);
      e.sched.schedule(retryAt, Engine.EV_WORKER, s, l.epoch);
      return;
    } else {
      e.log.add(e.clock.tick, l.epoch, EventLog.WROTE, s, c.sequence(), c.rows());
      e.ledger.write(l, s, c);
      l.holding[s] = null;
      release(l, c);
      try {
        c.acks().succeed();
      } catch (IllegalStateException ex) {
        e.book.fail(OracleBook.ACKS_RESOLVED,
            "shard " + s + " chunk " + c.sequence() + ": " + ex);
      }
    }
    e.sched.schedule(e.clock.tick + e.writeTicks, Engine.EV_WORKER, s, l.epoch);
  }

  /** Gives a chunk up: its bytes leave the budget and its batches fail (they replay). */
  void abandon(Life l, int s, EncodedChunk c, boolean byWorker) {
    l.holding[s] = null;
    e.ledger.dropShadow(l, s, c);
    if (byWorker && e.mutation == Mutation.ABANDON_KEEPS_BUDGET) {
      l.expectedBytes -= e.charged(c.sizeBytes()); // the broken worker forgets the release
    } else {
      release(l, c);
    }
    try {
      c.acks().fail(TORN_DOWN);
    } catch (IllegalStateException ex) {
      e.book.fail(OracleBook.ACKS_RESOLVED,
          "shard " + s + " chunk " + c.sequence() + ": " + ex);
    }
  }

  private void release(Life l, EncodedChunk c) {
    l.expectedBytes -= e.charged(c.sizeBytes());
    try {
      l.budget.release(c.chargedBytes());
      if (e.mutation != Mutation.LEAK_ARRAY) {
        c.frame().release(); // the array goes back to the checked pool: a second return throws
      }
    } catch (IllegalStateException ex) {
      e.book.fail(OracleBook.BUDGET_EXACT, ex.getMessage());
    }
  }

  /** The drain deadline after a teardown passed: what the workers did not write is abandoned. */
  void deadline() {
    Life l = e.cur;
    if (!l.chainDone) {
      e.sched.schedule(e.clock.tick + 1, Engine.EV_DEADLINE, -1, l.epoch);
      return;
    }
    int abandoned = 0;
    for (int s = 0; s < e.shards; s++) {
      if (l.holding[s] != null) {
        abandon(l, s, l.holding[s], false);
        abandoned++;
      }
      for (EncodedChunk c : l.view.drain(s)) {
        l.drained[s]++;
        abandon(l, s, c, false);
        abandoned++;
      }
    }
    if (abandoned > 0) {
      e.fault(Faults.DRAIN_DEADLINE, abandoned + " chunk(s) abandoned");
    }
    e.log.add(e.clock.tick, l.epoch, EventLog.DEADLINE, -1, abandoned, 0);
    e.endLife("drain deadline");
  }

}
