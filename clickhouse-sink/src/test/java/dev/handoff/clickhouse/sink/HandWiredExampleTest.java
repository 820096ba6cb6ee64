package dev.handoff.clickhouse.sink;

import static org.assertj.core.api.Assertions.assertThat;

import dev.handoff.clickhouse.testserver.ClickHouseServer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The stage wired by hand, as docs/architecture.md shows it: {@link HandWiredExample} is that
 * code word for word (this test compares them), run against a real ClickHouse server.
 */
final class HandWiredExampleTest {

  @Test
  void theArchitectureDocShowsHandWiredExampleWordForWord() throws Exception {
    Path root = Path.of(System.getProperty("user.dir")).getParent();
    String doc = Files.readString(root.resolve("docs/architecture.md"), StandardCharsets.UTF_8);
    Matcher m = Pattern.compile("```java\n(import dev\\.handoff\\.api\\.ChunkConfig;.*?)```",
        Pattern.DOTALL).matcher(doc);
    assertThat(m.find()).as("docs/architecture.md has the hand-wired example").isTrue();
    String source = Files.readString(
        Path.of("src/test/java/dev/handoff/clickhouse/sink/HandWiredExample.java"),
        StandardCharsets.UTF_8);
    assertThat(m.group(1)).isEqualTo(source.substring(source.indexOf("import ")));
  }

  @Test
  void handWiredExampleDeliversEveryBatch() throws Exception {
    ClickHouseServer server = ClickHouseServer.shared();
    String db = server.uniqueDatabase("hand_wired");
    server.execute("CREATE TABLE " + db + ".events (id UInt64, customer String)"
        + " ENGINE = MergeTree ORDER BY id");

    assertThat(HandWiredExample.run(server.httpUrl(), db)).isEqualTo(9);
    assertThat(server.query("SELECT count(), uniqExact(id) FROM " + db + ".events"
        + " FORMAT TabSeparated")).isEqualTo("10000\t10000\n");
  }
}
