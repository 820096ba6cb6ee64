package dev.handoff.simulator;

import dev.handoff.api.Frame;
import dev.handoff.api.spi.Insert;
import dev.handoff.api.spi.InsertWriter;
import dev.handoff.api.spi.WriteException;
import dev.handoff.core.sink.DeadLetters;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The simulated sink the real workers write to: it decodes every frame row by row (through {@link
 * Ledger#decode}), and the seed decides each attempt's fate: slow, stuck until the process dies,
 * failed transiently before or after the server wrote the rows (a timeout after the write makes
 * the retry a duplicate), failed permanently, or written. Rows of a poison pill fail every insert
 * that holds them, in every lifetime. Now and then a permanent answer is followed by an outage:
 * the sink refuses every write of that shard transiently until the worker gives the insert up, so
 * that isolation stops with chunks unsettled. It also splits frames for isolation (row by row, or
 * now and then into two or three parts of whole rows spread evenly, or, as a broken writer would,
 * into a part as long as the frame) and keeps the dead letters, whose writes the seed may fail.
 */
final class SimWriter implements InsertWriter, DeadLetters {
  private final Engine e;
  private final Life l;
  private final SimRuntime runtime;
  /** Per shard: the insert last answered with a permanent failure. */
  private final Insert[] lastPermanent;
  /** Per shard: the insert last tried, and how many times in a row the sink saw it. */
  private final Insert[] lastTried;
  private final int[] triedInARow;
  /** Per shard: the highest chunk sequence any insert held so far (-1: none). */
  private final long[] maxSequence;
  /** Per shard: the tick of the latest first attempt at an insert of new chunks. */
  private final long[] lastFreshTick;
  /** Per shard: the insert whose write hangs, or null. */
  final Insert[] stuckInsert;
  /** Per shard: the tick the latest attempt started at. */
  final long[] attemptTick;
  /** Per shard: the tick the current insert's first attempt started at. */
  final long[] firstAttemptTick;
  /**
   * Per shard: the attempt number of the last answer, when it was a transient failure the worker
   * may retry (not yet followed by a retry); else 0.
   */
  final int[] pendingTransient;
  /** Per shard: the transient failure the sink answered last (what a give-up must fail with). */
  final Exception[] lastTransient;
  /** Per shard: the sink refuses every write transiently until the worker gives the insert up. */
  final boolean[] outage;
  /**
   * Per shard: the dead letters the sink failed to store since the worker last announced
   * abandoned chunks (all of one chunk: isolation settles each chunk before the next one's parts).
   */
  final List<List<Exception>> lostDeadLetters;

  SimWriter(Engine engine, Life life, SimRuntime runtime) {
    this.e = engine;
    this.l = life;
    this.runtime = runtime;
    this.lastPermanent = new Insert[engine.shards];
    this.lastTried = new Insert[engine.shards];
    this.triedInARow = new int[engine.shards];
    this.firstAttemptTick = new long[engine.shards];
    this.attemptTick = new long[engine.shards];
    this.stuckInsert = new Insert[engine.shards];
    this.maxSequence = new long[engine.shards];
    java.util.Arrays.fill(maxSequence, -1);
    this.lastFreshTick = new long[engine.shards];
    java.util.Arrays.fill(lastFreshTick, -1);
    this.pendingTransient = new int[engine.shards];
    this.lastTransient = new Exception[engine.shards];
    this.outage = new boolean[engine.shards];
    this.lostDeadLetters = new ArrayList<>(engine.shards);
    for (int s = 0; s < engine.shards; s++) {
      lostDeadLetters.add(new ArrayList<>(2));
    }
  }

  /**
   * A permanent failure is never retried (the next attempt at the same insert would be its
   * second), and past shutdown's deadline plus one poll interval no new attempt starts.
   */
  private void checkAttemptAllowed(Insert insert) {
    Insert p = lastPermanent[insert.shard()];
    e.book.checks[OracleBook.INSERT_LIMITS]++;
    if (p != null && insert.attempt() > 1 && p.firstSequence() == insert.firstSequence()
        && p.lastSequence() == insert.lastSequence() && p.bytes() == insert.bytes()) {
      e.book.fail(OracleBook.INSERT_LIMITS, "shard " + insert.shard() + " retried chunks "
          + insert.firstSequence() + ".." + insert.lastSequence() + " (attempt "
          + insert.attempt() + ") after the sink failed them permanently");
    }
    lastPermanent[insert.shard()] = null;
    // A transient answer (a RuntimeException from the writer included) is retried or gives the
    // insert up (the listener hears either, which clears it); the worker never just moves on.
    if (pendingTransient[insert.shard()] > 0 && !l.shuttingDown) {
      e.book.fail(OracleBook.INSERT_LIMITS, "shard " + insert.shard() + " went on to chunks "
          + insert.firstSequence() + ".." + insert.lastSequence() + " (attempt "
          + insert.attempt() + ") after a transient failure of attempt "
          + pendingTransient[insert.shard()] + " that it neither retried nor gave up");
    }
    if (insert.attempt() > 1 && e.clock.tick < l.listener.nextAttemptAt[insert.shard()]) {
      e.book.fail(OracleBook.INSERT_LIMITS, "shard " + insert.shard() + " started attempt "
          + insert.attempt() + " of chunks " + insert.firstSequence() + ".."
          + insert.lastSequence() + " at t=" + e.clock.tick + ", before its backoff ended (t="
          + l.listener.nextAttemptAt[insert.shard()] + ")");
    }
    if (l.shuttingDown) {
      long latest = l.shutdownStart + l.shutdownDeadline + e.pollTicks;
      e.book.checks[OracleBook.DRAIN_BOUNDED]++;
      if (e.clock.tick > latest) {
        e.book.fail(OracleBook.DRAIN_BOUNDED, "shard " + insert.shard() + " started a write of"
            + " chunks " + insert.firstSequence() + ".." + insert.lastSequence() + " at t="
            + e.clock.tick + ", after shutdown's deadline and one poll interval (t=" + latest
            + ")");
      }
    }
  }

  @Override
  public void write(Insert insert) throws WriteException {
    e.ledger.attempted(l, insert);
    int[] rows = e.ledger.decode(l, insert); // checks every row against the shadow
    checkLimits(insert);
    checkAttemptAllowed(insert);
    checkMerge(insert);
    pendingTransient[insert.shard()] = 0;
    attemptTick[insert.shard()] = e.clock.tick;
    Rng rng = e.rng;
    boolean faulty = l.faulty;
    // A writer hangs only once shutdown began: that is what the grace periods are for (a writer
    // that hangs in a running process hangs it in production too).
    if (faulty && l.shuttingDown && rng.chance(e.stuckRate) && !runtime.anyStuck()) {
      e.fault(Faults.WRITER_STUCK, "shard " + insert.shard() + " " + seqs(insert));
      e.log.add(e.clock.tick, l.epoch, EventLog.STUCK, insert.shard(), insert.firstSequence(),
          rows.length);
      stuckInsert[insert.shard()] = insert;
      runtime.write(-1); // answered only as the process ends, after shutdown gave up on it
      throw new WriteException(WriteException.Kind.TRANSIENT, -1,
          "injected: the write hung until its socket timed out", null);
    }
    long ticks = e.writeTicks;
    if (faulty && rng.chance(e.stallRate)) {
      ticks += 1 + rng.nextInt(e.stallTicks);
      e.fault(Faults.SLOW_WRITE, "shard " + insert.shard() + ", " + ticks + " ticks");
    }
    runtime.write(ticks); // the worker reads the answer decided here once the ticks passed
    if (Thread.currentThread().isInterrupted()) {
      // An HTTP client interrupted before the request: nothing written, the flag stays.
      throw new WriteException(WriteException.Kind.TRANSIENT, -1, "interrupted", null);
    }
    if (outage[insert.shard()]) {
      e.fault(Faults.SINK_TRANSIENT, "shard " + insert.shard() + " " + seqs(insert) + " (outage)");
      e.log.add(e.clock.tick, l.epoch, EventLog.TRANSIENT, insert.shard(),
          insert.firstSequence(), rows.length);
      throw transientAnswer(insert.shard(), new WriteException(WriteException.Kind.TRANSIENT, 210,
          "injected: the sink is down", null));
    }
    for (int id : rows) {
      if (l.rejected.contains(id)) {
        lastPermanent[insert.shard()] = insert;
        outageAfter(insert);
        throw new WriteException(WriteException.Kind.PERMANENT, 27,
            "record " + id + " was rejected in this lifetime", null);
      }
      if (e.w.poison[id] && e.sinkPoison) {
        lastPermanent[insert.shard()] = insert;
        outageAfter(insert);
        e.log.add(e.clock.tick, l.epoch, EventLog.PERMANENT, insert.shard(),
            insert.firstSequence(), rows.length);
        throw new WriteException(WriteException.Kind.PERMANENT, 53,
            "poison pill: record " + id + " is refused in every lifetime", null);
      }
    }
    if (faulty && rng.chance(e.permanentRate) && rows.length > 0) {
      // The server rejects one row of the insert, for the rest of this lifetime: isolation must
      // find it, and every other row must still be written.
      l.rejected.add(rows[rng.nextInt(rows.length)]);
      lastPermanent[insert.shard()] = insert;
      outageAfter(insert);
      e.fault(Faults.SINK_PERMANENT, "shard " + insert.shard() + " " + seqs(insert));
      e.log.add(e.clock.tick, l.epoch, EventLog.PERMANENT, insert.shard(),
          insert.firstSequence(), rows.length);
      throw new WriteException(WriteException.Kind.PERMANENT, 27, "injected: rejected", null);
    }
    if (faulty && rng.chance(e.transientRate)) {
      e.fault(Faults.SINK_TRANSIENT, "shard " + insert.shard() + " " + seqs(insert));
      e.log.add(e.clock.tick, l.epoch, EventLog.TRANSIENT, insert.shard(),
          insert.firstSequence(), rows.length);
      if ((e.clock.tick & 3) == 0) {
        // A writer's bug rather than an answer (one in four, by the tick: no extra draw): the
        // worker must treat it as a transient failure.
        throw transientAnswer(insert.shard(),
            new IllegalStateException("injected: the writer broke"));
      }
      throw transientAnswer(insert.shard(),
          new WriteException(WriteException.Kind.TRANSIENT, 210, "injected: refused", null));
    }
    e.ledger.written(l, insert, rows);
    e.log.add(e.clock.tick, l.epoch, EventLog.WROTE, insert.shard(), insert.firstSequence(),
        rows.length);
    if (faulty && rng.chance(e.timeoutRate)) {
      // The server wrote the rows, the answer is lost: the worker retries, and the rows arrive
      // twice. The ledger allows exactly these duplicates.
      e.ledger.mayRepeat(l, rows);
      e.fault(Faults.SINK_TIMEOUT, "shard " + insert.shard() + " " + seqs(insert));
      e.log.add(e.clock.tick, l.epoch, EventLog.TIMEOUT, insert.shard(), insert.firstSequence(),
          rows.length);
      throw transientAnswer(insert.shard(), new WriteException(WriteException.Kind.TRANSIENT, -1,
          "injected: timeout after the server wrote the insert", null));
    }
    e.ledger.handled(l, rows);
    long[] n = l.sinkCounts[insert.shard()]; // answered as written
    n[0]++;
    n[1] += insert.rows();
    n[2] += insert.bytes();
  }

  /** Notes a transient answer about to be thrown: the worker must retry it or give up with it. */
  private <X extends Exception> X transientAnswer(int shard, X answer) {
    pendingTransient[shard] = triedInARow[shard];
    lastTransient[shard] = answer;
    return answer;
  }

  /**
   * Under {@code dead-letter}, in a faulty lifetime, now and then (one permanent answer in eight,
   * by the tick: no extra draw) the sink goes down right after refusing an insert: isolation's
   * next attempts fail transiently until the worker gives up (or shutdown's deadline stops it),
   * and it must fail every chunk of the insert not settled yet, with the sink's last answer
   * (counted as failed at shutdown when the deadline stopped it).
   */
  private void outageAfter(Insert insert) {
    if (l.faulty && e.onPermanent == dev.handoff.core.sink.PermanentPolicy.DEAD_LETTER
        && (e.clock.tick & 7) == 5) {
      outage[insert.shard()] = true;
    }
  }

  /**
   * An insert of several chunks stays within the workers' merge limits, and no insert is tried
   * more often than the retry policy allows.
   */
  private void checkLimits(Insert insert) {
    e.book.checks[OracleBook.INSERT_LIMITS]++;
    if (insert.lastSequence() > insert.firstSequence()
        && (insert.bytes() > e.maxInsertBytes || insert.rows() > e.maxInsertRows)) {
      e.book.fail(OracleBook.INSERT_LIMITS, "shard " + insert.shard() + " merged chunks "
          + insert.firstSequence() + ".." + insert.lastSequence() + " into one insert of "
          + insert.bytes() + " bytes and " + insert.rows() + " rows; the limits are "
          + e.maxInsertBytes + " bytes and " + e.maxInsertRows + " rows");
    }
    // The attempt number the worker sends is its own count; the sink counts the attempts too: a
    // retry follows the previous attempt at the same chunks and bytes, and is the next one.
    int shard = insert.shard();
    Insert prev = lastTried[shard];
    boolean same = prev != null && prev.firstSequence() == insert.firstSequence()
        && prev.lastSequence() == insert.lastSequence() && prev.bytes() == insert.bytes();
    triedInARow[shard] = insert.attempt() == 1 || !same ? 1 : triedInARow[shard] + 1;
    lastTried[shard] = insert;
    if (triedInARow[shard] == 1) {
      firstAttemptTick[shard] = e.clock.tick;
    }
    if (insert.attempt() != triedInARow[shard]) {
      e.book.fail(OracleBook.INSERT_LIMITS, "shard " + shard + " sent chunks "
          + insert.firstSequence() + ".." + insert.lastSequence() + " as attempt "
          + insert.attempt() + " but the sink saw " + triedInARow[shard] + " attempt(s) at them in"
          + " a row");
    }
    if (insert.attempt() > e.retryAttempts) {
      e.book.fail(OracleBook.INSERT_LIMITS, "shard " + insert.shard() + " tried chunks "
          + insert.firstSequence() + ".." + insert.lastSequence() + " an " + insert.attempt()
          + "th time; the retry policy allows " + e.retryAttempts + " attempts");
    }
  }

  /**
   * An insert of new chunks (not a retry, not a part of isolation) merges what was queued: when
   * its first attempt starts, the shard's next chunk either has not reached the queue or would
   * pass a limit. It goes out no later than the linger after its first chunk was taken, and no
   * earlier unless a limit was reached, the budget is full or shutdown began. The expectation
   * comes from the engine's books: what reached the queue, each chunk's bytes and rows, the ticks
   * chunks were taken at, the bytes in flight.
   */
  private void checkMerge(Insert insert) {
    int s = insert.shard();
    long last = insert.lastSequence();
    if (insert.attempt() != 1 || insert.firstSequence() <= maxSequence[s]) {
      maxSequence[s] = Math.max(maxSequence[s], last);
      return; // a retry, or isolation writing part of an insert already tried
    }
    maxSequence[s] = last;
    long prevFresh = lastFreshTick[s];
    lastFreshTick[s] = e.clock.tick;
    if (l.shuttingDown) {
      return; // draining: no linger; past the deadline: nothing more taken
    }
    e.book.checks[OracleBook.INSERT_LIMITS]++;
    long bytes = insert.bytes();
    long rows = insert.rows();
    boolean full = bytes >= e.maxInsertBytes || rows >= e.maxInsertRows;
    boolean nextFits = false;
    int next = (int) last + 1;
    if (l.arrived(s) > next) { // the next chunk was in the queue (or taken as the next's first)
      nextFits = bytes + l.sealedBytes.get(s).get(next) <= e.maxInsertBytes
          && rows + l.sealedIds.get(s).get(next).length <= e.maxInsertRows;
      full |= !nextFits;
      if (!full) {
        e.book.fail(OracleBook.INSERT_LIMITS, "shard " + s + " wrote chunks "
            + insert.firstSequence() + ".." + last + " (" + bytes + " bytes, " + rows + " rows)"
            + " without chunk " + next + ", which was queued and fits the limits");
      }
    }
    int firstSeq = (int) insert.firstSequence();
    long took = l.takenTick[s][firstSeq];
    if (took <= prevFresh) {
      return; // its first chunk was carried over from the previous insert: linger began later
    }
    long waited = e.clock.tick - took;
    boolean budgetFull = l.expectedBytes >= e.budgetLimit;
    boolean wasFull = budgetFull || l.budgetLastFull >= took; // seen full while it lingered
    // A full budget ends the linger at the worker's next slice (every tick) after it filled.
    // (Full since the last check, or since it filled in this very step: then not yet checked.)
    long lingeredFull = budgetFull && l.budgetFullSince >= 0
        ? e.clock.tick - Math.max(took, l.budgetFullSince) : 0;
    if (waited > e.lingerTicks || waited < e.lingerTicks && !full && !wasFull
        || lingeredFull > 1) {
      e.book.fail(OracleBook.INSERT_LIMITS, "shard " + s + " wrote chunks "
          + insert.firstSequence() + ".." + last + " " + waited + " ticks after it took chunk "
          + firstSeq + "; the linger is " + e.lingerTicks + " ticks"
          + (waited < e.lingerTicks ? " and no limit was reached nor the budget full" : "")
          + (lingeredFull > 1 ? ", and the budget has been full since t=" + l.budgetFullSince : "")
);
    }
  }

  /**
   * Splits a frame of RowBinary rows (they have their own bounds): one frame per row, or now and
   * then (by the tick: no extra draw) into two or three frames of whole rows, the first ones a row
   * longer when the rows do not divide evenly (the spread the workers estimate row counts by). In
   * a faulty lifetime, now and then as a broken writer would: a copy of the whole frame and its
   * last row, which the workers must refuse (the part is dead-lettered whole).
   */
  @Override
  public Optional<List<Frame>> split(Frame frame) {
    if (!e.rowBinary || l.faulty && e.rng.chance(e.splitRefuseRate)) {
      return Optional.empty();
    }
    byte[] b = frame.toByteArray();
    IntList ends = new IntList();
    int at = 0;
    while (at < b.length) {
      int end = RowDecoder.rowEnd(b, at);
      if (end < 0) {
        return Optional.empty(); // not whole rows: the ledger reports it when it is written
      }
      ends.add(end);
      at = end;
    }
    int n = ends.size();
    if (n < 2) {
      return Optional.empty();
    }
    int mode = (int) (e.clock.tick & 7);
    List<Frame> out = new ArrayList<>();
    if (mode == 3 && l.faulty) {
      out.add(Frame.copyOf(b));
      out.add(Frame.copyOf(java.util.Arrays.copyOfRange(b, ends.get(n - 2), b.length)));
      return Optional.of(out);
    }
    int k = mode == 1 ? 2 : mode == 2 ? Math.min(3, n) : n;
    int from = 0;
    int row = 0;
    for (int i = 0; i < k; i++) {
      row += n / k + (i < n % k ? 1 : 0);
      int to = ends.get(row - 1);
      out.add(Frame.copyOf(java.util.Arrays.copyOfRange(b, from, to)));
      from = to;
    }
    return Optional.of(out);
  }

  @Override
  public void write(Insert insert, WriteException cause) throws IOException {
    int[] rows = e.ledger.decode(l, insert);
    if (l.faulty && e.rng.chance(e.deadLetterErrorRate)) {
      e.fault(Faults.DEAD_LETTER_ERROR, "shard " + insert.shard() + " " + seqs(insert));
      IOException lost = new IOException("injected: the dead letter could not be stored");
      lostDeadLetters.get(insert.shard()).add(lost); // its chunk must fail with it
      throw lost;
    }
    e.ledger.deadLettered(l, insert, rows, cause);
    e.ledger.handled(l, rows);
    l.sinkCounts[insert.shard()][3]++;
    l.sinkCounts[insert.shard()][4] += insert.rows();
    e.log.add(e.clock.tick, l.epoch, EventLog.DEAD_LETTERED, insert.shard(),
        insert.firstSequence(), rows.length);
  }

  private static String seqs(Insert in) {
    return "chunks " + in.firstSequence() + ".." + in.lastSequence();
  }
}
