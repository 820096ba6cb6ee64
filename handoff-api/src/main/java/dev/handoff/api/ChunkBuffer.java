package dev.handoff.api;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.Objects;

/**
 * A growable byte buffer with little-endian writes, into which encoders write rows.
 *
 * <p>Writes never allocate once the buffer has grown to its working size. {@link #truncate} rolls
 * a partly written row back. {@link #split} hands the written bytes to an immutable {@link Frame}
 * without copying and starts a fresh array of the initial capacity (from a {@link
 * ByteArrayPool}, when the buffer has one), so the next chunk fills a target-sized array instead
 * of regrowing from zero.
 *
 * <p><b>Threading:</b> not thread-safe; a buffer belongs to one shard on the pipeline thread.
 */
public final class ChunkBuffer {
  private static final VarHandle SHORT_LE =
      MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.LITTLE_ENDIAN);
  private static final VarHandle INT_LE =
      MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
  private static final VarHandle LONG_LE =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

  /** Arrays larger than this cannot be allocated on some JVMs. */
  private static final int MAX_CAPACITY = Integer.MAX_VALUE - 8;

  private final int initialCapacity;
  /** Lends the arrays, or null: then every split allocates the next array. */
  private final ByteArrayPool pool;
  private byte[] bytes;
  private int length;

  /**
   * Creates a buffer.
   *
   * @param initialCapacity the size of the array allocated now and after every {@link #split};
   *     the chunk target plus room for the row that crosses it is the right value (see {@code
   *     ChunkPool.arrayLengthFor} in handoff-core). Must be {@code > 0}.
   */
  public ChunkBuffer(int initialCapacity) {
    if (initialCapacity <= 0) {
      throw new IllegalArgumentException(
          "initialCapacity : " + initialCapacity + " (expected: > 0)");
    }
    this.initialCapacity = initialCapacity;
    this.pool = null;
    this.bytes = new byte[initialCapacity];
  }

  /**
   * Creates a buffer that fills arrays lent by {@code pool}: a {@link #split} hands the array to
   * the frame (which gives it back when released) and takes the next one from the pool. A row
   * larger than the pool's arrays still fits: the buffer grows into an array of its own (the
   * pooled one goes back at once), and that chunk's frame is not pooled.
   */
  public ChunkBuffer(ByteArrayPool pool) {
    this.pool = Objects.requireNonNull(pool, "pool");
    this.initialCapacity = pool.arrayLength();
    this.bytes = pool.take();
  }

  /** Returns the number of bytes written since the last split. */
  public int length() {
    return length;
  }

  /** Returns the size of the current backing array. */
  public int capacity() {
    return bytes.length;
  }

  /**
   * Discards every byte from {@code newLength} on: rolls a partly written row back to where it
   * started.
   *
   * @throws IndexOutOfBoundsException if {@code newLength} is negative or beyond {@link #length()}
   */
  public void truncate(int newLength) {
    if (newLength < 0 || newLength > length) {
      throw new IndexOutOfBoundsException(
          "truncate to " + newLength + " (expected: 0.." + length + ")");
    }
    length = newLength;
  }

  /**
   * Returns the written bytes as a frame and empties the buffer. The frame takes the current
   * array; the buffer continues in a fresh array of the initial capacity.
   */
  public Frame split() {
    if (length == 0) {
      if (bytes.length != initialCapacity) {
        bytes = fresh(); // a rolled-back large row must not pin a big array
      }
      return Frame.empty();
    }
    boolean pooled = pool != null && bytes.length == initialCapacity;
    Frame frame = new Frame(bytes, length, pooled ? pool : null);
    bytes = fresh();
    length = 0;
    return frame;
  }

  private byte[] fresh() {
    return pool != null ? pool.take() : new byte[initialCapacity];
  }

  /**
   * Gives the buffer's array back to its pool (if it has one) and empties the buffer: a stage
   * calls it at teardown, after the last split. The buffer must not be written afterwards.
   */
  public void release() {
    byte[] b = bytes;
    bytes = new byte[0];
    length = 0;
    if (pool != null && b.length == initialCapacity) {
      pool.give(b);
    }
  }

  /**
   * Makes room for {@code extra} more bytes, growing the array if needed.
   *
   * @throws IllegalStateException if the buffer would exceed the largest array size
   */
  public void ensureWritable(int extra) {
    if (extra < 0) {
      throw new IllegalArgumentException("extra : " + extra + " (expected: >= 0)");
    }
    int needed = length + extra;
    if (needed - bytes.length > 0 || needed < 0) {
      grow(extra);
    }
  }

  /** Grows the array to hold {@code extra} more bytes and returns the new array. */
  private byte[] grow(int extra) {
    long needed = (long) length + extra;
    if (extra < 0 || needed > MAX_CAPACITY) {
      throw new IllegalStateException(
          "chunk buffer cannot hold " + needed + " bytes (length " + length + ", extra " + extra
              + ", max " + MAX_CAPACITY + ")");
    }
    long doubled = Math.max((long) bytes.length * 2, needed);
    byte[] old = bytes;
    bytes = Arrays.copyOf(old, (int) Math.min(doubled, MAX_CAPACITY));
    if (pool != null && old.length == initialCapacity) {
      pool.give(old); // copied out: the pooled array goes back at once
    }
    return bytes;
  }

  /*
   * The fixed-width writes test the room left with one comparison (length <= bytes.length, so
   * bytes.length - length cannot overflow) and keep the position in a local: the encoders call
   * them once per value, and this is most of what a value costs them.
   */

  /** Appends one byte. */
  public void writeByte(int value) {
    int pos = length;
    byte[] b = bytes;
    if (b.length == pos) {
      b = grow(1);
    }
    b[pos] = (byte) value;
    length = pos + 1;
  }

  /** Appends a 16-bit value, little-endian. */
  public void writeShortLE(int value) {
    int pos = length;
    byte[] b = bytes;
    if (b.length - pos < 2) {
      b = grow(2);
    }
    SHORT_LE.set(b, pos, (short) value);
    length = pos + 2;
  }

  /** Appends a 32-bit value, little-endian. */
  public void writeIntLE(int value) {
    int pos = length;
    byte[] b = bytes;
    if (b.length - pos < 4) {
      b = grow(4);
    }
    INT_LE.set(b, pos, value);
    length = pos + 4;
  }

  /** Appends a 64-bit value, little-endian. */
  public void writeLongLE(long value) {
    int pos = length;
    byte[] b = bytes;
    if (b.length - pos < 8) {
      b = grow(8);
    }
    LONG_LE.set(b, pos, value);
    length = pos + 8;
  }

  /** Appends a 32-bit IEEE 754 value, little-endian (NaN bits preserved). */
  public void writeFloatLE(float value) {
    writeIntLE(Float.floatToRawIntBits(value));
  }

  /** Appends a 64-bit IEEE 754 value, little-endian (NaN bits preserved). */
  public void writeDoubleLE(double value) {
    writeLongLE(Double.doubleToRawLongBits(value));
  }

  /**
   * Appends {@code value} as an unsigned LEB128 varint (7 bits per byte, low bits first), the
   * length prefix ClickHouse uses for strings, arrays and counts.
   */
  public void writeVarUInt(long value) {
    ensureWritable(10);
    byte[] b = bytes;
    int pos = length;
    while ((value & ~0x7FL) != 0) {
      b[pos++] = (byte) ((value & 0x7F) | 0x80);
      value >>>= 7;
    }
    b[pos++] = (byte) value;
    length = pos;
  }

  /** Returns how many bytes {@link #writeVarUInt} writes for {@code value}. */
  public static int varUIntSize(long value) {
    int bits = 64 - Long.numberOfLeadingZeros(value | 1);
    return (bits + 6) / 7;
  }

  /** Appends {@code len} bytes of {@code src} from {@code offset}. */
  public void writeBytes(byte[] src, int offset, int len) {
    ensureWritable(len);
    System.arraycopy(src, offset, bytes, length, len);
    length += len;
  }

  /** Appends all of {@code src}. */
  public void writeBytes(byte[] src) {
    writeBytes(src, 0, src.length);
  }

  /** Appends {@code count} zero bytes. */
  public void writeZeros(int count) {
    ensureWritable(count);
    Arrays.fill(bytes, length, length + count, (byte) 0);
    length += count;
  }

  /** Appends the bytes of another buffer. */
  public void writeBuffer(ChunkBuffer src) {
    writeBytes(src.bytes, 0, src.length);
  }

  /** Appends the bytes of a frame. */
  public void writeFrame(Frame frame) {
    ensureWritable(frame.length());
    frame.copyTo(bytes, length);
    length += frame.length();
  }

  /**
   * Appends {@code text} encoded as UTF-8, without an intermediate array. Unpaired surrogates
   * become {@code '?'}, as {@link String#getBytes(java.nio.charset.Charset)} does.
   *
   * @return the number of bytes written
   */
  public int writeUtf8(CharSequence text) {
    int n = text.length();
    // Up to 3 bytes per char; long texts are measured exactly so they don't triple the buffer.
    ensureWritable(n <= 4096 ? n * 3 : utf8Length(text));
    byte[] b = bytes;
    int start = length;
    // ASCII first, in a loop that does nothing else (the JIT unrolls it); the general loop takes
    // over at the first other char.
    int i = 0;
    for (; i < n; i++) {
      char c = text.charAt(i);
      if (c >= 0x80) {
        break;
      }
      b[start + i] = (byte) c;
    }
    int pos = start + i;
    for (; i < n; i++) {
      char c = text.charAt(i);
      if (c < 0x80) {
        b[pos++] = (byte) c;
      } else if (c < 0x800) {
        b[pos++] = (byte) (0xC0 | (c >> 6));
        b[pos++] = (byte) (0x80 | (c & 0x3F));
      } else if (Character.isSurrogate(c)) {
        char d;
        if (Character.isHighSurrogate(c) && i + 1 < n
            && Character.isLowSurrogate(d = text.charAt(i + 1))) {
          int cp = Character.toCodePoint(c, d);
          i++;
          b[pos++] = (byte) (0xF0 | (cp >> 18));
          b[pos++] = (byte) (0x80 | ((cp >> 12) & 0x3F));
          b[pos++] = (byte) (0x80 | ((cp >> 6) & 0x3F));
          b[pos++] = (byte) (0x80 | (cp & 0x3F));
        } else {
          b[pos++] = (byte) '?';
        }
      } else {
        b[pos++] = (byte) (0xE0 | (c >> 12));
        b[pos++] = (byte) (0x80 | ((c >> 6) & 0x3F));
        b[pos++] = (byte) (0x80 | (c & 0x3F));
      }
    }
    length = pos;
    return pos - start;
  }

  /**
   * Appends {@code text} as ClickHouse writes a String: its UTF-8 byte count as a varint, then
   * its UTF-8 bytes (as {@link #writeUtf8}). Texts of fewer than 128 chars are encoded in one
   * pass: the count is written as one byte and patched after the text, which moves one byte on
   * in the rare case that the count needs two (128 to 381 bytes). Longer texts are measured
   * first with {@link #utf8Length}.
   *
   * @return the number of UTF-8 bytes written, without the count
   */
  public int writeUtf8WithLength(CharSequence text) {
    int chars = text.length();
    if (chars < 128 && Latin1Strings.ENABLED && text instanceof String
        && Latin1Strings.isLatin1((String) text)) {
      return writeLatin1WithLength((String) text, chars);
    }
    if (chars >= 128) {
      int n = utf8Length(text);
      writeVarUInt(n);
      writeUtf8(text);
      return n;
    }
    int at = length;
    writeByte(0);
    int n = writeUtf8(text);
    if (n < 128) {
      bytes[at] = (byte) n;
    } else {
      ensureWritable(1);
      System.arraycopy(bytes, at + 1, bytes, at + 2, n);
      bytes[at] = (byte) ((n & 0x7F) | 0x80);
      bytes[at + 1] = (byte) (n >>> 7);
      length++;
    }
    return n;
  }

  /**
   * Appends {@code text} as ClickHouse writes a short String, its length as one varint byte then
   * one byte per char, if it has at most 127 chars and every char is ASCII (then the chars are
   * its UTF-8 bytes), and returns true; otherwise writes nothing and returns false. The same bytes
   * as {@code writeVarUInt(n)} then {@link #writeAscii}, with one capacity check.
   *
   * @return whether {@code text} was short ASCII and was written
   */
  public boolean writeAsciiWithLength(String text) {
    int n = text.length();
    if (n > 127) {
      return false;
    }
    int pos = length;
    byte[] b = bytes;
    if (b.length - pos <= n) {
      b = grow(n + 1);
    }
    if (!Latin1Strings.copyIfAscii(text, n, b, pos + 1, Latin1Strings.ENABLED)) {
      return false;
    }
    b[pos] = (byte) n;
    length = pos + 1 + n;
    return true;
  }

  /**
   * {@link #writeUtf8WithLength} for a String of fewer than 128 chars stored one byte per char
   * (every char at most 0xFF, see {@link Latin1Strings}): copied in bulk, then widened in place
   * from its end, each byte from 0x80 on becoming its two UTF-8 bytes.
   */
  @SuppressWarnings("deprecation") // getBytes(int, int, byte[], int): exact for chars <= 0xFF
  private int writeLatin1WithLength(String text, int n) {
    int pos = length;
    byte[] b = bytes;
    if (b.length - pos < 2 * n + 2) {
      b = grow(2 * n + 2);
    }
    // The copy starts where a one-byte count ends; the widened text starts there or one byte on,
    // so every byte is read before the widening, which runs from the end, overwrites it.
    int src = pos + 1;
    text.getBytes(0, n, b, src);
    int wide = 0;
    for (int i = src; i < src + n; i++) {
      wide += b[i] >>> 31; // 1 for a byte from 0x80 on
    }
    int m = n + wide;
    int start = pos + (m < 128 ? 1 : 2);
    int d = start + m;
    for (int i = src + n - 1; i >= src; i--) {
      int x = b[i];
      if (x >= 0) {
        b[--d] = (byte) x;
      } else {
        b[--d] = (byte) (0x80 | (x & 0x3F));
        b[--d] = (byte) (0xC0 | ((x & 0xFF) >>> 6));
      }
    }
    if (m < 128) {
      b[pos] = (byte) m;
    } else {
      b[pos] = (byte) ((m & 0x7F) | 0x80);
      b[pos + 1] = (byte) (m >>> 7);
    }
    length = start + m;
    return m;
  }

  /**
   * Appends {@code text} as one byte per char if every char is ASCII (below {@code 0x80}), which
   * is then exactly its UTF-8 encoding, and returns true; otherwise writes nothing and returns
   * false. Faster than {@link #writeUtf8} for ASCII text: the chars are copied in bulk, and
   * checked 8 bytes at a time where the JVM lets the buffer see that the String stores one byte
   * per char (Java 17 to 23 with {@code jdk.unsupported}; see the module's description).
   *
   * @return whether {@code text} was ASCII and was written
   */
  public boolean writeAscii(String text) {
    int n = text.length();
    ensureWritable(n);
    if (!Latin1Strings.copyIfAscii(text, n, bytes, length, Latin1Strings.ENABLED)) {
      return false;
    }
    length += n;
    return true;
  }

  /** Returns how many bytes {@link #writeUtf8} writes for {@code text}. */
  public static int utf8Length(CharSequence text) {
    int n = text.length();
    int len = n;
    for (int i = 0; i < n; i++) {
      char c = text.charAt(i);
      if (c >= 0x80) {
        if (c < 0x800) {
          len += 1;
        } else if (Character.isHighSurrogate(c) && i + 1 < n
            && Character.isLowSurrogate(text.charAt(i + 1))) {
          len += 2; // 4 bytes for 2 chars
          i++;
        } else if (Character.isSurrogate(c)) {
          // '?' replaces it: one byte, already counted
        } else {
          len += 2;
        }
      }
    }
    return len;
  }

  /** Returns the byte at {@code index} (below {@link #length()}). */
  public byte getByte(int index) {
    checkIndex(index, 1);
    return bytes[index];
  }

  /** Overwrites the byte at {@code index}, below {@link #length()}. */
  public void setByte(int index, int value) {
    checkIndex(index, 1);
    bytes[index] = (byte) value;
  }

  /** Overwrites 4 bytes at {@code index} with a little-endian 32-bit value. */
  public void setIntLE(int index, int value) {
    checkIndex(index, 4);
    INT_LE.set(bytes, index, value);
  }

  /** Overwrites 8 bytes at {@code index} with a little-endian 64-bit value. */
  public void setLongLE(int index, long value) {
    checkIndex(index, 8);
    LONG_LE.set(bytes, index, value);
  }

  /** Returns a copy of the written bytes (for tests and diagnostics). */
  public byte[] toByteArray() {
    return Arrays.copyOf(bytes, length);
  }

  private void checkIndex(int index, int width) {
    if (index < 0 || index > length - width) {
      throw new IndexOutOfBoundsException(
          "index " + index + " width " + width + ", length " + length);
    }
  }

  @Override
  public String toString() {
    return "ChunkBuffer{length=" + length + ", capacity=" + bytes.length + '}';
  }
}
