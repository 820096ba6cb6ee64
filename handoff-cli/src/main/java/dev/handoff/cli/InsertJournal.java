package dev.handoff.cli;

import dev.handoff.api.Frame;
import dev.handoff.api.spi.Insert;
import dev.handoff.api.spi.InsertWriter;
import dev.handoff.api.spi.WriteException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The insert journal of an {@code ingest} run with a checkpoint ({@code FILE.journal} beside the
 * checkpoint {@code FILE}): what a run that is killed (SIGKILL, a crash) leaves behind so that
 * the {@code --resume} after it counts exactly the rows the killed run wrote past its checkpoint,
 * which its last checkpoint (written every 500 ms) cannot know.
 *
 * <p>Rows are placed by their position in their shard's stream: the rows the encoder took for
 * one shard, in the order they were pushed (a batch's rows all go to one shard, and the shard's
 * chunks hold them in that order). The journal holds, each line written by one {@code write}
 * call before the rows it names can reach the server:
 *
 * <ul>
 *   <li>{@code run RUN FROM PAST UNTIL}: the writer's run id (in every insert's {@code
 *       query_id}), the offset the run started at, and the rows a previous run wrote past it up to
 *       offset {@code UNTIL} (carried into this run's checkpoints);
 *   <li>{@code b SHARD ROW START END}: a batch over input bytes {@code [START, END)} whose rows
 *       start at position {@code ROW} of shard {@code SHARD}'s stream (written before the batch
 *       is pushed; it ends where the shard's next batch starts);
 *   <li>{@code i SHARD FIRST LAST ROW ROWS}: an insert of chunks {@code FIRST..LAST} holding the
 *       stream's rows {@code [ROW, ROW + ROWS)} ({@code ROW} is {@code -1} when unknown: part of
 *       a chunk, made while isolating a rejected row), written before its first attempt.
 * </ul>
 *
 * <p>Which inserts the server wrote, the journal cannot say: the server's query log can (every
 * attempt's {@code query_id} names the run, the shard and the chunks, and is logged with {@code
 * log_queries=1}). {@link #recount} puts the two together. A SIGKILL does not lose what {@code
 * write} handed the kernel, so the journal is not forced to disk (a power cut may lose its tail).
 */
final class InsertJournal implements AutoCloseable {

  /** An insert's {@code query_id}: {@code handoff-RUN-sS-qF-L-rN-cCRC-ATTEMPT}. */
  private static final Pattern QUERY_ID =
      Pattern.compile("handoff-([0-9a-zA-Z]+)-s(\\d+)-q(\\d+)-(\\d+)-r(\\d+)-c[0-9a-f]+-\\d+");

  private final FileChannel channel;
  private final Path file;

  private InsertJournal(Path file, FileChannel channel) {
    this.file = file;
    this.channel = channel;
  }

  /** Returns the journal file of the checkpoint file {@code checkpoint}. */
  static Path of(Path checkpoint) {
    return checkpoint.resolveSibling(checkpoint.getFileName() + ".journal");
  }

