package dev.handoff.clickhouse.hash;

import static org.assertj.core.api.Assertions.assertThat;

import dev.handoff.clickhouse.testserver.ClickHouseServer;
import java.net.HttpURLConnection;
import java.net.URI;
import java.util.Arrays;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@link CityHash} against a real ClickHouse 18.16 server: {@code cityHash64} of byte strings of
 * every length 0..300 and random longer ones, and CityHash128 as the checksums of the compressed
 * blocks the server sends for {@code compress=1}.
 */
final class CityHashServerTest {
  private static final long SEED = Long.getLong("hash.seed", 0x5eed_c17aL);

  private static ClickHouseServer server;

  @BeforeAll
  static void startServer() {
    server = ClickHouseServer.shared();
  }

  @Test
  void hash64_agreesWithTheServerOnStringsOfEveryLength() {
    SplittableRandom random = new SplittableRandom(SEED);
    List<byte[]> inputs = new ArrayList<>();
    for (int length = 0; length <= 300; length++) {
      for (int copy = 0; copy < 8; copy++) {
        inputs.add(randomBytes(random, length));
      }
    }
    for (int i = 0; i < 400; i++) {
      inputs.add(randomBytes(random, 300 + random.nextInt(5000)));
    }
    List<Long> server = ServerHashes.ofStrings(CityHashServerTest.server, "cityHash64", inputs);
    for (int i = 0; i < inputs.size(); i++) {
      byte[] input = inputs.get(i);
      assertThat(CityHash.hash64(input))
          .as("cityHash64 of %d bytes %s (seed %d)", input.length, hex(input), SEED)
          .isEqualTo(server.get(i));
    }
  }

  @Test
  void hash64_readsOnlyItsRangeOfALargerArray() {
    SplittableRandom random = new SplittableRandom(SEED);
    for (int length = 0; length <= 200; length++) {
      byte[] input = randomBytes(random, length);
      byte[] padded = new byte[length + 20];
      random.nextBytes(padded);
      System.arraycopy(input, 0, padded, 7, length);
      assertThat(CityHash.hash64(padded, 7, length)).isEqualTo(CityHash.hash64(input));
    }
  }

  @Test
  void hash128_isTheChecksumOfEveryCompressedBlockTheServerSends() throws Exception {
    // 18.16 answers compress=1 with nothing at all when the whole result is under 1 MiB, so each
    // query reads a 1 MiB string of 'a' (one well-compressed block) and then a string of k random
    // bytes, whose block has about k + 13 bytes: every k in 0..300, random ones up to 6000, and a
    // few of 3 MiB (several incompressible blocks of 1 MiB).
    SplittableRandom random = new SplittableRandom(SEED);
    List<byte[]> tails = new ArrayList<>();
    tails.add("a".repeat(1 << 20).getBytes(StandardCharsets.US_ASCII));
    for (int k = 0; k < 400; k++) {
      tails.add(randomBytes(random, k <= 300 ? k : random.nextInt(k < 395 ? 6000 : 3 << 20)));
    }
    String db = server.uniqueDatabase("city128");
    server.execute("CREATE TABLE " + db + ".t (i UInt32, s String) ENGINE = Memory");
    server.query("INSERT INTO " + db + ".t FORMAT RowBinary", ServerHashes.stringRows(tails));
    int blocks = 0;
    int shortBlocks = 0;
    int largest = 0;
    for (int query = 1; query < tails.size(); query++) {
      String sql = "SELECT s FROM " + db + ".t WHERE i IN (0, " + query + ") ORDER BY i"
          + " FORMAT RowBinary";
      HttpURLConnection http =
          (HttpURLConnection) URI.create(server.httpUrl() + "/?compress=1").toURL()
              .openConnection();
      http.setDoOutput(true);
      http.getOutputStream().write(sql.getBytes(StandardCharsets.UTF_8));
      byte[] body;
      try (InputStream stream = http.getInputStream()) {
        body = stream.readAllBytes();
      }
      ByteBuffer in = ByteBuffer.wrap(body).order(ByteOrder.LITTLE_ENDIAN);
      while (in.hasRemaining()) {
        int start = in.position();
        long low = in.getLong(start);
        long high = in.getLong(start + 8);
        int compressedSize = in.getInt(start + 17); // includes the 9-byte header
        byte[] out = new byte[16];
        CityHash.hash128(body, start + 16, compressedSize, out, 0);
        assertThat(CityHash.hash128(body, start + 16, compressedSize))
            .as("checksum of a %d-byte block of query %d (seed %d)", compressedSize, query, SEED)
            .isEqualTo(new Hash128(low, high));
        assertThat(out).isEqualTo(Arrays.copyOfRange(body, start, start + 16));
        in.position(start + 16 + compressedSize);
        blocks++;
        shortBlocks += compressedSize < 128 ? 1 : 0;
        largest = Math.max(largest, compressedSize);
      }
    }
    server.execute("DROP DATABASE " + db);
    assertThat(blocks).isGreaterThanOrEqualTo(800);
    assertThat(shortBlocks).as("blocks under 128 bytes (CityMurmur)").isGreaterThan(100);
    assertThat(largest).as("the largest block").isGreaterThan(1 << 20);
  }

  static byte[] randomBytes(SplittableRandom random, int length) {
    byte[] bytes = new byte[length];
    random.nextBytes(bytes);
    return bytes;
  }

  static String hex(byte[] bytes) {
    return bytes.length > 96
        ? HexFormat.of().formatHex(bytes, 0, 96) + "..."
        : HexFormat.of().formatHex(bytes);
  }
}
