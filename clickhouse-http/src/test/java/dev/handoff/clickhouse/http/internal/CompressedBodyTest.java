package dev.handoff.clickhouse.http.internal;

import static org.assertj.core.api.Assertions.assertThat;

import com.github.luben.zstd.Zstd;
import dev.handoff.api.Frame;
import dev.handoff.clickhouse.hash.CityHash;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.SplittableRandom;
import java.util.zip.GZIPInputStream;
import net.jpountz.lz4.LZ4Factory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The compressed block framing, read back with the codec libraries' own decompressors and an
 * independent parse of the header: every block's checksum, method, sizes and payload, for bodies
 * of every interesting size cut into frames at random places. The server's side is in
 * {@code CompressedInsertServerTest}.
 */
final class CompressedBodyTest {
  private static final int B = CompressedBody.BLOCK_SIZE;
  private static final int[] SIZES = {0, 1, 2, 15, 16, 17, 100, 4096, B - 1, B, B + 1,
      2 * B, 3 * B + 17};

  @ParameterizedTest
  @ValueSource(strings = {"lz4", "zstd"})
  void blocks_decodeToTheFramesBytes_forEveryBodySizeAndFrameCut(String method) {
    for (long seed = 1; seed <= 3; seed++) {
      for (int size : SIZES) {
        SplittableRandom random = new SplittableRandom(seed * 1000 + size);
        byte[] body = bytes(random, size, seed % 2 == 0);
        List<Frame> frames = cut(random, body);
        String what = method + ", seed " + seed + ", " + size + " bytes in " + frames.size()
            + " frames";
        try (BlockCodec codec = codec(method)) {
          CompressedBody compressed = CompressedBody.blocks(frames, size, codec);

          assertThat(decode(compressed, codec.method(), what)).as(what).isEqualTo(body);
          assertThat(compressed.buffers()).as(what).hasSize((size + B - 1) / B);
        }
      }
    }
  }

  @Test
  void blocks_ofCompressibleData_areSmallerThanTheData_andZstdBeatsLz4() {
    byte[] body = bytes(new SplittableRandom(7), 3 * B, true);
    long lz4;
    long zstd;
    try (BlockCodec codec = BlockCodec.lz4()) {
      lz4 = CompressedBody.blocks(List.of(Frame.copyOf(body)), body.length, codec).length();
    }
    try (BlockCodec codec = BlockCodec.zstd(3)) {
      zstd = CompressedBody.blocks(List.of(Frame.copyOf(body)), body.length, codec).length();
    }

    assertThat(lz4).isLessThan(body.length / 2);
    assertThat(zstd).isLessThan(lz4);
  }

  @Test
  void blocks_areWrittenWhole_everyTime() throws Exception {
    byte[] body = bytes(new SplittableRandom(3), 2 * B + 5, true);
    CompressedBody compressed;
    try (BlockCodec codec = BlockCodec.lz4()) {
      compressed = CompressedBody.blocks(List.of(Frame.copyOf(body)), body.length, codec);
    }
    Http1Client.Body request = Bodies.ofBuffers(compressed.buffers(), compressed.length());

    ByteArrayOutputStream first = new ByteArrayOutputStream();
    request.writeTo(first);
    ByteArrayOutputStream second = new ByteArrayOutputStream();
    request.writeTo(second);

    assertThat(request.length()).isEqualTo(compressed.length());
    assertThat(first.toByteArray()).hasSize((int) compressed.length())
        .isEqualTo(second.toByteArray());
    assertThat(decode(compressed, BlockCodec.LZ4_METHOD, "written twice")).isEqualTo(body);
  }

  /**
   * A body over 2 GiB (one 64 MiB frame of zeros, listed 33 times: little memory) frames without
   * an int overflow anywhere: the lengths are longs, every block holds 1 MiB but the last, and
   * the headers' uncompressed sizes add up to the body's length.
   */
  @Test
  void blocks_ofABodyOver2GiB_haveLongLengthsAndWholeBlocks() {
    Frame zeros = Frame.copyOf(new byte[64 << 20]);
    List<Frame> frames = Collections.nCopies(33, zeros);
    long bytes = 33L * zeros.length();
    assertThat(bytes).isGreaterThan(Integer.MAX_VALUE);
    CompressedBody compressed;
    try (BlockCodec codec = BlockCodec.lz4()) {
      compressed = CompressedBody.blocks(frames, bytes, codec);
    }

    assertThat(compressed.buffers()).hasSize((int) (bytes / B));
    long uncompressed = 0;
    long total = 0;
    for (ByteBuffer b : compressed.buffers()) {
      uncompressed += b.duplicate().order(ByteOrder.LITTLE_ENDIAN).getInt(21);
      total += b.remaining();
    }
    assertThat(uncompressed).isEqualTo(bytes);
    assertThat(total).isEqualTo(compressed.length());
    CompressedBody last = new CompressedBody(
        compressed.buffers().subList(compressed.buffers().size() - 1, compressed.buffers().size()),
        compressed.buffers().get(compressed.buffers().size() - 1).remaining());
    assertThat(decode(last, BlockCodec.LZ4_METHOD, "the last block")).isEqualTo(new byte[B]);
  }

