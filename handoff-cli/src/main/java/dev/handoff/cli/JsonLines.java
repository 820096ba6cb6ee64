package dev.handoff.cli;

import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;

/**
 * Splits a byte stream into lines and knows the byte offset at which each line ends, for
 * checkpoints: the offset after a line's {@code \n} is where reading starts again after it.
 *
 * <p>A line is the bytes up to a {@code \n} (a {@code \r} before it is dropped), or the last
 * bytes of the stream when they do not end with one. The line's bytes stay valid until the next
 * call to {@link #next()}: they live in the reader's own buffer, so reading costs no allocation
 * per line. Not thread-safe.
 */
final class JsonLines implements AutoCloseable {

  /** The longest line accepted; a longer one is an {@link IOException} naming its offset. */
  static final int MAX_LINE_BYTES = 256 << 20;

  private final InputStream in;
  private byte[] buf;
  /** The stream offset of {@code buf[0]}. */
  private long base;
  private int pos;
  private int limit;
  private boolean eof;

  private int lineStart;
  private int lineLength;
  private long lineEnd;

  /**
   * Creates a reader.
   *
   * @param in the stream, positioned at {@code startOffset}
   * @param startOffset the offset of the stream's first byte in the input (where a resume
   *     started), so that {@link #endOffset()} is an offset in the whole input
   */
  JsonLines(InputStream in, long startOffset) {
    this(in, startOffset, 1 << 16);
  }

  JsonLines(InputStream in, long startOffset, int bufferSize) {
    this.in = in;
    this.base = startOffset;
    this.lineEnd = startOffset;
    this.buf = new byte[Math.max(16, bufferSize)];
  }

  /**
   * Reads the next line.
   *
   * @return {@code false} at the end of the stream
   * @throws IOException if reading fails or a line is longer than {@link #MAX_LINE_BYTES}
   */
  boolean next() throws IOException {
    int scanFrom = pos;
    while (true) {
      for (int i = scanFrom; i < limit; i++) {
        if (buf[i] == '\n') {
          setLine(pos, i, i + 1);
          return true;
        }
      }
      scanFrom = limit;
      if (eof) {
        if (pos < limit) {
          setLine(pos, limit, limit);
          return true;
        }
        return false;
      }
      scanFrom -= pos;
      fill();
      scanFrom += pos;
    }
  }

  /**
   * Returns whether {@link #next()} can return without waiting for the stream: a whole line is
   * buffered, the stream ended, or it has bytes ready. A slow pipe (say {@code tail -f}) is not
   * ready between its writes; the source then seals what it has instead of holding it.
   *
   * @throws IOException if the stream cannot say
   */
  boolean ready() throws IOException {
    for (int i = pos; i < limit; i++) {
      if (buf[i] == '\n') {
        return true;
      }
    }
    return eof || in.available() > 0;
  }

  private void setLine(int start, int newline, int next) {
    int end = newline;
    if (end > start && newline < limit && buf[end - 1] == '\r') {
      end--;
    }
    lineStart = start;
    lineLength = end - start;
    pos = next;
    lineEnd = base + next;
  }

  /** Moves the unread bytes to the front, grows the buffer if full, and reads more. */
  private void fill() throws IOException {
    if (pos > 0) {
      System.arraycopy(buf, pos, buf, 0, limit - pos);
      base += pos;
      limit -= pos;
      pos = 0;
    }
    if (limit == buf.length) {
      if (buf.length >= MAX_LINE_BYTES) {
        throw new IOException("the line at byte offset " + base + " is longer than "
            + MAX_LINE_BYTES + " bytes");
      }
      buf = Arrays.copyOf(buf, Math.min(MAX_LINE_BYTES, buf.length * 2));
    }
    int n = in.read(buf, limit, buf.length - limit);
    if (n < 0) {
      eof = true;
    } else {
      limit += n;
    }
  }

  /** Returns the buffer holding the current line (shared; valid until {@link #next()}). */
  byte[] buffer() {
    return buf;
  }

  /** Returns where the current line starts in {@link #buffer()}. */
  int lineStart() {
    return lineStart;
  }

  /** Returns the current line's length, without its {@code \n} or {@code \r\n}. */
  int lineLength() {
    return lineLength;
  }

  /** Returns whether the current line holds only blanks. */
  boolean isBlank() {
    for (int i = lineStart; i < lineStart + lineLength; i++) {
      byte b = buf[i];
      if (b != ' ' && b != '\t' && b != '\r') {
        return false;
      }
    }
    return true;
  }

  /**
   * Returns the input offset just after the current line (after its {@code \n}): where reading
   * resumes once this line is done. Before the first line, the start offset.
   */
  long endOffset() {
    return lineEnd;
  }

  @Override
  public void close() throws IOException {
    in.close();
  }
}
