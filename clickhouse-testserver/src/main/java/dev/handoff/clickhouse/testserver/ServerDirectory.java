package dev.handoff.clickhouse.testserver;

import static dev.handoff.clickhouse.testserver.ClickHouseServer.LOOPBACK;
import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

/**
 * One server's temp directory and what is in it: the {@code config.xml} and {@code users.xml} it
 * writes, the server's {@code data/} and {@code tmp/}, and {@code log/} with the server's logs,
 * its {@code stdout.log} and {@code stderr.log} and the wrapper shell's {@code wrapper.log}. Reads
 * the tails of those logs for error messages, and deletes the whole tree at the end.
 */
final class ServerDirectory {
  static final String PREFIX = "handoff-clickhouse-";
  static final int LOG_TAIL_LINES = 40;

  private final Path path;

  private ServerDirectory(Path path) {
    this.path = path;
  }

  /** Creates a fresh temp directory whose name starts with {@link #PREFIX}. */
  static ServerDirectory create() {
    try {
      return new ServerDirectory(Files.createTempDirectory(PREFIX));
    } catch (IOException e) {
      throw new ClickHouseServerException("cannot create a temp directory for ClickHouse", e);
    }
  }

  Path path() {
    return path;
  }

  /** {@code log/}, where the server and the wrapper shell write. */
  Path log() {
    return path.resolve("log");
  }

  /** {@code config.xml}, the server's {@code --config-file}. */
  Path configFile() {
    return path.resolve("config.xml");
  }

  /**
   * Writes {@code config.xml} and {@code users.xml} for a server on these ports, which answers
   * {@code GET /} with {@code token}. The server keeps a {@code system.query_log} (queries sent
   * with {@code log_queries=1} are logged), as the packaged config does.
   */
  void writeConfig(int httpPort, int tcpPort, String token, String timezone) {
    String dir = xml(path.toString());
    String config =
        """
        <?xml version="1.0"?>
        <!-- Written by dev.handoff.clickhouse.testserver.ClickHouseServer for one test server. -->
        <yandex>
          <logger>
            <level>warning</level>
            <log>%1$s/log/clickhouse-server.log</log>
            <errorlog>%1$s/log/clickhouse-server.err.log</errorlog>
            <size>100M</size>
            <count>1</count>
          </logger>
          <listen_host>%2$s</listen_host>
          <http_port>%3$d</http_port>
          <tcp_port>%4$d</tcp_port>
          <http_server_default_response>%5$s</http_server_default_response>
          <path>%1$s/data/</path>
          <tmp_path>%1$s/tmp/</tmp_path>
          <user_files_path>%1$s/user_files/</user_files_path>
          <format_schema_path>%1$s/format_schemas/</format_schema_path>
          <users_config>%1$s/users.xml</users_config>
          <default_profile>default</default_profile>
          <default_database>default</default_database>
          <timezone>%6$s</timezone>
          <mark_cache_size>67108864</mark_cache_size>
          <uncompressed_cache_size>67108864</uncompressed_cache_size>
          <max_concurrent_queries>100</max_concurrent_queries>
          <keep_alive_timeout>3</keep_alive_timeout>
          <mlock_executable>false</mlock_executable>
          <query_log>
            <database>system</database>
            <table>query_log</table>
            <flush_interval_milliseconds>7500</flush_interval_milliseconds>
          </query_log>
        </yandex>
        """;
    config =
        String.format(
            Locale.ROOT, config, dir, LOOPBACK, httpPort, tcpPort, xml(token), xml(timezone));
    String users =
        """
        <?xml version="1.0"?>
        <!-- Written by dev.handoff.clickhouse.testserver.ClickHouseServer for one test server. -->
        <yandex>
          <profiles>
            <default>
              <allow_experimental_low_cardinality_type>1</allow_experimental_low_cardinality_type>
            </default>
          </profiles>
          <users>
            <default>
              <password></password>
              <networks>
                <ip>%s</ip>
              </networks>
              <profile>default</profile>
              <quota>default</quota>
            </default>
          </users>
          <quotas>
            <default></default>
          </quotas>
        </yandex>
        """
            .replace("%s", LOOPBACK);
    try {
      Files.writeString(configFile(), config, UTF_8);
      Files.writeString(path.resolve("users.xml"), users, UTF_8);
    } catch (IOException e) {
      throw new ClickHouseServerException("cannot write the ClickHouse config in " + path, e);
    }
  }

  /**
   * Makes {@code log/} ready for a launch: creates it, removes the {@code orphaned} mark of an
   * earlier wrapper and, with {@code freshLogs}, the logs of an earlier attempt.
   */
  void prepareLaunch(boolean freshLogs) {
    Path log = log();
    try {
      Files.createDirectories(log);
      Files.deleteIfExists(path.resolve("orphaned"));
      if (freshLogs) {
        try (Stream<Path> files = Files.list(log)) {
          for (Path file : (Iterable<Path>) files::iterator) {
            Files.delete(file);
          }
        }
      }
    } catch (IOException e) {
      throw new ClickHouseServerException("cannot prepare " + log, e);
    }
  }

  /** The last lines of the server's error log and of its stderr. */
  String diagnostics() {
    Path log = log();
    return "--- " + log.resolve("clickhouse-server.err.log") + " (last lines):\n"
        + tail(log.resolve("clickhouse-server.err.log"))
        + "--- stderr (last lines):\n"
        + tail(log.resolve("stderr.log"))
        + tailIfAny(log.resolve("wrapper.log"));
  }

  private static String tailIfAny(Path file) {
    String tail = tail(file);
    return tail.isBlank() ? "" : "--- " + file.getFileName() + ":\n" + tail;
  }

  private static String tail(Path file) {
    try {
      List<String> lines = new String(Files.readAllBytes(file), UTF_8).lines().toList();
      List<String> last = lines.subList(Math.max(0, lines.size() - LOG_TAIL_LINES), lines.size());
      return last.isEmpty() ? "(empty)\n" : String.join("\n", last) + "\n";
    } catch (NoSuchFileException e) {
      return "(none)\n";
    } catch (IOException e) {
      return "(unreadable: " + e + ")\n";
    }
  }

  /** Deletes the directory and everything in it; tries three times, 100 ms apart. */
  void delete() {
    IOException last = null;
    for (int attempt = 0; attempt < 3; attempt++) {
      try {
        deleteTree(path);
        return;
      } catch (IOException e) {
        last = e;
        try {
          Thread.sleep(100);
        } catch (InterruptedException interrupted) {
          Thread.currentThread().interrupt();
          break;
        }
      }
    }
    throw new ClickHouseServerException("cannot delete " + path, last);
  }

  private static void deleteTree(Path root) throws IOException {
    if (!Files.exists(root)) {
      return;
    }
    List<Path> paths;
    try (Stream<Path> walk = Files.walk(root)) {
      paths = walk.sorted(Comparator.reverseOrder()).toList();
    } catch (UncheckedIOException e) {
      throw e.getCause();
    }
    for (Path path : paths) {
      try {
        Files.delete(path);
      } catch (NoSuchFileException gone) {
        // deleted meanwhile
      }
    }
  }

  private static String xml(String text) {
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
  }
}
