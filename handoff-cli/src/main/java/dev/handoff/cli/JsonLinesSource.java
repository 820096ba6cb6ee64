package dev.handoff.cli;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.handoff.api.RecordMeta;
import dev.handoff.api.stage.Collector;
import dev.handoff.core.Source;
import dev.handoff.core.ack.SourceAcks;
import dev.handoff.core.ack.SourceBatch;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The {@code ingest} source: reads JSON lines, one batch of {@code batchRows} lines per payload,
 * parses each line with Jackson's streaming parser into a tree and pushes it as a record of the
 * batch. Before pushing, it registers the batch's byte range in {@link InputRanges}, which the
 * acknowledgements then resolve.
 *
 * <p>When the input pauses (a pipe with nothing ready), the batch ends early and the stage's open
 * chunks are sealed before the next read blocks, so rows read do not wait for more input. Failed
 * ranges are read again (from the file, or from the bytes kept for stdin) as new
 * batches. At the end of the input it does not report exhaustion while ranges still wait for
 * their acknowledgements: it seals the stage's open chunks once, then pushes empty payloads,
 * waiting a few milliseconds each, until every range is delivered, lost, or replayed.
 */
final class JsonLinesSource implements Source<JsonNode> {

  /** How long one empty payload waits at the end of the input for acknowledgements. */
  static final long IDLE_WAIT_MILLIS = 5;

  private final JsonLines lines;
  private final Path replayFile;
  private final boolean keepBytes;
  private final int batchRows;
  private final boolean failOnBadLine;
  private final SourceAcks acks;
  private final InputRanges ranges;
  private final SkipReasons skips;
  private final ObjectMapper mapper;
  private final Runnable sealOpenChunks;
  private final AtomicLong rowsRead = new AtomicLong();
  private final AtomicLong bytesRead = new AtomicLong();
  private final long startOffset;
  private volatile String stopReason;
  private boolean eof;
  private boolean pushedSinceSeal;
  private long routing;

