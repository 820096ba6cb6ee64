package dev.handoff.clickhouse.testserver;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The libchdb session against the real engine: queries, errors, files, settings, lifetime. */
final class ChdbSessionTest {
  private static ChdbSession engine;

  @BeforeAll
  static void open() {
    engine = Chdb.builder().experimentalTypes().setting("max_threads", "2").open();
  }

  @AfterAll
  static void close() {
    if (engine != null) {
      engine.close();
    }
  }

  @Test
  void version_isThePinnedEngine_inUtc() {
    assertThat(engine.version()).isEqualTo(Chdb.ENGINE_VERSION);
    assertThat(engine.queryText("SELECT timezone()")).isEqualTo("UTC\n");
    assertThat(engine.isOpen()).isTrue();
    assertThat(engine.pid()).isPositive();
  }

  @Test
  void settings_ofTheBuilder_areSetOnTheSession() {
    assertThat(engine.settings()).containsAllEntriesOf(Chdb.EXPERIMENTAL_TYPES)
        .containsEntry("max_threads", "2");
    assertThat(engine.queryText("SELECT getSetting('enable_json_type'),"
        + " getSetting('allow_experimental_variant_type'), getSetting('max_threads')"))
        .isEqualTo("true\ttrue\t2\n");
    assertThat(engine.queryText("SELECT '{\"a\":{\"b\":1}}'::JSON AS j", "JSONEachRow"))
        .isEqualTo("{\"j\":{\"a\":{\"b\":1}}}\n");
  }

  @Test
  void query_returnsTheBytesOfTheFormat() {
    assertThat(engine.query("SELECT toUInt16(258) AS v, 'ab' AS s", "RowBinary"))
        .containsExactly(2, 1, 2, 'a', 'b');
    assertThat(engine.query("SELECT 1 WHERE 0", "RowBinary")).isEmpty();
    assertThat(engine.queryText("SELECT number FROM numbers(3)")).isEqualTo("0\n1\n2\n");
  }

  @Test
  void aLargeResult_arrivesWhole() {
    byte[] bytes = engine.query("SELECT toUInt64(number) FROM numbers(2000000)", "RowBinary");
    assertThat(bytes).hasSize(16_000_000);
    assertThat(bytes[8 * 1_999_999]).isEqualTo((byte) (1_999_999 & 0xFF));
  }

  @Test
  void anEngineError_carriesItsText_andTheSessionGoesOn() {
    assertThatThrownBy(() -> engine.query("SELECT nonsense_identifier", "TabSeparated"))
        .isInstanceOfSatisfying(ChdbException.class, e -> {
          assertThat(e.errorCode()).isEqualTo(47);
          assertThat(e.engineMessage()).contains("UNKNOWN_IDENTIFIER");
          assertThat(e.sql()).isEqualTo("SELECT nonsense_identifier");
          assertThat(e.getMessage()).contains("ClickHouse 26.7.2.1", "nonsense_identifier");
        });
    assertThat(engine.queryText("SELECT 1")).isEqualTo("1\n");
  }

  @Test
  void tables_lastAsLongAsTheSession_andInsertFromInfileReadsAWrittenFile() {
    engine.execute("CREATE TABLE infile_t (a UInt8, s String) ENGINE = Memory");
    Path file = engine.writeFile("rows.bin", new byte[] {7, 2, 'h', 'i', 8, 0});
    assertThat(file).isAbsolute().startsWith(engine.directory());
    engine.execute("INSERT INTO infile_t FROM INFILE " + Chdb.literal(file.toString())
        + " FORMAT RowBinary");
    assertThat(engine.queryText("SELECT * FROM infile_t ORDER BY a")).isEqualTo("7\thi\n8\t\n");
    assertThat(engine.queryText("SELECT count() FROM file(" + Chdb.literal(file.toString())
        + ", 'RowBinary', 'a UInt8, s String')")).isEqualTo("2\n");
  }

