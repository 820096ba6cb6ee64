package dev.handoff.cli;

import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * Reads the input ahead on a thread of its own, cuts it into line-aligned blocks of up to {@code
 * blockRows} non-blank lines, and has a pool of {@code threads} parser threads parse them; the
 * parsed blocks come out of {@link #next()} in input order, whichever thread finished first.
 *
 * <p>A block also ends early when the input pauses (a pipe with nothing ready, say {@code tail
 * -f}): its lines then need not wait for more; and at {@link #BLOCK_BYTES}. At most {@code 2 *
 * threads + 1} blocks are read ahead; the reader waits for the pipeline to take one before it
 * reads more.
 *
 * <p>Blocks whose rows were pushed come back through {@link #recycle} and hold later blocks: a
 * run of a million lines then allocates a dozen blocks' arrays instead of a hundred, which is
 * most of what the young collections copied and the memory the JVM first touched.
 */
final class BlockReader implements AutoCloseable {

  /**
   * A block also ends at the line that takes it to this many bytes: the blocks read ahead and
   * in flight stay a few MiB each whatever the line length, so that less of them lives through
   * a young collection (on a file of 641-byte lines, 2 MiB blocks instead of 10,000-line ones
   * cut the client's CPU by about a tenth, mostly copying collections; 1 MiB instead of 2 cut
   * the serial collector's pauses on a million such lines from 0.53 s to 0.35).
   */
  static final int BLOCK_BYTES = 1 << 20;

  /** What {@link #next()} returns at the end of the input. */
  static final ParsedBlock END = new ParsedBlock(-1, -1, -1, new byte[0]);

  private final InputStream in;
  private final int blockRows;
  private final Function<ParsedBlock, ParsedBlock> parse;
  private final ExecutorService pool;
  private final BlockingQueue<CompletableFuture<ParsedBlock>> ahead;
  /** Blocks whose rows were pushed, to hold the next ones (taken by the reader thread). */
  private final BlockingQueue<ParsedBlock> spare;
  private final Thread reader;
  private volatile boolean closed;

  /**
   * Creates the reader and starts its thread.
   *
   * @param in the input, positioned at {@code startOffset}
   * @param startOffset the input offset of {@code in}'s first byte
   * @param linesBefore the lines of the input before {@code startOffset}
   * @param blockRows the most non-blank lines a block holds
   * @param threads parser threads
   * @param reuse whether blocks come back through {@link #recycle} (not for stdin, whose blocks
   *     keep their bytes for replays): blocks are then made with room to hold later ones
   * @param parse parses a block in place and returns it (called on a parser thread; each
   *     thread's calls are its own, so a parser per thread is safe)
   */
  BlockReader(InputStream in, long startOffset, long linesBefore, int blockRows, int threads,
      boolean reuse, Function<ParsedBlock, ParsedBlock> parse) {
    this.in = in;
    this.blockRows = blockRows;
    this.parse = parse;
    AtomicInteger n = new AtomicInteger();
    this.pool = Executors.newFixedThreadPool(threads, r -> {
      Thread t = new Thread(r, "handoff-ingest-parse-" + n.incrementAndGet());
      t.setDaemon(true);
      return t;
    });
    this.ahead = new ArrayBlockingQueue<>(2 * threads + 1);
    // Read ahead, being parsed, being pushed, and one to spare.
    this.spare = reuse ? new ArrayBlockingQueue<>(2 * threads + 4) : null;
    this.reader = new Thread(() -> read(startOffset, linesBefore), "handoff-ingest-read");
    reader.setDaemon(true);
    reader.start();
  }

  /**
   * Returns whether the next block is parsed already, so that {@link #next()} returns at once.
   */
  boolean ready() {
    CompletableFuture<ParsedBlock> head = ahead.peek();
    return head != null && head.isDone();
  }

  /**
   * Returns the next parsed block in input order, waiting for it; {@link #END} at the end of the
   * input.
   *
   * @throws IOException if reading failed (the message names the offset)
   * @throws InterruptedException if interrupted while waiting
   */
  ParsedBlock next() throws IOException, InterruptedException {
    CompletableFuture<ParsedBlock> head = ahead.take();
    try {
      ParsedBlock b = head.get();
      if (b == END) {
        ahead.put(head); // stays at the end for later calls
      }
      return b;
    } catch (java.util.concurrent.ExecutionException e) {
      Throwable c = e.getCause();
      ahead.put(head);
      if (c instanceof IOException io) {
        throw io;
      }
      if (c instanceof java.io.UncheckedIOException u) {
        throw u.getCause();
      }
      throw new IOException(String.valueOf(c.getMessage()), c);
    }
  }

  /**
   * Takes back a block {@link #next()} returned once nothing refers to it any more (its rows
   * are pushed, its bytes not kept for a replay): a later block reuses its arrays.
   */
  void recycle(ParsedBlock b) {
    if (b != END && spare != null) {
      spare.offer(b); // when full (it should not be), the block is left to the collector
    }
  }

  private void read(long offset, long lines) {
    LineBuffer buf = new LineBuffer(in, spare);
    try {
      while (!closed) {
        ParsedBlock block = buf.block(offset, lines, blockRows);
        if (block == null) {
          ahead.put(CompletableFuture.completedFuture(END));
          return;
        }
        offset = block.end;
        lines += buf.lastLines;
        ahead.put(CompletableFuture.supplyAsync(() -> parse.apply(block), pool));
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (IOException | RuntimeException e) {
      CompletableFuture<ParsedBlock> failed = new CompletableFuture<>();
      failed.completeExceptionally(e instanceof IOException ? e
          : new IOException("cannot read the input: " + e, e));
      try {
        ahead.put(failed);
      } catch (InterruptedException ie) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /** Stops reading ahead and the parser threads; closes the input. */
  @Override
  public void close() throws IOException {
    closed = true;
    reader.interrupt();
    pool.shutdownNow();
    ahead.clear();
    in.close();
  }

  /** Returns the index of the first {@code '\n'} in {@code buf[from, to)}, or {@code to}. */
  static int newline(byte[] buf, int from, int to) {
    int i = ByteWords.indexOf(buf, (byte) '\n', from, to);
    return i < 0 ? to : i;
  }

  /** Returns whether {@code buf[from, to)} holds only blanks; a JSON line's first byte says no. */
  static boolean blank(byte[] buf, int from, int to) {
    for (int i = from; i < to; i++) {
      byte c = buf[i];
      if (c != ' ' && c != '\t' && c != '\r') {
        return false;
      }
    }
    return true;
  }

  /**
   * The read buffer: cuts whole lines out of the stream into blocks, each with its own array of
   * its bytes. With blocks to reuse, the input is read straight into the array of the block being
   * cut, and only the bytes read past its last line are copied (to the next block's array);
   * otherwise (stdin, whose blocks are kept for replays) each block gets a copy of its bytes in
   * an array of their length.
   */
  static final class LineBuffer {
    /** The bytes of a block made to be reused: a whole block and a long line more. */
    static final int REUSED_BYTES = BLOCK_BYTES + (BLOCK_BYTES >> 3);
    /**
     * Reads into a reused block's array stop this far past {@link #BLOCK_BYTES} (unless a line
     * needs more), so that little is read past the line that ends the block.
     */
    static final int READ_PAST = 16 << 10;

    /** The longest line accepted; a longer one is an {@link IOException} naming its offset. */
    static final int MAX_LINE_BYTES = 256 << 20;

    private final InputStream in;
    /** Blocks to reuse, or {@code null} to make every block anew. */
    private final BlockingQueue<ParsedBlock> spare;
    /** With {@link #spare}: the block whose array {@link #buf} is, cut next. */
    private ParsedBlock pending;
    private byte[] buf;
    private int pos;
    private int limit;
    private boolean eof;
    /** Lines in the block {@link #block} returned last. */
    long lastLines;
    /** Where each line of the block being cut ends, from its start (see {@link #block}). */
    private int[] ends = new int[1024];

    LineBuffer(InputStream in, BlockingQueue<ParsedBlock> spare) {
      this.in = in;
      this.spare = spare;
      if (spare != null) {
        pending = new ParsedBlock(0, 0, 0, new byte[REUSED_BYTES]);
        buf = pending.bytes;
      } else {
        buf = new byte[1 << 20];
      }
    }

    /**
     * Returns the next block of up to {@code maxRows} non-blank lines starting at input offset
     * {@code offset}, or {@code null} at the end of the input. Ends the block early when the
     * stream has nothing ready and the block holds a line, and after the line that takes it to
     * {@link #BLOCK_BYTES}.
     */
    ParsedBlock block(long offset, long linesBefore, int maxRows) throws IOException {
      int start = pos;
      int scan = pos;
      int rows = 0;
      long lines = 0;
      int lineStart = pos;
      while (true) {
        while (scan < limit && rows < maxRows && (lines == 0 || scan - start < BLOCK_BYTES)) {
          int nl = scan;
          byte[] b = buf;
          int lim = limit;
          nl = newline(b, nl, lim);
          if (nl == lim) {
            scan = lim; // a partial line: read more, then look on from here
            break;
          }
          if (lines == ends.length) {
            ends = Arrays.copyOf(ends, ends.length * 2);
          }
          ends[(int) lines++] = nl - start;
          if (!blank(b, lineStart, nl)) {
            rows++;
          }
          scan = nl + 1;
          lineStart = scan;
        }
        // The byte bound ends a block only after a whole line: a line longer than the bound
        // (its start at scan's start, no newline yet) is read on to its end.
        if (rows >= maxRows || (lines > 0 && scan - start >= BLOCK_BYTES)) {
          break;
        }
        if (eof) {
          if (lineStart < limit) {
            if (lines == ends.length) {
              ends = Arrays.copyOf(ends, ends.length * 2);
            }
            ends[(int) lines++] = limit - start; // a last line without a newline
            lineStart = limit;
          }
          break;
        }
        if (lines > 0 && in.available() <= 0) {
          break; // the input pauses: hand on what is complete
        }
        // Keep the block's bytes; make room and read more.
        int keep = start;
        if (keep > 0) {
          System.arraycopy(buf, keep, buf, 0, limit - keep);
          limit -= keep;
          scan -= keep;
          lineStart -= keep;
          start = 0;
        }
        if (limit == buf.length) {
          if (buf.length >= MAX_LINE_BYTES + (1 << 20)) {
            throw new IOException("the line at byte offset " + (offset + lineStart)
                + " is longer than " + MAX_LINE_BYTES + " bytes");
          }
          buf = Arrays.copyOf(buf, buf.length * 2);
        }
        int room = buf.length - limit;
        if (spare != null && BLOCK_BYTES + READ_PAST - limit > 0) {
          room = Math.min(room, BLOCK_BYTES + READ_PAST - limit);
        }
        int n = in.read(buf, limit, room);
        if (n < 0) {
          eof = true;
        } else {
          limit += n;
        }
      }
      int endInBuf = lineStart;
      if (endInBuf == start && lines == 0) {
        pos = endInBuf;
        return null;
      }
      pos = endInBuf;
      lastLines = lines;
      int length = endInBuf - start;
      ParsedBlock b;
      if (spare != null) {
        // The block is the array read into (start is 0); what was read past its last line
        // starts the next block's array.
        b = pending;
        b.bytes = buf; // it may have grown for a long line
        b.reuse(offset, linesBefore, length);
        int rest = limit - endInBuf;
        ParsedBlock next = spare.poll();
        if (next == null || next.bytes.length < rest) {
          next = new ParsedBlock(0, 0, 0, new byte[Math.max(REUSED_BYTES, rest)]);
        }
        System.arraycopy(buf, endInBuf, next.bytes, 0, rest);
        pending = next;
        buf = next.bytes;
        limit = rest;
        pos = 0;
      } else {
        b = new ParsedBlock(offset, offset + length, linesBefore,
            Arrays.copyOfRange(buf, start, endInBuf));
      }
      b.lines = (int) lines; // sizes the parser's arrays; the parser sets it again
      // The newlines found here, so the parser need not look for them again (a last line
      // without one ends at the block's end).
      if (b.lineEnds != null && b.lineEnds.length >= lines) {
        System.arraycopy(ends, 0, b.lineEnds, 0, (int) lines);
      } else {
        b.lineEnds = Arrays.copyOf(ends, (int) lines);
      }
      return b;
    }
  }
}
