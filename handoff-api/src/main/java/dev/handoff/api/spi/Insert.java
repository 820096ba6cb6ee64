package dev.handoff.api.spi;

import dev.handoff.api.Frame;
import java.util.List;
import java.util.Objects;

/**
 * One insert a sink worker hands to an {@link InsertWriter}: the frames of one or more
 * consecutive chunks of one shard (or parts of one chunk, while isolating a rejected row), to be
 * written in order as one {@code INSERT}.
 *
 * @param shard the shard the frames belong to
 * @param firstSequence the seal sequence of the first chunk the frames come from
 * @param lastSequence the seal sequence of the last chunk the frames come from ({@code >=
 *     firstSequence})
 * @param frames the encoded bytes, in order; the body of the insert is their concatenation
 * @param rows how many rows the frames hold together (an estimate only for parts of a chunk
 *     that a writer split into frames of more than one row each)
 * @param bytes the sum of the frames' lengths
 * @param attempt which attempt at writing this insert this is, starting at 1
 */
public record Insert(
    int shard,
    long firstSequence,
    long lastSequence,
    List<Frame> frames,
    int rows,
    long bytes,
    int attempt) {

  /**
   * Validates the fields and copies the frame list.
   *
   * @throws IllegalArgumentException if a number is out of range, the frame list is empty, or
   *     {@code bytes} differs from the frames' total length
   */
  public Insert {
    Objects.requireNonNull(frames, "frames");
    frames = List.copyOf(frames);
    if (shard < 0 || firstSequence < 0 || lastSequence < firstSequence || rows < 0
        || attempt < 1) {
      throw new IllegalArgumentException(
          "shard " + shard + ", sequences " + firstSequence + ".." + lastSequence + ", rows "
              + rows + ", attempt " + attempt
              + " (expected: shard, sequences, rows >= 0, first <= last, attempt >= 1)");
    }
    if (frames.isEmpty()) {
      throw new IllegalArgumentException("an insert needs at least one frame");
    }
    long total = 0;
    for (Frame f : frames) {
      total += f.length();
    }
    if (total != bytes) {
      throw new IllegalArgumentException(
          "bytes " + bytes + " but the frames hold " + total + " bytes");
    }
  }

  /** Returns the same insert marked as attempt {@code attempt}. */
  public Insert withAttempt(int attempt) {
    return attempt == this.attempt
        ? this
        : new Insert(shard, firstSequence, lastSequence, frames, rows, bytes, attempt);
  }

  /** Returns the frames concatenated into one array: the body of the insert. */
  public byte[] body() {
    if (bytes > Integer.MAX_VALUE - 8) {
      throw new IllegalStateException("insert of " + bytes + " bytes does not fit in one array");
    }
    byte[] out = new byte[(int) bytes];
    int pos = 0;
    for (Frame f : frames) {
      f.copyTo(out, pos);
      pos += f.length();
    }
    return out;
  }

  @Override
  public String toString() {
    return "Insert{shard=" + shard + ", seq=" + firstSequence + ".." + lastSequence + ", frames="
        + frames.size() + ", rows=" + rows + ", bytes=" + bytes + ", attempt=" + attempt + '}';
  }
}
