package dev.handoff.clickhouse.http.internal;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.handoff.api.ChunkBuffer;
import dev.handoff.api.ColumnSpec;
import dev.handoff.api.Frame;
import dev.handoff.api.TableSchema;
import dev.handoff.api.spi.Insert;
import dev.handoff.api.spi.InsertWriter;
import dev.handoff.api.spi.RowEncoder;
import dev.handoff.api.spi.WriteException;
import dev.handoff.clickhouse.http.ClickHouseHttp;
import dev.handoff.clickhouse.http.ClickHouseHttpOptions;
import dev.handoff.clickhouse.http.ClickHouseHttpOptions.Compression;
import dev.handoff.clickhouse.row.RowAccessors;
import dev.handoff.clickhouse.testserver.ClickHouseServer;
import dev.handoff.clickhouse.type.ClickHouseType;
import dev.handoff.core.Providers;
import dev.handoff.encoders.testsupport.ServerCanon.Cell;
import dev.handoff.encoders.testsupport.ServerValueGen;
import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Inserts in ClickHouse's compressed blocks into a real 18.16 server: both formats and both
 * methods give the table an uncompressed insert gives, bodies of every size around the block size
 * arrive byte for byte, and the server checks our checksums (a wrong one is refused).
 */
final class CompressedInsertServerTest {
  static final ClickHouseServer server = ClickHouseServer.shared();
  private static final int B = CompressedBody.BLOCK_SIZE;

  /** Many column types, so the compressed stream carries every kind of value the encoders write. */
  static final String COLUMNS = "n UInt32, i8 Int8, u64 UInt64, f32 Float32, f64 Float64,"
      + " d18 Decimal(18, 4), s String, fs FixedString(4), dt Date, ts DateTime, id UUID,"
      + " e8 Enum8('a' = 1, 'b' = -2), ns Nullable(String), ni Nullable(Int64),"
      + " arr Array(Nullable(String)), aa Array(Array(UInt16)), tup Tuple(Int8, String),"
      + " lc LowCardinality(String), lcn LowCardinality(Nullable(String)),"
      + " nest Nested(a UInt8, b String)";

  private static ClickHouseHttp http(Compression compression, int zstdLevel) {
    return ClickHouseHttp.create(ClickHouseHttpOptions.builder().url(server.httpUrl())
        .compression(compression).zstdLevel(zstdLevel).build());
  }

  @ParameterizedTest
  @CsvSource({"Native, LZ4, 1", "Native, ZSTD, 1", "Native, ZSTD, 19", "RowBinary, LZ4, 1",
      "RowBinary, ZSTD, 1", "RowBinary, ZSTD, 19"})
  void compressedInsert_givesTheTableAnUncompressedInsertGives(String format,
      Compression compression, int level) throws Exception {
    String db = server.uniqueDatabase("lz_" + format.toLowerCase());
    server.execute("CREATE TABLE " + db + ".plain (" + COLUMNS + ") ENGINE = MergeTree ORDER BY n");
    server.execute("CREATE TABLE " + db + ".packed (" + COLUMNS + ") ENGINE = MergeTree ORDER BY n");
    try (ClickHouseHttp plain = http(Compression.NONE, 1);
        ClickHouseHttp packed = http(compression, level)) {
      TableSchema schema = plain.schema(db, "plain");
      List<Frame> frames = randomChunks(schema, format, 2023 + level, 6, 1500);
      long bytes = frames.stream().mapToLong(Frame::length).sum();
      assertThat(bytes).as("several compressed blocks").isGreaterThan(2L * B);
      Insert insert = new Insert(0, 0, 5, frames, 6 * 1500, bytes, 1);

      plain.writer(db, "plain", schema, format).write(insert);
      packed.writer(db, "packed", schema, format).write(insert);

      assertThat(server.query("SELECT count() FROM " + db + ".packed")).isEqualTo("9000\n");
      assertThat(server.queryBytes("SELECT * FROM " + db + ".packed ORDER BY n FORMAT RowBinary"))
          .isEqualTo(server.queryBytes("SELECT * FROM " + db + ".plain ORDER BY n FORMAT RowBinary"));
    }
  }

  /**
   * Bodies of one-byte rows of every size around the block size, cut into frames at random
   * places (empty frames, one-byte frames, frames across block boundaries): the table holds the
   * body's bytes in order, for both methods.
   */
  @Test
  void bodiesOfEverySize_arriveByteForByte() throws Exception {
    int[] sizes = {0, 1, 2, 16, 17, 1000, B - 1, B, B + 1, 2 * B - 1, 2 * B, 2 * B + 1,
        3 * B + 12345};
    String db = server.uniqueDatabase("lz_sizes");
    try (ClickHouseHttp lz4 = http(Compression.LZ4, 1);
        ClickHouseHttp zstd = http(Compression.ZSTD, 3)) {
      int table = 0;
      for (int size : sizes) {
        for (ClickHouseHttp http : List.of(lz4, zstd)) {
          SplittableRandom random = new SplittableRandom(size * 31L + table);
          byte[] body = CompressedBodyTest.bytes(random, size, table % 2 == 0);
          List<Frame> frames = CompressedBodyTest.cut(random, body);
          String t = "t" + table++;
          // TinyLog reads rows back in insertion order; a UInt8 row is one RowBinary byte.
          server.execute("CREATE TABLE " + db + "." + t + " (v UInt8) ENGINE = TinyLog");
          TableSchema schema = TableSchema.of(new ColumnSpec("v", "UInt8"));
          InsertWriter writer = http.writer(db, t, schema, "RowBinary");

          writer.write(new Insert(0, 0, 0, frames, size, size, 1));

          assertThat(server.queryBytes("SELECT v FROM " + db + "." + t + " FORMAT RowBinary"))
              .as("%d bytes in %d frames, %s", size, frames.size(), http)
              .isEqualTo(body);
        }
      }
    }
  }

