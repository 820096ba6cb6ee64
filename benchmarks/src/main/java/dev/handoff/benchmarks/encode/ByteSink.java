package dev.handoff.benchmarks.encode;

import java.io.OutputStream;
import java.util.Arrays;

/**
 * A reusable, unsynchronized {@code ByteArrayOutputStream}: the sink the client-v2 and Jackson
 * contenders write into. Unlike {@link java.io.ByteArrayOutputStream} its writes take no lock,
 * so those contenders are not charged for a monitor our {@code ChunkBuffer} does not have.
 */
public final class ByteSink extends OutputStream {
  private byte[] bytes;
  private int length;

  /** Creates a sink with room for {@code capacity} bytes (it grows past that). */
  public ByteSink(int capacity) {
    this.bytes = new byte[Math.max(16, capacity)];
  }

  /** Forgets the written bytes, keeping the array. */
  public void reset() {
    length = 0;
  }

  /** Returns the number of bytes written since the last {@link #reset}. */
  public int size() {
    return length;
  }

  /** Returns a copy of the written bytes. */
  public byte[] toByteArray() {
    return Arrays.copyOf(bytes, length);
  }

  @Override
  public void write(int b) {
    if (length == bytes.length) {
      grow(1);
    }
    bytes[length++] = (byte) b;
  }

  @Override
  public void write(byte[] src, int offset, int len) {
    if (len > bytes.length - length) {
      grow(len);
    }
    System.arraycopy(src, offset, bytes, length, len);
    length += len;
  }

  private void grow(int extra) {
    bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, length + extra));
  }
}