  @Test
  void writeFile_refusesPathsThatLeaveItsDirectory() {
    assertThatThrownBy(() -> engine.writeFile("../x", new byte[0]))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> engine.writeFile(".hidden", new byte[0]))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void literal_escapesQuotesAndBackslashes() {
    assertThat(Chdb.literal("a'b\\c")).isEqualTo("'a\\'b\\\\c'");
    assertThat(engine.queryText("SELECT " + Chdb.literal("a'b\\c"), "TabSeparatedRaw"))
        .isEqualTo("a'b\\c\n");
  }

  @Test
  void queriesFromManyThreads_runOneAfterTheOther() throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try {
      List<Future<String>> results = new ArrayList<>();
      for (int i = 0; i < 40; i++) {
        int n = i;
        results.add(pool.submit(() -> engine.queryText("SELECT " + n + " * 2")));
      }
      for (int i = 0; i < results.size(); i++) {
        assertThat(results.get(i).get()).isEqualTo(i * 2 + "\n");
      }
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void close_deletesTheDirectory_andEndsTheLauncher() {
    ChdbSession own = Chdb.open();
    own.execute("CREATE TABLE m (a UInt8) ENGINE = MergeTree ORDER BY a");
    own.execute("INSERT INTO m VALUES (1)");
    Path dir = own.directory();
    assertThat(dir.resolve("data")).isDirectory();
    ProcessHandle launcher = ProcessHandle.of(own.pid()).orElseThrow();
    own.close();
    own.close(); // idempotent
    assertThat(dir).doesNotExist();
    assertThat(launcher.isAlive()).isFalse();
    assertThat(own.isOpen()).isFalse();
    assertThatThrownBy(() -> own.queryText("SELECT 1"))
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("closed");
  }

  @Test
  void aKilledLauncher_failsTheQueryWithWhatHappened_andClosesTheSession() {
    ChdbSession own = Chdb.open();
    Path dir = own.directory();
    ProcessHandle.of(own.pid()).orElseThrow().destroyForcibly();
    assertThatThrownBy(() -> own.queryText("SELECT 1"))
        .isInstanceOfSatisfying(ChdbException.class, e -> {
          assertThat(e.getMessage()).contains("pid " + own.pid(), "ended", "SELECT 1",
              "session is closed");
          assertThat(e.engineMessage()).isEmpty();
        });
    assertThat(own.isOpen()).isFalse();
    assertThat(dir).doesNotExist();
    own.close();
  }

  @Test
  void aQueryPastTheTimeout_killsTheLauncher() {
    ChdbSession own = Chdb.builder().queryTimeout(Duration.ofSeconds(2)).open();
    try {
      assertThatThrownBy(() -> own.queryText("SELECT sleepEachRow(1) FROM numbers(10)"
          + " SETTINGS function_sleep_max_microseconds_per_block = 0"))
          .isInstanceOf(ChdbException.class)
          .hasMessageContaining("killed after the query timeout of PT2S");
      assertThat(own.isOpen()).isFalse();
    } finally {
      own.close();
    }
  }

  @Test
  void aRefusedSetting_failsTheOpen_andLeavesNothingBehind() throws Exception {
    long before = countSessionDirectories();
    assertThatThrownBy(() -> Chdb.builder().setting("no_such_setting_at_all", "1").open())
        .isInstanceOfSatisfying(ChdbException.class,
            e -> assertThat(e.engineMessage()).contains("no_such_setting_at_all"));
    assertThat(countSessionDirectories()).isEqualTo(before);
  }

  @Test
  void theLauncherSource_isBuiltOnce_nextToTheLibrary() throws Exception {
    Path launcher = ChdbLibrary.launcher(Chdb.library());
    assertThat(launcher).isExecutable();
    assertThat(launcher.getFileName().toString()).startsWith("chdb-launcher-");
    assertThat(ChdbLibrary.launcher(Chdb.library())).isEqualTo(launcher);
    String source = new String(
        ChdbSession.class.getResourceAsStream("chdb-launcher.c").readAllBytes(), UTF_8);
    assertThat(source).contains("chdb_connect", "chdb_query", "chdb_close_conn");
  }

  private static long countSessionDirectories() throws Exception {
    try (var list = Files.list(Path.of(System.getProperty("java.io.tmpdir")))) {
      return list.filter(p -> p.getFileName().toString().startsWith("handoff-chdb-")).count();
    }
  }
}