  /**
   * Creates the source.
   *
   * @param lines the input's lines, positioned where reading starts
   * @param replayFile the input file, read again for replays; {@code null} for stdin, whose
   *     batches keep their bytes until they resolve
   * @param batchRows lines per batch: the checkpoint's granularity
   * @param failOnBadLine whether a line that is not a JSON object stops the run (else it is
   *     skipped and counted)
   * @param exactDecimals whether numbers with a fraction are read as exact decimals (for Decimal
   *     columns) instead of doubles
   * @param sealOpenChunks seals the stage's open chunks (its {@code flushTerminal})
   */
  JsonLinesSource(JsonLines lines, Path replayFile, int batchRows, boolean failOnBadLine,
      boolean exactDecimals, SourceAcks acks, InputRanges ranges, SkipReasons skips,
      Runnable sealOpenChunks) {
    this.lines = lines;
    this.replayFile = replayFile;
    this.keepBytes = replayFile == null;
    this.batchRows = batchRows;
    this.failOnBadLine = failOnBadLine;
    this.acks = acks;
    this.ranges = ranges;
    this.skips = skips;
    this.sealOpenChunks = sealOpenChunks;
    this.startOffset = lines.endOffset();
    this.mapper = new ObjectMapper();
    if (exactDecimals) {
      mapper.enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS);
    }
  }

  @Override
  public boolean pushNext(Collector<JsonNode> out) {
    if (stopReason != null) {
      return false;
    }
    InputRanges.Range replay = ranges.pollReplay();
    if (replay != null) {
      replay(replay, out);
      return true;
    }
    if (!eof) {
      try {
        if (pushedSinceSeal && !lines.ready()) {
          // The input pauses (a slow pipe): seal what was read rather than hold it while the
          // next read blocks.
          pushedSinceSeal = false;
          sealOpenChunks.run();
        }
        readBatch(out);
      } catch (IOException e) {
        throw new UncheckedIOException("cannot read the input: " + e.getMessage(), e);
      }
      return true;
    }
    if (!ranges.waiting()) {
      return false;
    }
    if (pushedSinceSeal) {
      pushedSinceSeal = false;
      sealOpenChunks.run();
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

  /** Reads up to {@code batchRows} non-blank lines as one batch and pushes them. */
  private void readBatch(Collector<JsonNode> out) throws IOException {
    SourceBatch batch = acks.begin();
    ByteArrayOutputStream kept = keepBytes ? new ByteArrayOutputStream() : null;
    JsonNode[] rows = new JsonNode[batchRows];
    int n = 0;
    int lineCount = 0;
    String bad = null;
    long before = lines.endOffset();
    while (lineCount < batchRows) {
      if (lineCount > 0 && !lines.ready()) {
        break; // a pause in the input ends the batch, so its rows need not wait for more
      }
      if (!lines.next()) {
        eof = true;
        break;
      }
      if (kept != null) {
        kept.write(lines.buffer(), lines.lineStart(), lines.lineLength());
        kept.write('\n');
      }
      if (lines.isBlank()) {
        continue;
      }
      lineCount++;
      JsonNode node = parse(lines.buffer(), lines.lineStart(), lines.lineLength(), true);
      if (node != null) {
        rows[n++] = node;
      } else if (failOnBadLine) {
        bad = "line ending at byte offset " + lines.endOffset() + " is not a JSON object";
        break;
      }
    }
    bytesRead.addAndGet(lines.endOffset() - before);
    rowsRead.addAndGet(lineCount);
    ranges.add(batch.batchId(), lines.endOffset(), lineCount,
        kept == null ? null : kept.toByteArray());
    if (bad != null) {
      stopReason = bad;
      batch.fail(new IllegalArgumentException(bad));
    }
    push(out, batch, rows, n);
  }

  /** Reads a failed range again and pushes its rows as a new batch. */
  private void replay(InputRanges.Range range, Collector<JsonNode> out) {
    byte[] bytes = range.raw != null ? range.raw : readRange(range);
    SourceBatch batch = acks.begin();
    ranges.addReplay(batch.batchId(), range);
    JsonNode[] rows = new JsonNode[Math.max(1, range.rows)];
    int n = 0;
    skips.counting(false);
    try (JsonLines again = new JsonLines(new ByteArrayInputStream(bytes), range.start)) {
      while (again.next() && n < rows.length) {
        if (!again.isBlank()) {
          JsonNode node = parse(again.buffer(), again.lineStart(), again.lineLength(), false);
          if (node != null) {
            rows[n++] = node;
          }
        }
      }
      push(out, batch, rows, n);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } finally {
      skips.counting(true);
    }
  }

  private void push(Collector<JsonNode> out, SourceBatch batch, JsonNode[] rows, int n) {
    for (int i = 0; i < n; i++) {
      out.push(new dev.handoff.api.Envelope<>(rows[i], new RecordMeta(0L, routing++), batch));
    }
    pushedSinceSeal |= n > 0;
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

  /**
   * Parses one line; returns the object (or array) node, or {@code null} after counting why
   * not.
   */
  private JsonNode parse(byte[] buf, int off, int len, boolean count) {
    try (JsonParser p = mapper.getFactory().createParser(buf, off, len)) {
      JsonNode node = mapper.readTree(p);
      if (node == null || !(node.isObject() || node.isArray())) {
        skip(count, SkipReasons.NOT_AN_OBJECT);
        return null;
      }
      if (p.nextToken() != null) {
        skip(count, SkipReasons.MALFORMED_JSON);
        return null;
      }
      return node;
    } catch (JsonProcessingException e) {
      skip(count, SkipReasons.MALFORMED_JSON);
      return null;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private void skip(boolean count, String reason) {
    if (count && !failOnBadLine) {
      skips.count(reason);
    }
  }

  /** Returns the input rows read in the first pass (non-blank lines), replays not included. */
  long rowsRead() {
    return rowsRead.get();
  }

  /** Returns the input bytes read in the first pass. */
  long bytesRead() {
    return bytesRead.get();
  }

  /** Returns the offset reading started at. */
  long startOffset() {
    return startOffset;
  }

  /** Returns why the source stopped early ({@code --on-error fail}), or {@code null}. */
  String stopReason() {
    return stopReason;
  }
}