  /**
   * The server verifies each block's checksum: our framing is accepted, and the same body with
   * one checksum bit flipped, or one payload byte changed, is refused with CHECKSUM_DOESNT_MATCH.
   */
  @ParameterizedTest
  @CsvSource({"lz4", "zstd"})
  void theServerChecksOurChecksum(String method) throws Exception {
    String db = server.uniqueDatabase("lz_sum");
    // The refused bodies go to a table of their own: the rows of the blocks before the bad one
    // may be written already (an insert is not atomic across max_insert_block_size rows).
    server.execute("CREATE TABLE " + db + ".t (v UInt8) ENGINE = TinyLog");
    server.execute("CREATE TABLE " + db + ".refused (v UInt8) ENGINE = TinyLog");
    byte[] body = CompressedBodyTest.bytes(new SplittableRandom(5), B + 100, true);
    byte[] framed;
    try (BlockCodec codec = method.equals("lz4") ? BlockCodec.lz4() : BlockCodec.zstd(1)) {
      framed = concat(CompressedBody.blocks(List.of(Frame.copyOf(body)), body.length, codec));
    }
    int secondBlock = ByteBuffer.wrap(framed).order(java.nio.ByteOrder.LITTLE_ENDIAN)
        .getInt(17) + 16;

    byte[] badChecksum = framed.clone();
    badChecksum[secondBlock + 3] ^= 0x10;
    byte[] badPayload = framed.clone();
    badPayload[secondBlock + 40] ^= 0x01;

    HttpResponse<String> wrongSum = post(db + ".refused", badChecksum);
    HttpResponse<String> wrongPayload = post(db + ".refused", badPayload);
    HttpResponse<String> good = post(db + ".t", framed);

    assertThat(wrongSum.statusCode()).isEqualTo(500);
    assertThat(wrongSum.body()).contains("Code: 40").contains("Checksum doesn't match");
    assertThat(wrongPayload.statusCode()).isEqualTo(500);
    assertThat(wrongPayload.body()).contains("Code: 40").contains("Checksum doesn't match");
    assertThat(good.statusCode()).as(good.body()).isEqualTo(200);
    assertThat(server.queryBytes("SELECT v FROM " + db + ".t FORMAT RowBinary")).isEqualTo(body);
  }

  /** A body the server refuses is the writer's ordinary failure, with the server's code. */
  @Test
  void aRefusedCompressedInsert_isAWriteExceptionWithTheServersCode() throws Exception {
    String db = server.uniqueDatabase("lz_bad");
    server.execute("CREATE TABLE " + db + ".t (s String) ENGINE = TinyLog");
    try (ClickHouseHttp http = http(Compression.LZ4, 1)) {
      InsertWriter writer = http.writer(db, "t", TableSchema.of(new ColumnSpec("s", "String")),
          "RowBinary");
      // A String row whose length prefix promises more bytes than the body holds.
      Frame truncated = Frame.copyOf(new byte[] {10, 'a', 'b'});

      assertThatThrownBy(() -> writer.write(new Insert(0, 0, 0, List.of(truncated), 1, 3, 1)))
          .isInstanceOf(WriteException.class)
          .satisfies(e -> assertThat(((WriteException) e).serverCode()).isEqualTo(33))
          .satisfies(e -> assertThat(((WriteException) e).isTransient()).isFalse());
    }
  }

  private static HttpResponse<String> post(String table, byte[] body) throws Exception {
    String sql = "INSERT INTO " + table + " FORMAT RowBinary";
    HttpRequest request = HttpRequest.newBuilder(URI.create(server.httpUrl()
            + "/?decompress=1&query=" + URLEncoder.encode(sql, UTF_8)))
        .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build();
    // A client per request, so no pooled connection outlives the test.
    return HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.ofString());
  }

  private static byte[] concat(CompressedBody body) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (ByteBuffer b : body.buffers()) {
      byte[] a = new byte[b.remaining()];
      b.duplicate().get(a);
      out.writeBytes(a);
    }
    return out.toByteArray();
  }

  /** {@code chunks} frames of {@code rowsPerChunk} random rows each, numbered from 0 in {@code n}. */
  static List<Frame> randomChunks(TableSchema schema, String format, long seed, int chunks,
      int rowsPerChunk) {
    List<String> names = schema.columns().stream().map(ColumnSpec::name).toList();
    List<ClickHouseType> types = schema.columns().stream()
        .map(c -> ClickHouseType.parse(c.type())).toList();
    ServerValueGen gen = new ServerValueGen(seed, ServerValueGen.FloatNaNs.QUIET);
    RowEncoder<Object[]> encoder = Providers.encoder(format.equals("Native") ? "native"
        : "rowbinary").create(schema, RowAccessors.objectArray(), Map.of());
    List<Frame> frames = new ArrayList<>();
    long n = 0;
    for (int chunk = 0; chunk < chunks; chunk++) {
      ChunkBuffer buffer = new ChunkBuffer(1 << 16);
      for (int i = 0; i < rowsPerChunk; i++) {
        Object[] cells = gen.row(names, types);
        Object[] row = new Object[cells.length];
        row[0] = n++;
        for (int c = 1; c < cells.length; c++) {
          row[c] = ((Cell) cells[c]).input();
        }
        encoder.encode(row, buffer);
      }
      encoder.finishChunk(buffer);
      frames.add(buffer.split());
    }
    return frames;
  }
}
