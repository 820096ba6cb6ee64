package dev.handoff.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.handoff.clickhouse.testserver.ClickHouseServer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * CSV and TSV with a header line: the same text into 18.16 through its own {@code CSVWithNames}
 * and {@code TabSeparatedWithNames} and through {@code handoff ingest} gives the same rows;
 * quoting, escaping and {@code \N} as the server reads them; a bad row is named by its line.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
final class IngestDelimitedTest {

  @TempDir
  Path dir;

  static final String COLUMNS = "id UInt64, name String, price Float64, ts DateTime,"
      + " note Nullable(String)";

  static final String COMPARE = "SELECT id, name, price, toUnixTimestamp(ts), note FROM %s"
      + " ORDER BY id FORMAT TabSeparated";

  static final String CSV = String.join("\n",
      "id,name,price,ts,note",
      "1,\"Smith, John\",1.5,2026-12-03 08:00:00,\\N",
      "2,\"say \"\"hi\"\"\",2.25,2026-12-03 09:00:00,\"with, comma\"",
      "3,plain,3,2026-12-03 10:00:00,x") + "\n";

  static final String TSV = String.join("\n",
      "id\tname\tprice\tts\tnote",
      "1\tSmith, John\t1.5\t2026-12-03 08:00:00\t\\N",
      "2\ttab\\there\t2.25\t2026-12-03 09:00:00\tline\\nbreak",
      "3\tback\\\\slash\t3\t2026-12-03 10:00:00\tx") + "\n";

  private void sameAsTheServer(String text, String file, String serverFormat) throws Exception {
    ClickHouseServer server = ClickHouseServer.shared();
    String db = server.uniqueDatabase("ingest_" + serverFormat.toLowerCase());
    server.execute("CREATE TABLE " + db + ".own (" + COLUMNS + ") ENGINE = MergeTree ORDER BY id");
    server.execute("CREATE TABLE " + db + ".ours (" + COLUMNS + ") ENGINE = MergeTree ORDER BY id");
    server.query("INSERT INTO " + db + ".own FORMAT " + serverFormat,
        text.getBytes(StandardCharsets.UTF_8));
    Path in = Files.writeString(dir.resolve(file), text);

    CommandLineTest.Run r = CommandLineTest.run("ingest", "--url", server.httpUrl(), "--table",
        db + ".ours", "--input", in.toString(), "--no-progress");

    assertThat(r.exit()).as(r.err() + r.out()).isZero();
    JsonNode s = MixedRows.summary(r.out());
    assertThat(s.get("rowsWritten").asLong()).isEqualTo(3);
    String own = server.query(String.format(COMPARE, db + ".own"));
    assertThat(own.lines().count()).isEqualTo(3);
    assertThat(server.query(String.format(COMPARE, db + ".ours"))).isEqualTo(own);
  }

  @Test
  void csv_likeTheServersCsvWithNames() throws Exception {
    sameAsTheServer(CSV, "rows.csv", "CSVWithNames");
  }

  @Test
  void tsv_likeTheServersTabSeparatedWithNames() throws Exception {
    sameAsTheServer(TSV, "rows.tsv", "TabSeparatedWithNames");
  }

  @Test
  void badRows_areNamedByLine_andAResumeKeepsTheHeader() throws Exception {
    Path in = Files.writeString(dir.resolve("bad.csv"), String.join("\n",
        "id,name,price,ts,note",
        "1,a,1,2026-12-03 08:00:00,x",
        "2,\"open quote,1,2026-12-03 08:00:00,x",
        "3,b,not a number,2026-12-03 08:00:00,x",
        "4,c,4",
        "5,d,5,2026-12-03 08:00:00,\\N") + "\n");
    Path cp = dir.resolve("cp.json");
    IngestAccountingTest.IdWriter writer = new IngestAccountingTest.IdWriter(0, 0, false);

    IngestAccountingTest.Run r = IngestAccountingTest.run(writer, COLUMNS, "--input",
        in.toString(), "--checkpoint", cp.toString());

    assertThat(r.summary().get("rowsRead").asLong()).isEqualTo(5);
    assertThat(r.summary().get("rowsWritten").asLong()).isEqualTo(2);
    assertThat(r.err()).contains("skipped line 3 (byte offset 50): malformed CSV row: a quoted"
        + " field is not closed")
        .contains("skipped line 4 ").contains("column \"price\" (Float64)")
        .contains("skipped line 5 (byte offset ").contains("3 fields where the header has 5");
    assertThat(r.summary().get("checkpoint").get("offset").asLong()).isEqualTo(Files.size(in));
  }
}
