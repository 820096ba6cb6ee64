package dev.handoff.flink;

import static org.assertj.core.api.Assertions.assertThat;

import dev.handoff.clickhouse.testserver.ClickHouseServer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * docs/flink.md's quick starts: {@link FlinkQuickStart} (DataStream) and {@link SqlQuickStart}
 * (SQL) are them, word for word (this test compares them), and run here on a MiniCluster against
 * a real ClickHouse server.
 */
class FlinkDocTest {
  static final Path DOC = Path.of(System.getProperty("user.dir")).getParent()
      .resolve("docs/flink.md");

  @RegisterExtension
  static final MiniClusterExtension FLINK = new MiniClusterExtension(
      new MiniClusterResourceConfiguration.Builder()
          .setNumberTaskManagers(1).setNumberSlotsPerTaskManager(2).build());

  @Test
  void theDocShowsTheQuickStartWordForWord() throws Exception {
    String doc = Files.readString(DOC, StandardCharsets.UTF_8);
    Matcher m = Pattern.compile(
        "```java\n(import dev\\.handoff\\.clickhouse\\.sink\\.InsertFormat;.*?)```",
        Pattern.DOTALL).matcher(doc);
    assertThat(m.find()).as("docs/flink.md has the DataStream quick start").isTrue();
    String source = Files.readString(
        Path.of("src/test/java/dev/handoff/flink/FlinkQuickStart.java"), StandardCharsets.UTF_8);
    assertThat(m.group(1)).isEqualTo(source.substring(source.indexOf("import ")));
  }

  @Test
  void theDocShowsTheSqlQuickStartWordForWord() throws Exception {
    String doc = Files.readString(DOC, StandardCharsets.UTF_8);
    Matcher m = Pattern.compile(
        "```java\n(import org\\.apache\\.flink\\.table\\.api\\.EnvironmentSettings;.*?)```",
        Pattern.DOTALL).matcher(doc);
    assertThat(m.find()).as("docs/flink.md has the SQL quick start").isTrue();
    String source = Files.readString(
        Path.of("src/test/java/dev/handoff/flink/SqlQuickStart.java"), StandardCharsets.UTF_8);
    assertThat(m.group(1)).isEqualTo(source.substring(source.indexOf("import ")));
  }

  @Test
  void theSqlQuickStartWritesItsRows() throws Exception {
    ClickHouseServer server = ClickHouseServer.shared();
    server.execute("CREATE DATABASE IF NOT EXISTS shop");
    server.execute("DROP TABLE IF EXISTS shop.visits");
    server.execute("CREATE TABLE shop.visits (id UInt64, page String) ENGINE = MergeTree"
        + " ORDER BY id");

    SqlQuickStart.main(new String[] {server.httpUrl()});

    assertThat(server.query("SELECT count(), uniqExact(id), min(id), max(id),"
        + " countIf(length(page) = 0) FROM shop.visits"))
        .isEqualTo("100000\t100000\t1\t100000\t0\n");
  }

  @Test
  void theQuickStartWritesItsMillionRows() throws Exception {
    ClickHouseServer server = ClickHouseServer.shared();
    server.execute("CREATE DATABASE IF NOT EXISTS shop");
    server.execute("DROP TABLE IF EXISTS shop.clicks");
    server.execute("CREATE TABLE shop.clicks (id UInt64, page String, ms UInt32)"
        + " ENGINE = MergeTree ORDER BY id");

    FlinkQuickStart.main(new String[] {server.httpUrl()});

    assertThat(server.query("SELECT count(), uniqExact(id), uniqExact(page), max(ms),"
        + " countIf(page != concat('/p/', toString(id % 50)) OR ms != id % 1000)"
        + " FROM shop.clicks")).isEqualTo("1000000\t1000000\t50\t999\t0\n");
  }
}
