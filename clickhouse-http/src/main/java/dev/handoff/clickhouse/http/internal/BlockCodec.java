package dev.handoff.clickhouse.http.internal;

import com.github.luben.zstd.ZstdCompressCtx;
import net.jpountz.lz4.LZ4Compressor;
import net.jpountz.lz4.LZ4Factory;

/**
 * A codec of ClickHouse's compressed block framing: its method byte and how it compresses one
 * block's payload. LZ4 is a raw LZ4 block ({@code LZ4_compress_default}, what the server's
 * {@code CompressionCodecLZ4} writes), ZSTD one whole zstd frame ({@code ZSTD_compress}).
 *
 * <p>A codec is opened per insert and closed after it; it is used by one thread at a time.
 */
abstract class BlockCodec implements AutoCloseable {
  /** The method byte of an LZ4 block. */
  static final byte LZ4_METHOD = (byte) 0x82;

  /** The method byte of a ZSTD block. */
  static final byte ZSTD_METHOD = (byte) 0x90;

  /** The library's fastest LZ4 compressor (JNI where it loads, else pure Java); stateless. */
  private static final LZ4Compressor LZ4 = LZ4Factory.fastestInstance().fastCompressor();

  /** Returns the method byte written before the sizes. */
  abstract byte method();

  /** Returns how many bytes compressing {@code length} bytes may take at most. */
  abstract int maxCompressedLength(int length);

  /**
   * Compresses {@code length} bytes of {@code src} from {@code srcOffset} into {@code dst} at
   * {@code dstOffset} (with {@code dstCapacity} bytes of room) and returns the compressed length.
   */
  abstract int compress(byte[] src, int srcOffset, int length, byte[] dst, int dstOffset,
      int dstCapacity);

  /** Frees what the codec holds outside the heap. */
  @Override
  public void close() {}

  /** Returns an LZ4 codec. */
  static BlockCodec lz4() {
    return new Lz4();
  }

  /**
   * Returns a ZSTD codec at {@code level}, with a compression context of its own (reused for
   * every block of the insert, freed by {@link #close()}).
   */
  static BlockCodec zstd(int level) {
    return new Zstd(level);
  }

  private static final class Lz4 extends BlockCodec {
    @Override
    byte method() {
      return LZ4_METHOD;
    }

    @Override
    int maxCompressedLength(int length) {
      return LZ4.maxCompressedLength(length);
    }

    @Override
    int compress(byte[] src, int srcOffset, int length, byte[] dst, int dstOffset,
        int dstCapacity) {
      return LZ4.compress(src, srcOffset, length, dst, dstOffset, dstCapacity);
    }
  }

  private static final class Zstd extends BlockCodec {
    private final ZstdCompressCtx context;

    Zstd(int level) {
      this.context = new ZstdCompressCtx().setLevel(level);
    }

    @Override
    byte method() {
      return ZSTD_METHOD;
    }

    @Override
    int maxCompressedLength(int length) {
      return Math.toIntExact(com.github.luben.zstd.Zstd.compressBound(length));
    }

    @Override
    int compress(byte[] src, int srcOffset, int length, byte[] dst, int dstOffset,
        int dstCapacity) {
      return context.compressByteArray(dst, dstOffset, dstCapacity, src, srcOffset, length);
    }

    @Override
    public void close() {
      context.close();
    }
  }
}
