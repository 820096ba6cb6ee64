package dev.handoff.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.handoff.clickhouse.testserver.ClickHouseServer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Date-time text without an offset is read as the server reads it: in the column's zone, else
 * the server's. A ClickHouse 18.16 started in Europe/Berlin takes the same lines through its own
 * JSONEachRow and through {@code handoff ingest} (both formats); the stored instants are equal.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
final class IngestTimezoneTest {

  static ClickHouseServer server;

  @TempDir
  Path dir;

  @BeforeAll
  static void start() {
    server = ClickHouseServer.start("Europe/Berlin");
  }

  @AfterAll
  static void close() {
    if (server != null) {
      server.close();
    }
  }

  static final String COLUMNS = "id UInt64, dt DateTime, tokyo DateTime('Asia/Tokyo'),"
      + " n Nullable(DateTime), a Array(DateTime), d Date";

  static final String LINES = String.join("\n",
      "{\"id\":1,\"dt\":\"2026-12-03 08:00:00\",\"tokyo\":\"2026-12-03 08:00:00\","
          + "\"n\":\"2026-07-01 12:30:00\",\"a\":[\"2026-01-01 00:00:00\"],\"d\":\"2026-12-03\"}",
      "{\"id\":2,\"dt\":\"2026-07-15 23:59:59\",\"tokyo\":\"2026-07-15 23:59:59\",\"n\":null,"
          + "\"a\":[\"2026-07-15 00:00:01\",\"2026-12-31 23:00:00\"],\"d\":\"2026-07-15\"}",
      "{\"id\":3,\"dt\":1764748800,\"tokyo\":1764748800,\"n\":\"1970-01-02 00:00:00\","
          + "\"a\":[],\"d\":\"1970-01-02\"}") + "\n";

  static final String COMPARE = "SELECT id, toUnixTimestamp(dt), toUnixTimestamp(tokyo),"
      + " toUnixTimestamp(n), arrayMap(x -> toUnixTimestamp(x), a), d FROM %s ORDER BY id";

  @Test
  void textWithoutAZone_isReadInTheServersZone_likeTheServersOwnJsonEachRow() throws Exception {
    String db = server.uniqueDatabase("ingest_tz");
    assertThat(server.query("SELECT timezone()").strip()).isEqualTo("Europe/Berlin");
    Path in = Files.writeString(dir.resolve("tz.jsonl"), LINES);
    server.execute("CREATE TABLE " + db + ".own (" + COLUMNS + ") ENGINE = MergeTree ORDER BY id");
    server.query("INSERT INTO " + db + ".own FORMAT JSONEachRow",
        LINES.getBytes(StandardCharsets.UTF_8));
    String own = server.query(String.format(COMPARE, db + ".own"));
    assertThat(own).as("the server read 08:00 as Berlin time: 07:00 UTC")
        .startsWith("1\t1796281200\t");

    for (String format : new String[] {"native", "rowbinary"}) {
      String table = db + "." + format;
      server.execute("CREATE TABLE " + table + " (" + COLUMNS
          + ") ENGINE = MergeTree ORDER BY id");
      CommandLineTest.Run r = CommandLineTest.run("ingest", "--url", server.httpUrl(),
          "--table", table, "--input", in.toString(), "--format", format, "--no-progress");
      assertThat(r.exit()).as(r.err() + r.out()).isZero();
      JsonNode s = MixedRows.summary(r.out());
      assertThat(s.get("timezone").asText()).isEqualTo("Europe/Berlin (the server's)");
      assertThat(server.query(String.format(COMPARE, table))).as(format).isEqualTo(own);
    }

    // --timezone overrides the server's zone.
    String utc = db + ".utc";
    server.execute("CREATE TABLE " + utc + " (" + COLUMNS + ") ENGINE = MergeTree ORDER BY id");
    CommandLineTest.Run r = CommandLineTest.run("ingest", "--url", server.httpUrl(), "--table",
        utc, "--input", in.toString(), "--timezone", "UTC", "--no-progress");
    assertThat(r.exit()).as(r.err() + r.out()).isZero();
    assertThat(server.query(String.format(COMPARE, utc))).startsWith("1\t1796284800\t");
  }
}
