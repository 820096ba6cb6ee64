package dev.handoff.api;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * An immutable run of encoded bytes, split off a {@link ChunkBuffer}.
 *
 * <p>The frame owns the array it was split from; nothing writes to it afterwards, so it can be
 * read from any thread once published.
 */
public final class Frame {
  private static final Frame EMPTY = new Frame(new byte[0], 0);

  private final byte[] bytes;
  private final int length;

  Frame(byte[] bytes, int length) {
    this.bytes = bytes;
    this.length = length;
  }

  /** Returns a frame holding a copy of {@code bytes}. */
  public static Frame copyOf(byte[] bytes) {
    return bytes.length == 0 ? EMPTY : new Frame(bytes.clone(), bytes.length);
  }

  /** Returns the empty frame. */
  public static Frame empty() {
    return EMPTY;
  }

  /** Returns the number of bytes. */
  public int length() {
    return length;
  }

  /** Returns the byte at {@code index}. */
  public byte byteAt(int index) {
    if (index < 0 || index >= length) {
      throw new IndexOutOfBoundsException("index " + index + ", length " + length);
    }
    return bytes[index];
  }

  /** Returns a read-only view of the bytes, without copying. */
  public ByteBuffer asReadOnlyBuffer() {
    return ByteBuffer.wrap(bytes, 0, length).slice().asReadOnlyBuffer();
  }

  /** Copies the bytes into {@code dest} at {@code offset}. */
  public void copyTo(byte[] dest, int offset) {
    System.arraycopy(bytes, 0, dest, offset, length);
  }

  /** Writes the bytes to {@code out}. */
  public void writeTo(OutputStream out) throws IOException {
    out.write(bytes, 0, length);
  }

  /** Returns a copy of the bytes. */
  public byte[] toByteArray() {
    return Arrays.copyOf(bytes, length);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Frame f
        && Arrays.equals(bytes, 0, length, f.bytes, 0, f.length);
  }

  @Override
  public int hashCode() {
    int h = 1;
    for (int i = 0; i < length; i++) {
      h = 31 * h + bytes[i];
    }
    return h;
  }

  @Override
  public String toString() {
    return "Frame{" + length + " bytes}";
  }
}
