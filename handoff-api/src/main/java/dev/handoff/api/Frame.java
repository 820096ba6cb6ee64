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
 *
 * <h2>Lifetime</h2>
 *
 * <p>A frame split from a buffer with a {@link ByteArrayPool} holds an array lent by that pool.
 * Whoever settles the frame's chunk (the sink worker, after the chunk was written or given up;
 * the stage, for a chunk it fails at teardown) calls {@link #release()} once, after the last
 * read: the array goes back to the pool and will hold another chunk. Every read of a released
 * frame throws {@link IllegalStateException}, so a use after release fails loudly instead of
 * reading another chunk's bytes. A frame without a pool may be released too (nothing is given
 * back), and needs not be.
 */
public final class Frame {
  private static final Frame EMPTY = new Frame(new byte[0], 0, null);

  private final byte[] bytes;
  private final int length;
  private final ByteArrayPool pool;
  private volatile boolean released;

  Frame(byte[] bytes, int length, ByteArrayPool pool) {
    this.bytes = bytes;
    this.length = length;
    this.pool = pool;
  }

  /**
   * Returns what the frame weighs in memory and in the in-flight budget: the size of its pooled
   * array (which it holds whole until released), or its length when it has no pool.
   */
  public int chargedBytes() {
    return pool != null ? bytes.length : length;
  }

  /** Returns whether the frame's array was lent by a {@link ByteArrayPool}. */
  public boolean isPooled() {
    return pool != null;
  }

  /**
   * Ends the frame's life: gives a pooled array back to its pool. Reads after this throw.
   *
   * @throws IllegalStateException if the frame was released already
   */
  public void release() {
    if (this == EMPTY) {
      return;
    }
    synchronized (this) {
      if (released) {
        throw new IllegalStateException("frame of " + length + " bytes released twice");
      }
      released = true;
    }
    if (pool != null) {
      pool.give(bytes);
    }
  }

  /** Returns whether {@link #release()} was called. */
  public boolean isReleased() {
    return released;
  }

  private byte[] bytes() {
    if (released) {
      throw new IllegalStateException("frame of " + length + " bytes read after its release:"
          + " its array may hold another chunk now");
    }
    return bytes;
  }

  /** Returns a frame holding a copy of {@code bytes}. */
  public static Frame copyOf(byte[] bytes) {
    return bytes.length == 0 ? EMPTY : new Frame(bytes.clone(), bytes.length, null);
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
    return bytes()[index];
  }

  /** Returns a read-only view of the bytes, without copying. */
  public ByteBuffer asReadOnlyBuffer() {
    return ByteBuffer.wrap(bytes(), 0, length).slice().asReadOnlyBuffer();
  }

  /** Copies the bytes into {@code dest} at {@code offset}. */
  public void copyTo(byte[] dest, int offset) {
    System.arraycopy(bytes(), 0, dest, offset, length);
  }

  /** Writes the bytes to {@code out}. */
  public void writeTo(OutputStream out) throws IOException {
    out.write(bytes(), 0, length);
  }

  /** Returns a copy of the bytes. */
  public byte[] toByteArray() {
    return Arrays.copyOf(bytes(), length);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Frame f
        && Arrays.equals(bytes(), 0, length, f.bytes(), 0, f.length);
  }

  @Override
  public int hashCode() {
    int h = 1;
    byte[] b = bytes();
    for (int i = 0; i < length; i++) {
      h = 31 * h + b[i];
    }
    return h;
  }

  @Override
  public String toString() {
    return "Frame{" + length + " bytes" + (pool != null ? ", pooled" : "")
        + (released ? ", released" : "") + '}';
  }
}
