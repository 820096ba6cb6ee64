package dev.handoff.cli;

import dev.handoff.api.stage.Collector;
import dev.handoff.core.SinkHandoff;
import dev.handoff.core.Source;
import dev.handoff.core.ack.SourceAcks;
import dev.handoff.core.ack.SourceBatch;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * The {@code ingest} source: takes the parsed blocks of a {@link BlockReader} in input order and
 * pushes each as one batch, every row with its batch's {@link BatchAck}, all to one shard (the
 * routing key is the batch's number). It registers each batch's byte range in {@link
 * InputRanges}, which the acknowledgements then resolve.
 *
 * <p>A row that could not be parsed, or that the encoder rejects, is reported with its line and
 * byte offset ({@link RowReport}) and skipped, or under {@code --on-error fail} stops the run:
 * the batch then ends before that row (its rows before it are written and the checkpoint can
 * pass them), and the row itself counts as lost, so a {@code --resume} starts at it.
 *
 * <p>When the next block is not parsed yet (a slow pipe, or parsing behind), the stage's open
 * chunks are sealed before waiting, so rows read do not wait for more input. Failed ranges are
 * read again (from the file, or from the bytes kept for stdin) as new batches. At the end of the
 * input it does not report exhaustion while ranges still wait for their acknowledgements: it
 * seals the stage's open chunks once, then pushes empty payloads, waiting a few milliseconds
 * each, until every range is delivered, lost, or replayed.
 */
final class JsonLinesSource implements Source<BlockRows.Row> {

  /** How long one empty payload waits at the end of the input for acknowledgements. */
  static final long IDLE_WAIT_MILLIS = 5;

  private final BlockReader blocks;
  private final Path replayFile;
  private final boolean keepBytes;
  private final boolean failOnBadRow;
  private final SourceAcks acks;
  private final InputRanges ranges;
  private final SkipReasons skips;
  private final RowReport report;
  private final LineParser replayParser;
  private final SinkHandoff<BlockRows.Row> stage;
  /** The row cursor every push hands the stage (pushes happen on the pipeline thread only). */
  private final BlockRows.Row cursor = new BlockRows.Row();
  private final Map<String, LongAdder> unknownFields = new ConcurrentHashMap<>();
  private final AtomicLong rowsWithUnknownFields = new AtomicLong();
  private final AtomicLong rowsRead = new AtomicLong();
  private final long startOffset;
  private volatile String stopReason;
  private boolean eof;
  private boolean pushedSinceSeal;
  private long batches;
  private InsertJournal journal;
  /** Per shard: the rows the encoder took for it so far (its stream's length). */
  private long[] shardRows;
  /** Run after the end of the input sealed the last chunks: nothing more comes to merge. */
  private Runnable afterLastSeal = () -> { };

  /**
   * Creates the source.
   *
   * @param blocks the input's parsed blocks, from where reading starts
   * @param startOffset where reading starts
   * @param replayFile the input file, read again for replays; {@code null} for stdin, whose
   *     batches keep their bytes until they resolve
   * @param failOnBadRow whether a row that cannot be parsed or encoded stops the run (else it is
   *     skipped, counted and reported)
   * @param replayParser parses replayed ranges (on the pipeline thread)
   * @param stage the stage the rows go to (its {@code flushTerminal} seals the open chunks)
   */
  JsonLinesSource(BlockReader blocks, long startOffset, Path replayFile, boolean failOnBadRow,
      SourceAcks acks, InputRanges ranges, SkipReasons skips, RowReport report,
      LineParser replayParser, SinkHandoff<BlockRows.Row> stage) {
    this.blocks = blocks;
    this.startOffset = startOffset;
    this.replayFile = replayFile;
    this.keepBytes = replayFile == null;
    this.failOnBadRow = failOnBadRow;
    this.acks = acks;
    this.ranges = ranges;
    this.skips = skips;
    this.report = report;
    this.replayParser = replayParser;
    this.stage = stage;
  }