  /**
   * Starts the journal of a run: replaces {@code file} with one holding the {@code run} line.
   *
   * @throws IOException if it cannot be written
   */
  static InsertJournal start(Path file, String runId, long from, long carriedPast,
      long carriedUntil) throws IOException {
    FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
        StandardOpenOption.TRUNCATE_EXISTING);
    InsertJournal j = new InsertJournal(file, ch);
    try {
      j.line("run " + runId + " " + from + " " + carriedPast + " " + carriedUntil);
    } catch (UncheckedIOException e) {
      ch.close();
      throw e.getCause();
    }
    return j;
  }

  /** Records a batch before it is pushed (pipeline thread). */
  void batch(int shard, long row, long start, long end) {
    line("b " + shard + " " + row + " " + start + " " + end);
  }

  private synchronized void line(String text) {
    ByteBuffer b = ByteBuffer.wrap((text + "\n").getBytes(StandardCharsets.US_ASCII));
    try {
      while (b.hasRemaining()) {
        channel.write(b);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write the insert journal " + file + ": "
          + e.getMessage(), e);
    }
  }

  @Override
  public void close() throws IOException {
    channel.close();
  }

  /** Returns a writer that records each insert here before {@code delegate} sends it. */
  InsertWriter wrap(InsertWriter delegate, int shards) {
    return new Recording(delegate, shards);
  }

  /** Places each insert in its shard's row stream, and journals it before its first attempt. */
  private final class Recording implements InsertWriter {
    private final InsertWriter delegate;
    /** Per shard: the next chunk sequence expected, and the stream's rows before it. */
    private final long[] nextSequence;
    private final long[] rowsBefore;
    /** Per shard: the last insert journaled (first sequence and rows), to know its retries. */
    private final long[] lastFirst;
    private final int[] lastRows;

    Recording(InsertWriter delegate, int shards) {
      this.delegate = delegate;
      this.nextSequence = new long[shards];
      this.rowsBefore = new long[shards];
      this.lastFirst = new long[shards];
      this.lastRows = new int[shards];
      Arrays.fill(lastFirst, -1);
    }

    @Override
    public void write(Insert insert) throws WriteException {
      int s = insert.shard();
      if (s < nextSequence.length && !(insert.firstSequence() == lastFirst[s]
          && insert.rows() == lastRows[s] && insert.attempt() > 1)) {
        long row = -1;
        if (insert.firstSequence() == nextSequence[s]) {
          row = rowsBefore[s];
          rowsBefore[s] += insert.rows();
          nextSequence[s] = insert.lastSequence() + 1;
        } else if (insert.firstSequence() > nextSequence[s]) {
          // Chunks that never came here (failed at teardown): the stream's place is lost.
          nextSequence[s] = Long.MAX_VALUE;
        }
        lastFirst[s] = insert.firstSequence();
        lastRows[s] = insert.rows();
        try {
          line("i " + s + " " + insert.firstSequence() + " " + insert.lastSequence() + " "
              + row + " " + insert.rows());
        } catch (UncheckedIOException e) {
          // Not sent unjournaled: retried like a server that is away, then given up.
          lastFirst[s] = -1;
          throw new WriteException(WriteException.Kind.TRANSIENT, -1, e.getMessage(), e);
        }
      }
      delegate.write(insert);
    }

    @Override
    public Optional<List<Frame>> split(Frame frame) {
      return delegate.split(frame);
    }

    @Override
    public void close() {
      delegate.close();
    }
  }

  /**
   * What a killed run wrote past its checkpoint, counted from its journal and the inserts the
   * server says it wrote.
   *
   * @param writtenPast rows past the checkpoint in the table (the carried ones included)
   * @param writtenUntil the offset up to which they lie
   * @param unplaced rows of inserts the server wrote whose place in the input is unknown
   */
  record Recount(long writtenPast, long writtenUntil, long unplaced) {}

  /** The query-log view a recount needs: which attempts of a run the server finished. */
  interface CommittedInserts {
    /**
     * Returns the {@code query_id} of every attempt of run {@code runId} that the server
     * finished (one per attempt, so an insert written twice is there twice), each optionally
     * followed by a tab and the rows the server wrote for it, after waiting for those still
     * running; empty when the server cannot say (no query log).
     */
    Optional<List<String>> of(String runId) throws IOException;
  }

  /**
   * Reads the journal {@code file} of the run that wrote the (unclean) checkpoint {@code cp}, and
   * counts the rows past {@code cp}'s offset that the server wrote.
   *
   * @return empty when there is no usable journal or the server cannot say
   */
  static Optional<Recount> recount(Path file, CheckpointFile.Position cp,
      CommittedInserts committed) throws IOException {
    String text;
    try {
      text = Files.readString(file, StandardCharsets.US_ASCII);
    } catch (NoSuchFileException e) {
      return Optional.empty();
    }
    // A last line without its newline was cut short by the kill: what it names was not sent.
    List<String> lines = List.of(text.substring(0, text.lastIndexOf('\n') + 1).split("\n"));
    if (lines.isEmpty() || !lines.get(0).startsWith("run ")) {
      return Optional.empty();
    }
    String[] head = lines.get(0).split(" ");
    if (head.length != 5) {
      return Optional.empty();
    }
    String runId = head[1];
    long from;
    long carriedPast;
    long carriedUntil;
    try {
      from = Long.parseLong(head[2]);
      carriedPast = Long.parseLong(head[3]);
      carriedUntil = Long.parseLong(head[4]);
    } catch (NumberFormatException e) {
      return Optional.empty();
    }
    if (from > cp.offset()) {
      return Optional.empty(); // not the run that wrote this checkpoint
    }
    Optional<List<String>> done = committed.of(runId);
    if (done.isEmpty()) {
      return Optional.empty();
    }
    // The batches per shard, in stream order; the inserts by shard and first sequence.
    Map<Integer, List<long[]>> batches = new HashMap<>();
    Map<String, long[]> inserts = new HashMap<>();
    for (int k = 1; k < lines.size(); k++) {
      String[] f = lines.get(k).split(" ");
      try {
        if (f[0].equals("b") && f.length == 5) {
          batches.computeIfAbsent(Integer.parseInt(f[1]), x -> new ArrayList<>())
              .add(new long[] {Long.parseLong(f[2]), Long.parseLong(f[3]),
                  Long.parseLong(f[4])});
        } else if (f[0].equals("i") && f.length == 6) {
          inserts.put(f[1] + " " + f[2] + " " + f[3] + " " + f[5],
              new long[] {Long.parseLong(f[4]), Long.parseLong(f[5])});
        }
      } catch (NumberFormatException e) {
        return Optional.empty(); // not a journal this version wrote
      }
    }
    long past = 0;
    long until = cp.offset();
    long unplaced = 0;
    for (String entry : done.get()) {
      int tab = entry.indexOf('\t');
      Matcher m = QUERY_ID.matcher(tab < 0 ? entry : entry.substring(0, tab));
      if (!m.matches() || !m.group(1).equals(runId)) {
        continue;
      }
      int shard = Integer.parseInt(m.group(2));
      long sent = Long.parseLong(m.group(5));
      // A finished insert the kill cut short wrote fewer rows than it was sent for: the first
      // ones, as its blocks arrive in order.
      long wrote = sent;
      if (tab >= 0) {
        try {
          wrote = Math.min(sent, Long.parseLong(entry.substring(tab + 1).strip()));
        } catch (NumberFormatException e) {
          return Optional.empty();
        }
      }
      long[] ins = inserts.get(shard + " " + m.group(3) + " " + m.group(4) + " " + m.group(5));
      if (ins == null || ins[0] < 0) {
        unplaced += wrote;
        continue;
      }
      ins = new long[] {ins[0], Math.min(ins[1], wrote)};
      List<long[]> bs = batches.getOrDefault(shard, List.of());
      for (int k = 0; k < bs.size(); k++) {
        long[] b = bs.get(k);
        if (b[1] < cp.offset()) {
          continue; // before the checkpoint: the checkpoint counts it
        }
        long lo = Math.max(b[0], ins[0]);
        long hi = Math.min(k + 1 < bs.size() ? bs.get(k + 1)[0] : Long.MAX_VALUE,
            ins[0] + ins[1]);
        if (hi > lo) {
          past += hi - lo;
          until = Math.max(until, b[2]);
        }
      }
    }
    if (carriedPast > 0 && carriedUntil > cp.offset()) {
      past += carriedPast;
      until = Math.max(until, carriedUntil);
    }
    return Optional.of(new Recount(past, until, unplaced));
  }
}