  @Test
  void gzip_decodesToTheFramesBytes_acrossItsBuffers() throws IOException {
    for (int size : SIZES) {
      SplittableRandom random = new SplittableRandom(size);
      byte[] body = bytes(random, size, true);
      CompressedBody compressed = CompressedBody.gzip(cut(random, body));

      List<InputStream> parts = new ArrayList<>();
      long total = 0;
      for (ByteBuffer b : compressed.buffers()) {
        byte[] a = new byte[b.remaining()];
        b.duplicate().get(a);
        parts.add(new java.io.ByteArrayInputStream(a));
        total += a.length;
      }
      assertThat(total).isEqualTo(compressed.length());
      try (InputStream in = new GZIPInputStream(
          new SequenceInputStream(Collections.enumeration(parts)))) {
        assertThat(in.readAllBytes()).as(size + " bytes").isEqualTo(body);
      }
    }
  }

  /**
   * Parses the body block by block as the server does (CompressedReadBuffer): checks each
   * checksum, method byte and size, and decompresses the payload with the codec library.
   */
  static byte[] decode(CompressedBody compressed, byte method, String what) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    long total = 0;
    List<ByteBuffer> buffers = compressed.buffers();
    for (int i = 0; i < buffers.size(); i++) {
      ByteBuffer b = buffers.get(i).duplicate().order(ByteOrder.LITTLE_ENDIAN);
      byte[] block = new byte[b.remaining()];
      b.get(block);
      total += block.length;
      ByteBuffer h = ByteBuffer.wrap(block).order(ByteOrder.LITTLE_ENDIAN);
      long low = h.getLong(0);
      long high = h.getLong(8);
      int compressedSize = h.getInt(17);
      int uncompressedSize = h.getInt(21);
      String at = what + ", block " + i;
      assertThat(block[16]).as(at + ": method").isEqualTo(method);
      assertThat(compressedSize).as(at + ": compressed size").isEqualTo(block.length - 16);
      assertThat(uncompressedSize).as(at + ": uncompressed size")
          .isBetween(1, CompressedBody.BLOCK_SIZE);
      if (i < buffers.size() - 1) {
        assertThat(uncompressedSize).as(at + ": a full block").isEqualTo(CompressedBody.BLOCK_SIZE);
      }
      var hash = CityHash.hash128(block, 16, compressedSize);
      assertThat(low).as(at + ": checksum low").isEqualTo(hash.low());
      assertThat(high).as(at + ": checksum high").isEqualTo(hash.high());
      byte[] plain = new byte[uncompressedSize];
      if (method == BlockCodec.LZ4_METHOD) {
        int read = LZ4Factory.safeInstance().safeDecompressor()
            .decompress(block, 25, compressedSize - 9, plain, 0);
        assertThat(read).as(at + ": LZ4 output").isEqualTo(uncompressedSize);
      } else {
        long read = Zstd.decompressByteArray(plain, 0, plain.length, block, 25,
            compressedSize - 9);
        assertThat(read).as(at + ": ZSTD output").isEqualTo(uncompressedSize);
      }
      out.writeBytes(plain);
    }
    assertThat(total).as(what + ": length").isEqualTo(compressed.length());
    return out.toByteArray();
  }

  private static BlockCodec codec(String method) {
    return method.equals("lz4") ? BlockCodec.lz4() : BlockCodec.zstd(1);
  }

  /** Random bytes, or text-like bytes that compress (words of a small vocabulary). */
  static byte[] bytes(SplittableRandom random, int size, boolean compressible) {
    byte[] b = new byte[size];
    if (!compressible) {
      random.nextBytes(b);
      return b;
    }
    String[] words = {"shard ", "insert ", "block ", "frame ", "chunk ", "row ", "42 ", "1970 ",
        "ClickHouse ", "handoff "};
    for (int i = 0; i < size; ) {
      String w = words[random.nextInt(words.length)];
      for (int k = 0; k < w.length() && i < size; k++) {
        b[i++] = (byte) w.charAt(k);
      }
    }
    return b;
  }

  /** Cuts {@code body} into frames at random places: empty frames, 1-byte ones, large ones. */
  static List<Frame> cut(SplittableRandom random, byte[] body) {
    List<Frame> frames = new ArrayList<>();
    int at = 0;
    while (at < body.length) {
      int kind = random.nextInt(4);
      int n = kind == 0 ? 0 : kind == 1 ? 1 : kind == 2 ? random.nextInt(1, 5000)
          : random.nextInt(1, 3 * CompressedBody.BLOCK_SIZE);
      n = Math.min(n, body.length - at);
      frames.add(Frame.copyOf(Arrays.copyOfRange(body, at, at + n)));
      at += n;
    }
    if (frames.isEmpty()) {
      frames.add(Frame.empty());
    }
    return frames;
  }
}