  /**
   * Records every batch in {@code journal} before pushing it: its shard, its first row's place in
   * the shard's stream and its byte range.
   */
  void journal(InsertJournal journal, int shards) {
    this.journal = journal;
    this.shardRows = new long[shards];
  }

  /**
   * Runs {@code action} each time the end of the input (or of a replay after it) has sealed the
   * stage's open chunks: the sink workers' {@code endLinger}, so that the last insert goes out
   * at once instead of waiting out the linger for chunks that will not come.
   */
  void afterLastSeal(Runnable action) {
    this.afterLastSeal = action;
  }

  /** Journals a batch about to be pushed with routing key {@code key}. */
  private void journalBatch(long key, long start, long end) {
    if (journal != null) {
      journal.batch((int) Long.remainderUnsigned(key, shardRows.length),
          shardRows[(int) Long.remainderUnsigned(key, shardRows.length)], start, end);
    }
  }

  /** Adds a pushed batch's rows to its shard's stream. */
  private void journalPushed(long key, int accepted) {
    if (journal != null) {
      shardRows[(int) Long.remainderUnsigned(key, shardRows.length)] += accepted;
    }
  }

  @Override
  public boolean pushNext(Collector<BlockRows.Row> out) {
    if (stopReason != null) {
      return false;
    }
    InputRanges.Range replay = ranges.pollReplay();
    if (replay != null) {
      replay(replay);
      return true;
    }
    if (!eof) {
      try {
        if (pushedSinceSeal && !blocks.ready()) {
          // The input pauses (a slow pipe) or parsing is behind: seal what was pushed rather
          // than hold it while waiting.
          pushedSinceSeal = false;
          stage.flushTerminal();
        }
        ParsedBlock b = blocks.next();
        if (b == BlockReader.END) {
          eof = true;
        } else {
          push(b);
        }
      } catch (IOException e) {
        throw new UncheckedIOException("cannot read the input: " + e.getMessage(), e);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        stopReason = "interrupted";
        return false;
      }
      return true;
    }
    if (!ranges.waiting()) {
      return false;
    }
    if (pushedSinceSeal) {
      pushedSinceSeal = false;
      stage.flushTerminal();
      afterLastSeal.run();
    }
    try {
      TimeUnit.MILLISECONDS.sleep(IDLE_WAIT_MILLIS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      stopReason = "interrupted";
      return false;
    }
    return true;
  }

  /** Pushes a first-pass block as one batch. */
  private void push(ParsedBlock b) {
    SourceBatch batch = acks.begin();
    BatchAck ack = new BatchAck(batch);
    long key = batches++;
    journalBatch(key, b.start, b.end);
    int stopAt = -1;
    for (int i = 0; i < b.rows; i++) {
      String why = b.reasonOf(i);
      if (why != null) {
        if (!bad(b, i, why, b.detail[i])) {
          stopAt = i;
          break;
        }
        continue;
      }
      String[] unknown = b.unknownOf(i);
      if (unknown != null) {
        unknown(b, i, unknown);
      }
      stage.push(cursor.at(b, i), 0L, key, ack);
      String rejected = skips.takeRejection();
      if (rejected != null) {
        if (!bad(b, i, SkipReasons.reasonOf(rejected), rejected)) {
          stopAt = i;
          break;
        }
        continue;
      }
      ack.accepted++;
    }
    pushedSinceSeal |= ack.accepted > 0;
    journalPushed(key, ack.accepted);
    if (stopAt < 0) {
      rowsRead.addAndGet(b.rows);
      ranges.add(ack, b.end, b.rows, ack.accepted, b.lines,
          keepBytes ? b.exactBytes() : null);
    } else {
      rowsRead.addAndGet(stopAt + 1);
      int cut = b.lineStart[stopAt];
      int cutLines = b.lineIndex[stopAt];
      ranges.add(ack, b.start + cut, stopAt, ack.accepted, cutLines,
          keepBytes ? Arrays.copyOf(b.bytes, cut) : null);
      ranges.addLost(b.start + b.lineEnd[stopAt], 1, 1);
    }
    batch.complete();
    if (!keepBytes) {
      blocks.recycle(b); // its rows are encoded: nothing refers to it any more
    }
  }

  /**
   * Reports a bad row; returns whether the run goes on (the row is skipped and counted) or stops
   * ({@code --on-error fail}: the reason is kept, the caller ends the batch before the row).
   */
  private boolean bad(ParsedBlock b, int i, String reason, String detail) {
    if (failOnBadRow) {
      stopReason = Messages.where(b.lineNumber(i), b.offset(i)) + ": " + detail
          + " (--on-error fail stops here; fix the line and rerun with --resume to continue"
          + " from it)";
      report.print("ingest: " + stopReason);
      return false;
    }
    skips.count(reason);
    report.skipped(b.lineNumber(i), b.offset(i), detail, b.bytes, b.lineStart[i],
        b.lineLength[i]);
    return true;
  }

  private void unknown(ParsedBlock b, int i, String[] names) {
    rowsWithUnknownFields.incrementAndGet();
    for (String name : names) {
      LongAdder a = unknownFields.get(name);
      if (a == null) {
        a = unknownFields.computeIfAbsent(name, k -> new LongAdder());
        report.limited("ingest: " + Messages.where(b.lineNumber(i), b.offset(i))
            + ": unknown field \"" + name + "\" names no column; the row is written without it"
            + " (counted in unknownFields; --strict rejects such rows)");
      }
      a.increment();
    }
  }

  /** Reads a failed range again and pushes its rows as a new batch; nothing is counted again. */
  private void replay(InputRanges.Range range) {
    byte[] bytes = range.raw != null ? range.raw : readRange(range);
    ParsedBlock b = new ParsedBlock(range.start, range.end, range.linesBefore, bytes);
    replayParser.parse(b);
    SourceBatch batch = acks.begin();
    BatchAck ack = new BatchAck(batch);
    ranges.addReplay(ack, range);
    long key = batches++;
    journalBatch(key, range.start, range.end);
    for (int i = 0; i < b.rows && ack.accepted < range.accepted; i++) {
      if (!b.bad(i)) {
        stage.push(cursor.at(b, i), 0L, key, ack);
        if (skips.takeRejection() == null) {
          ack.accepted++;
        }
      }
    }
    pushedSinceSeal |= ack.accepted > 0;
    journalPushed(key, ack.accepted);
    batch.complete();
  }

  private byte[] readRange(InputRanges.Range range) {
    try (FileChannel ch = FileChannel.open(replayFile, StandardOpenOption.READ)) {
      ByteBuffer b = ByteBuffer.allocate(Math.toIntExact(range.end - range.start));
      long pos = range.start;
      while (b.hasRemaining()) {
        int r = ch.read(b, pos);
        if (r < 0) {
          throw new IOException("the input " + replayFile + " ends at " + pos
              + ", before the range " + range + " to replay");
        }
        pos += r;
      }
      return b.array();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the input again: " + e.getMessage(), e);
    }
  }

  /** Returns the input rows read in the first pass (non-blank lines), replays not included. */
  long rowsRead() {
    return rowsRead.get();
  }

  /** Returns the offset reading started at. */
  long startOffset() {
    return startOffset;
  }

  /** Returns how many rows had a field that names no column (written without it). */
  long rowsWithUnknownFields() {
    return rowsWithUnknownFields.get();
  }

  /** Returns the unknown field names and the rows that had each, sorted by name. */
  Map<String, Long> unknownFields() {
    Map<String, Long> m = new TreeMap<>();
    unknownFields.forEach((k, v) -> m.put(k, v.sum()));
    return m;
  }

  /** Returns why the source stopped early ({@code --on-error fail}), or {@code null}. */
  String stopReason() {
    return stopReason;
  }
}
