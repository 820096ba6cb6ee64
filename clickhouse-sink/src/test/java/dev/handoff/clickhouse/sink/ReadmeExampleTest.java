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
 * The README's first program: {@link QuickStart} is it, word for word (this test compares them),
 * and runs here against a real ClickHouse server.
 */
final class ReadmeExampleTest {

  private static final Path ROOT = Path.of(System.getProperty("user.dir")).getParent();

  @Test
  void theReadmeShowsQuickStartWordForWord() throws Exception {
    String readme = Files.readString(ROOT.resolve("README.md"), StandardCharsets.UTF_8);
    Matcher m = Pattern.compile("```java\n(import dev\\.handoff\\.api\\.FlowControl;.*?)```",
        Pattern.DOTALL).matcher(readme);
    assertThat(m.find()).as("README.md has a java block starting with the program's imports")
        .isTrue();
    String source = Files.readString(
        Path.of("src/test/java/dev/handoff/clickhouse/sink/QuickStart.java"),
        StandardCharsets.UTF_8);
    String withoutPackage = source.substring(source.indexOf("import "));
    assertThat(m.group(1)).isEqualTo(withoutPackage);
    long logic = withoutPackage.lines()
        .filter(l -> !l.isBlank() && !l.startsWith("import ") && !l.trim().startsWith("/")
            && !l.trim().equals("}") && !l.trim().startsWith("*"))
        .count();
    assertThat(logic).as("lines of logic in the README's program").isLessThanOrEqualTo(15);
  }

  @Test
  void quickStartWritesItsHundredThousandRowsIntoARealTable() throws Exception {
    ClickHouseServer server = ClickHouseServer.shared();
    server.execute("CREATE DATABASE IF NOT EXISTS shop");
    server.execute("DROP TABLE IF EXISTS shop.orders");
    server.execute("CREATE TABLE shop.orders (id UInt64, customer String, amount Float64)"
        + " ENGINE = MergeTree ORDER BY id");

    QuickStart.main(new String[] {server.httpUrl()});

    assertThat(server.query("SELECT count(), uniqExact(id), sum(amount), max(customer)"
        + " FROM shop.orders FORMAT TabSeparated"))
        .isEqualTo("100000\t100000\t1249987500\tcustomer-99\n");
  }
}
