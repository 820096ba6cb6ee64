package dev.handoff.clickhouse.testserver;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * A ClickHouse 26.7 engine for tests, in process and without a server: libchdb (ClickHouse
 * {@value #ENGINE_VERSION} compiled as a shared library, npm package {@code
 * @chdb/lib-linux-x64-gnu@}{@value #PACKAGE_VERSION}), served by a small launcher the project
 * builds itself.
 *
 * <h2>Using it from a test</h2>
 *
 * <pre>{@code
 * static ChdbSession engine;
 *
 * @BeforeAll
 * static void start() {
 *   engine = Chdb.builder().experimentalTypes().open();              // about 0.4 s
 * }
 *
 * @AfterAll
 * static void stop() {
 *   engine.close();                                                  // deletes its data
 * }
 *
 * @Test
 * void readsOurBytes() {
 *   Path file = engine.writeFile("v.bin", encodedRowBinary);
 *   String rows = engine.queryText("SELECT v FROM file(" + Chdb.literal(file.toString())
 *       + ", 'RowBinary', 'v Time64(3)')", "JSONEachRow");
 *   byte[] same = engine.query("SELECT v FROM t", "RowBinary");
 * }
 * }</pre>
 *
 * <h2>Where the engine comes from</h2>
 *
 * <p>The library is looked for in the directory named by the system property {@value
 * #DIR_PROPERTY}, else the environment variable {@value #DIR_ENV}, else {@code
 * ${XDG_CACHE_HOME:-$HOME/.cache}/handoff/chdb/26.7.3-stable.1}, as {@code package/libchdb.so}
 * (how the npm tarball unpacks) or {@code libchdb.so}. {@code ./run-tests} downloads it there
 * (178 MB, 570 MB unpacked) when it is missing. When it is missing anyway, {@link #open()} throws
 * a {@link ChdbException} that says how to install it, locally as in CI ({@code CI=true}, where
 * the message adds that the test is not skipped): the same convention as {@link
 * ClickHouseServer} for a missing {@code clickhouse-server}.
 *
 * <p>On first use in a JVM the launcher ({@code chdb-launcher.c} in this module's resources) is
 * compiled with {@code gcc} into {@code launcher/} in that directory (or the temp directory
 * when that is not writable), once per source and library; later JVMs reuse it.
 *
 * <h2>Sessions and concurrency</h2>
 *
 * <p>Each {@link ChdbSession} is one launcher process holding one libchdb connection over a data
 * directory of its own: tables and {@code SET}s live as long as the session. A session runs one
 * query at a time; its methods may be called from any thread and queue on the session's lock.
 * Sessions are independent of each other and may run in parallel, but each maps the 570 MB library
 * and holds about 200 MB resident, so open one per test class (in {@code @BeforeAll}), not one per
 * test. Sessions never outlive the JVM: a shutdown hook closes those left open, and a launcher
 * whose JVM died without hooks sees its input close, exits and deletes its directory.
 */
public final class Chdb {
  /** The npm package version of {@code @chdb/lib-linux-x64-gnu} that the tests pin. */
  public static final String PACKAGE_VERSION = "26.7.3-stable.1";

  /** The ClickHouse version that package reports ({@code SELECT version()}). */
  public static final String ENGINE_VERSION = "26.7.2.1";

  /** Environment variable naming the directory that holds {@code package/libchdb.so}. */
  public static final String DIR_ENV = "HANDOFF_CHDB_DIR";

  /** System property naming that directory; it wins over {@value #DIR_ENV}. */
  public static final String DIR_PROPERTY = "handoff.chdb.dir";

  /**
   * The settings that enable every experimental or opt-in type of 26.7 ({@code JSON}, {@code
   * Time}/{@code Time64}, {@code Variant}, {@code Dynamic}, {@code Nullable(Tuple)}, {@code QBit},
   * and the suspicious {@code LowCardinality} and {@code Variant} combinations), each set to 1: the
   * settings the golden vectors of 26.7 were made with.
   */
  public static final Map<String, String> EXPERIMENTAL_TYPES = experimentalTypes();

  private static final Pattern SETTING_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

  private Chdb() {}

  /**
   * Opens a session with the engine's default settings.
   *
   * @throws ChdbException when the library is missing (with how to install it), the launcher
   *     cannot be built, or the engine does not start
   */
  public static ChdbSession open() {
    return builder().open();
  }

  /** A builder for a session with settings of its own. */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * The {@code libchdb.so} that sessions load.
   *
   * @throws ChdbException when it is missing or incomplete, saying how to install it
   */
  public static Path library() {
    return ChdbLibrary.library(location(), isCi());
  }

  /** The directory the library is looked for in, whether or not it is there. */
  public static Path directory() {
    return location().directory();
  }

  /**
   * {@code text} as a ClickHouse string literal in single quotes, with backslashes and quotes
   * escaped: for file paths and tokens in SQL.
   */
  public static String literal(String text) {
    return "'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'";
  }

  static ChdbLibrary.Location location() {
    return ChdbLibrary.location(
        System.getProperty(DIR_PROPERTY), System.getenv(), System.getProperty("user.home"));
  }

  static boolean isCi() {
    return "true".equalsIgnoreCase(System.getenv("CI"));
  }

  private static Map<String, String> experimentalTypes() {
    Map<String, String> settings = new LinkedHashMap<>();
    for (String name : new String[] {"enable_json_type", "enable_time_time64_type",
        "allow_experimental_variant_type", "allow_experimental_dynamic_type",
        "enable_nullable_tuple_type", "allow_experimental_qbit_type",
        "allow_suspicious_low_cardinality_types", "allow_suspicious_variant_types"}) {
      settings.put(name, "1");
    }
    return Collections.unmodifiableMap(settings);
  }

  /** Settings and limits of a session to open; not thread-safe. */
  public static final class Builder {
    private final Map<String, String> settings = new LinkedHashMap<>();
    private Duration queryTimeout = Duration.ofMinutes(10);

    private Builder() {}

    /**
     * Sets {@code name = value} on the session's connection before it is handed out ({@code SET
     * name = value}); {@code value} is SQL, so a string needs quotes ({@code "'UTC'"}).
     *
     * @throws IllegalArgumentException unless {@code name} is a plain identifier
     */
    public Builder setting(String name, String value) {
      if (!SETTING_NAME.matcher(name).matches()) {
        throw new IllegalArgumentException("not a setting name: " + name);
      }
      settings.put(name, Objects.requireNonNull(value, "value"));
      return this;
    }

    /** Sets each entry as {@link #setting(String, String)} does. */
    public Builder settings(Map<String, String> more) {
      more.forEach(this::setting);
      return this;
    }

    /** Sets {@link Chdb#EXPERIMENTAL_TYPES}. */
    public Builder experimentalTypes() {
      return settings(EXPERIMENTAL_TYPES);
    }

    /**
     * How long one query (and the start) may take before the session's process is killed and the
     * query fails; 10 minutes unless set.
     */
    public Builder queryTimeout(Duration timeout) {
      if (timeout.isNegative() || timeout.isZero()) {
        throw new IllegalArgumentException("timeout must be positive: " + timeout);
      }
      this.queryTimeout = timeout;
      return this;
    }

    /**
     * Starts the engine and applies the settings.
     *
     * @throws ChdbException when the library is missing (with how to install it), the launcher
     *     cannot be built, the engine does not start, or a setting is refused (the session is
     *     closed then)
     */
    public ChdbSession open() {
      Path library = library();
      Path launcher = ChdbLibrary.launcher(library);
      return ChdbSession.start(launcher, new LinkedHashMap<>(settings), queryTimeout);
    }
  }
}
