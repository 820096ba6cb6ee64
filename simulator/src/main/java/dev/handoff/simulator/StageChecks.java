package dev.handoff.simulator;

import dev.handoff.core.ShardReport;
import java.util.List;

/**
 * The oracles over the stage's own books, each computing its expectation from what the engine saw
 * sealed, sent and pushed: the budget's exact bytes, the metrics listener's counters, liveness,
 * the maximum chunk age, parked chunks and bytes, and the shards' reports at close. {@link
 * Ledger} calls them after every event; runs on the simulation thread only.
 */
final class StageChecks {
  private final Engine e;
  private final OracleBook book;

  StageChecks(Engine e) {
    this.e = e;
    this.book = e.book;
  }

  /**
   * The budget holds exactly the bytes of the chunks sealed and not settled, by the engine's own
   * count (checked after every event, and after every worker run even in the middle of a payload).
   */
  void checkBudget(Life l) {
    book.checks[OracleBook.BUDGET_EXACT]++;
    if (l.expectedBytes < e.budgetLimit) {
      l.budgetFullSince = -1;
    } else {
      l.budgetLastFull = e.clock.tick;
      if (l.budgetFullSince < 0) {
        l.budgetFullSince = e.clock.tick;
      }
    }
    long inflight = l.budget.inflightBytes();
    if (inflight != l.expectedBytes || inflight < 0) {
      book.fail(OracleBook.BUDGET_EXACT, "the budget holds " + inflight + " bytes but the"
          + " chunks sealed and not yet written or abandoned hold " + l.expectedBytes);
    }
  }

  /**
   * The stage's counters, as its metrics listener heard them, against the engine's: checked after
   * every event and once more when the stage closes (the last payload's flush included).
   */
  void checkCounters(Life l) {
    long[] checks = book.checks;
    checks[OracleBook.SKIPPED_EQUALS_INJECTED]++;
    long expectSkips = e.policy == dev.handoff.api.ErrorPolicy.SKIP ? l.injectedSkips : 0;
    if (l.stageSkipped != expectSkips) {
      book.fail(OracleBook.SKIPPED_EQUALS_INJECTED, "the stage counted " + l.stageSkipped
          + " records skipped but " + expectSkips + " record errors were injected under "
          + e.policy);
    }
    checks[OracleBook.METRICS_EXACT]++;
    if (l.stageSeen != l.pushedToStage || l.stageOut != l.encodedOk
        || l.stageErrors != l.injectedEncodeErrors) {
      book.fail(OracleBook.METRICS_EXACT, "the stage's metrics say seen " + l.stageSeen + ", out "
          + l.stageOut + ", errors " + l.stageErrors + " but the engine pushed "
          + l.pushedToStage + " records, of which " + l.encodedOk + " encoded and "
          + l.injectedEncodeErrors + " hit an injected encode error");
    }
  }

  void checkLiveness(Life l) {
    book.checks[OracleBook.LIVENESS]++;
    if (e.clock.tick > l.deadlineTick) {
      book.fail(OracleBook.LIVENESS, (l.faulty ? "process lifetime " : "the fault-free phase ")
          + l.epoch + " did not finish within " + (l.deadlineTick - l.startTick) + " ticks"
          + " (started at t=" + l.startTick + ")");
    }
  }

  /**
   * B15: while the stage runs, no shard's open chunk holds a row older than the maximum chunk age
   * plus one tick (the timer calls {@code sealAged()} every tick). The age comes from what the
   * engine saw encoded and sealed, not from the stage.
   */
  void checkChunkAge(Life l) {
    if (l.chainDone || l.fatalSnapshot != null) {
      return; // a closed or stopped stage seals nothing
    }
    book.checks[OracleBook.MAX_CHUNK_AGE]++;
    long now = e.clock.tick;
    for (int s = 0; s < e.shards; s++) {
      if (l.open[s].size() > 0 && now - l.openSince[s] > e.maxAgeTicks + 1) {
        book.fail(OracleBook.MAX_CHUNK_AGE, "shard " + s + "'s open chunk holds " + l.open[s].size()
            + " row(s), the first encoded at t=" + l.openSince[s] + ", " + (now - l.openSince[s])
            + " ticks ago; the maximum chunk age is " + e.maxAgeTicks + " ticks");
      }
    }
  }

  /**
   * While the stage runs, each shard's parked chunks and the parked bytes are the chunks the
   * engine saw sealed and not handed to the queue (a shard sends in seal order).
   */
  void checkParked(Life l) {
    if (l.chainDone || l.fatalSnapshot != null) {
      return; // teardown failed them back; a stopped stage is judged by nothing-after-fatal
    }
    book.checks[OracleBook.PARKED_EXACT]++;
    long bytes = 0;
    for (int s = 0; s < e.shards; s++) {
      int sealed = l.sealedIds.get(s).size();
      long sent = l.arrived(s);
      if (sent < sealed) {
        bytes += l.sealedBytesBefore[s][sealed] - l.sealedBytesBefore[s][(int) sent];
      }
      if (l.stage.parkedChunks(s) != sealed - sent) {
        book.fail(OracleBook.PARKED_EXACT, "shard " + s + " has " + l.stage.parkedChunks(s)
            + " chunk(s) parked but the engine saw " + sealed + " sealed and " + sent
            + " handed to the queue");
      }
    }
    if (l.stage.parkedBytes() != bytes) {
      book.fail(OracleBook.PARKED_EXACT, "the stage reports " + l.stage.parkedBytes()
          + " parked bytes; the chunks sealed and not sent hold " + bytes);
    }
    e.gauges.checkStage(l);
  }

  /**
   * When the stage closes: each shard's report (chunks sealed, sent, failed back, bytes abandoned,
   * rows failed back) equals what the engine saw. A shard sends in seal order, so the chunks it
   * did not send are the last ones it sealed.
   */
  void checkShardReports(Life l, List<ShardReport> reports) {
    book.checks[OracleBook.SHARD_REPORT_EXACT]++;
    if (reports.size() != e.shards) {
      book.fail(OracleBook.SHARD_REPORT_EXACT, reports.size() + " shard report(s) for "
          + e.shards + " shards");
    }
    for (ShardReport r : reports) {
      int s = r.shard();
      List<int[]> ids = l.sealedIds.get(s);
      List<Integer> bytes = l.sealedBytes.get(s);
      long sealed = ids.size();
      long sent = l.arrived(s);
      long abandonedBytes = 0;
      long failedRows = l.open[s].size();
      for (long seq = sent; seq < sealed; seq++) {
        abandonedBytes += bytes.get((int) seq);
        int[] rows = ids.get((int) seq);
        failedRows += rows == null ? 0 : rows.length;
      }
      book.checks[OracleBook.SHARD_REPORT_EXACT]++;
      if (r.chunksSealed() != sealed || r.chunksSent() != sent
          || r.chunksFailedBack() != sealed - sent || r.bytesAbandoned() != abandonedBytes
          || r.rowsFailedBack() != failedRows) {
        book.fail(OracleBook.SHARD_REPORT_EXACT, "shard " + s + " reports " + r + " but the"
            + " engine saw " + sealed + " sealed, " + sent + " sent, " + (sealed - sent)
            + " failed back with " + abandonedBytes + " bytes and " + failedRows + " rows");
      }
    }
  }
}
