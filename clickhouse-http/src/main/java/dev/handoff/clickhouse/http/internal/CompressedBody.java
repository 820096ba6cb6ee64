package dev.handoff.clickhouse.http.internal;

import dev.handoff.api.Frame;
import dev.handoff.clickhouse.hash.CityHash;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.zip.Deflater;
import java.util.zip.GZIPOutputStream;

/**
 * An insert's body compressed: a list of read-only buffers (never one array of the whole body, so
 * no copy of it and no 2 GiB array limit) and their total length.
 *
 * <h2>ClickHouse's compressed blocks</h2>
 *
 * <p>{@link #blocks} cuts the frames' concatenated bytes into blocks of at most {@value
 * #BLOCK_SIZE} uncompressed bytes (1 MiB, the server's own {@code max_compress_block_size}; the
 * cut ignores frame boundaries, as the server reads one stream), and writes each block as
 *
 * <pre>
 * checksum      16 bytes  CityHash128 (v1.0.2) of the 9 header bytes and the payload,
 *                         low 64 bits then high 64 bits, each little-endian
 * method         1 byte   0x82 LZ4, 0x90 ZSTD
 * compressed     4 bytes  UInt32 LE: header (9) + payload
 * uncompressed   4 bytes  UInt32 LE: the block's bytes before compression
 * payload                 the codec's output
 * </pre>
 *
 * <p>The server reads such a body with the URL parameter {@code decompress=1}.
 *
 * @param buffers the body, in order; each a read-only view ready to be sent
 * @param length the total of the buffers' lengths
 */
record CompressedBody(List<ByteBuffer> buffers, long length) {
  /** The most uncompressed bytes in one block: 1 MiB. */
  static final int BLOCK_SIZE = 1 << 20;

  /** The checksum's length. */
  static final int CHECKSUM_SIZE = 16;

  /** The header after the checksum: the method byte and the two sizes. */
  static final int HEADER_SIZE = 9;

  /** The gzip path's buffers: 256 KiB each. */
  private static final int GZIP_BUFFER = 256 * 1024;

  /**
   * Compresses {@code frames} into ClickHouse's compressed blocks with {@code codec}. An empty
   * body gives no block at all.
   */
  static CompressedBody blocks(List<Frame> frames, long bytes, BlockCodec codec) {
    int count = (int) ((bytes + BLOCK_SIZE - 1) / BLOCK_SIZE);
    List<ByteBuffer> out = new ArrayList<>(count);
    if (bytes == 0) {
      return new CompressedBody(Collections.unmodifiableList(out), 0);
    }
    // Frames do not lend their arrays, and a block spans frames: each block's bytes are copied
    // into one staging array (a memory-speed copy next to the codec's work).
    byte[] staging = new byte[(int) Math.min(BLOCK_SIZE, bytes)];
    byte[] scratch = new byte[CHECKSUM_SIZE + HEADER_SIZE
        + codec.maxCompressedLength(staging.length)];
    long total = 0;
    int fill = 0;
    for (Frame f : frames) {
      ByteBuffer src = f.asReadOnlyBuffer();
      while (src.hasRemaining()) {
        int n = Math.min(src.remaining(), staging.length - fill);
        src.get(staging, fill, n);
        fill += n;
        if (fill == staging.length) {
          total += add(out, staging, fill, scratch, codec);
          fill = 0;
        }
      }
    }
    if (fill > 0) {
      total += add(out, staging, fill, scratch, codec);
    }
    return new CompressedBody(Collections.unmodifiableList(out), total);
  }

  /** Frames {@code length} bytes of {@code block} into {@code scratch}, adds a copy to {@code out}. */
  private static int add(List<ByteBuffer> out, byte[] block, int length, byte[] scratch,
      BlockCodec codec) {
    int frameLength = frame(block, length, scratch, codec);
    // The exact-size copy: the scratch array has room for the codec's worst case.
    out.add(ByteBuffer.wrap(Arrays.copyOf(scratch, frameLength)).asReadOnlyBuffer());
    return frameLength;
  }

  /**
   * Writes {@code length} bytes of {@code block} compressed with {@code codec} as one framed block
   * at the start of {@code target} (which must have room for the codec's worst case) and returns
   * the framed length: checksum, header and payload.
   */
  static int frame(byte[] block, int length, byte[] target, BlockCodec codec) {
    int payloadAt = CHECKSUM_SIZE + HEADER_SIZE;
    int payload = codec.compress(block, 0, length, target, payloadAt, target.length - payloadAt);
    target[CHECKSUM_SIZE] = codec.method();
    putIntLe(target, CHECKSUM_SIZE + 1, HEADER_SIZE + payload);
    putIntLe(target, CHECKSUM_SIZE + 5, length);
    CityHash.hash128(target, CHECKSUM_SIZE, HEADER_SIZE + payload, target, 0);
    return payloadAt + payload;
  }

  /**
   * Compresses {@code frames} as one gzip stream at the fastest level, into buffers of 256 KiB.
   */
  static CompressedBody gzip(List<Frame> frames) {
    BufferList out = new BufferList();
    try (GZIPOutputStream gz = new FastGzip(out)) {
      for (Frame f : frames) {
        f.writeTo(gz);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e); // the buffer list does not fail
    }
    return out.body();
  }

  private static void putIntLe(byte[] b, int at, int v) {
    b[at] = (byte) v;
    b[at + 1] = (byte) (v >>> 8);
    b[at + 2] = (byte) (v >>> 16);
    b[at + 3] = (byte) (v >>> 24);
  }

  /** gzip at the fastest level: the point is fewer bytes on the wire at little CPU. */
  private static final class FastGzip extends GZIPOutputStream {
    FastGzip(OutputStream out) throws IOException {
      super(out, 64 * 1024);
      def.setLevel(Deflater.BEST_SPEED);
    }
  }

  /** An output stream into a growing list of fixed-size arrays. */
  private static final class BufferList extends OutputStream {
    private final List<ByteBuffer> buffers = new ArrayList<>();
    private byte[] current;
    private int fill;
    private long length;

    @Override
    public void write(int b) {
      write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] b, int off, int len) {
      while (len > 0) {
        if (current == null || fill == current.length) {
          seal();
          current = new byte[GZIP_BUFFER];
        }
        int n = Math.min(len, current.length - fill);
        System.arraycopy(b, off, current, fill, n);
        fill += n;
        off += n;
        len -= n;
        length += n;
      }
    }

    private void seal() {
      if (current != null && fill > 0) {
        buffers.add(ByteBuffer.wrap(current, 0, fill).slice().asReadOnlyBuffer());
      }
      current = null;
      fill = 0;
    }

    CompressedBody body() {
      seal();
      return new CompressedBody(Collections.unmodifiableList(buffers), length);
    }
  }
}
