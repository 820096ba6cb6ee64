package dev.handoff.clickhouse.http;

import java.net.URI;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * How {@link ClickHouseHttp} reaches a server. Build with {@link #builder()}; every field has a
 * default.
 *
 * @param url the server's HTTP interface, default {@code http://127.0.0.1:8123}
 * @param user the user, sent as {@code X-ClickHouse-User}; {@code null} leaves it to the server
 *     ({@code default})
 * @param password the password, sent as {@code X-ClickHouse-Key}; {@code null} sends none
 * @param database the database for names without one and the {@code database} parameter of every
 *     request; default {@code default}
 * @param connectTimeout how long a new connection may take, default 5 s
 * @param requestTimeout how long a request may wait for the response headers after it is sent
 *     (the server answers an insert once it is written), default 60 s
 * @param compression how insert bodies are compressed, default {@link Compression#LZ4}
 * @param zstdLevel the ZSTD level, {@value #MIN_ZSTD_LEVEL} to {@value #MAX_ZSTD_LEVEL}, default
 *     {@value #DEFAULT_ZSTD_LEVEL}; used only with {@link Compression#ZSTD}
 * @param settings server settings sent as URL parameters with every request (for example {@code
 *     max_insert_block_size}); names are plain identifiers
 */
public record ClickHouseHttpOptions(URI url, String user, String password, String database,
    Duration connectTimeout, Duration requestTimeout, Compression compression, int zstdLevel,
    Map<String, String> settings) {

  /** The default URL. */
  public static final String DEFAULT_URL = "http://127.0.0.1:8123";

  /** The default ZSTD level: ClickHouse's own default for its ZSTD codec. */
  public static final int DEFAULT_ZSTD_LEVEL = 1;

  /** The lowest ZSTD level accepted. */
  public static final int MIN_ZSTD_LEVEL = 1;

  /** The highest ZSTD level accepted (zstd's maximum). */
  public static final int MAX_ZSTD_LEVEL = 22;

  private static final Pattern IDENTIFIER = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

  /**
   * How insert bodies are compressed (queries, such as schema discovery, always go uncompressed).
   * Every compressed body costs client CPU and one compressed copy of the body, kept as a list of
   * buffers; it pays off when the network, not the server, is the bottleneck.
   */
  public enum Compression {
    /** Bodies are sent as they are, streamed from the frames without a copy. */
    NONE,
    /**
     * Bodies are gzip-compressed (fastest level) and sent with {@code Content-Encoding: gzip};
     * ClickHouse 18.16 and later decompress them.
     */
    GZIP,
    /**
     * Bodies are sent in ClickHouse's own compressed blocks with LZ4 (method byte {@code 0x82}),
     * with the URL parameter {@code decompress=1}: what ClickHouse's native clients send. The
     * default: cheap on the client, decompressed by the server at memory speed.
     */
    LZ4,
    /**
     * Bodies are sent in ClickHouse's own compressed blocks with ZSTD (method byte {@code 0x90})
     * at {@link ClickHouseHttpOptions#zstdLevel()}, with the URL parameter {@code decompress=1}:
     * fewer bytes than LZ4 for more client CPU.
     */
    ZSTD
  }

  /** Validates the fields and copies the settings. */
  public ClickHouseHttpOptions {
    Objects.requireNonNull(url, "url");
    String scheme = url.getScheme();
    if (!"http".equalsIgnoreCase(scheme) && !"https".equalsIgnoreCase(scheme)) {
      throw new IllegalArgumentException("url must be http or https: " + url);
    }
    if (url.getHost() == null) {
      throw new IllegalArgumentException("url has no host: " + url);
    }
    Objects.requireNonNull(database, "database");
    if (database.isBlank()) {
      throw new IllegalArgumentException("database is blank");
    }
    requirePositive(connectTimeout, "connectTimeout");
    requirePositive(requestTimeout, "requestTimeout");
    Objects.requireNonNull(compression, "compression");
    if (zstdLevel < MIN_ZSTD_LEVEL || zstdLevel > MAX_ZSTD_LEVEL) {
      throw new IllegalArgumentException("zstdLevel " + zstdLevel + " (expected: "
          + MIN_ZSTD_LEVEL + " to " + MAX_ZSTD_LEVEL + ")");
    }
    Map<String, String> copy = new LinkedHashMap<>();
    for (Map.Entry<String, String> e : Objects.requireNonNull(settings, "settings").entrySet()) {
      if (!IDENTIFIER.matcher(e.getKey()).matches()) {
        throw new IllegalArgumentException("setting name is not an identifier: " + e.getKey());
      }
      copy.put(e.getKey(), Objects.requireNonNull(e.getValue(), e.getKey()));
    }
    settings = Collections.unmodifiableMap(copy);
  }

  private static void requirePositive(Duration d, String name) {
    Objects.requireNonNull(d, name);
    if (d.isNegative() || d.isZero()) {
      throw new IllegalArgumentException(name + " must be positive: " + d);
    }
  }

  /** Returns the defaults: {@code http://127.0.0.1:8123}, user and database {@code default}. */
  public static ClickHouseHttpOptions defaults() {
    return builder().build();
  }

  /** Returns a builder holding the defaults. */
  public static Builder builder() {
    return new Builder();
  }

  /** Returns a builder holding these options. */
  public Builder toBuilder() {
    Builder b = new Builder();
    b.url = url;
    b.user = user;
    b.password = password;
    b.database = database;
    b.connectTimeout = connectTimeout;
    b.requestTimeout = requestTimeout;
    b.compression = compression;
    b.zstdLevel = zstdLevel;
    b.settings.putAll(settings);
    return b;
  }

  /** Returns the options without the password, for logs. */
  @Override
  public String toString() {
    return "ClickHouseHttpOptions{url=" + url + ", user=" + user
        + ", password=" + (password == null ? "none" : "***") + ", database=" + database
        + ", connectTimeout=" + connectTimeout + ", requestTimeout=" + requestTimeout
        + ", compression=" + compression
        + (compression == Compression.ZSTD ? "(" + zstdLevel + ")" : "") + ", settings=" + settings + '}';
  }

  /** Builds {@link ClickHouseHttpOptions}; not thread-safe. */
  public static final class Builder {
    private URI url = URI.create(DEFAULT_URL);
    private String user;
    private String password;
    private String database = "default";
    private Duration connectTimeout = Duration.ofSeconds(5);
    private Duration requestTimeout = Duration.ofSeconds(60);
    private Compression compression = Compression.LZ4;
    private int zstdLevel = DEFAULT_ZSTD_LEVEL;
    private final Map<String, String> settings = new LinkedHashMap<>();

    private Builder() {}

    /** Sets the server URL, such as {@code http://127.0.0.1:8123}. */
    public Builder url(String url) {
      this.url = URI.create(Objects.requireNonNull(url, "url"));
      return this;
    }

    /** Sets the user ({@code null}: the server's default user). */
    public Builder user(String user) {
      this.user = user;
      return this;
    }

    /** Sets the password ({@code null}: none). */
    public Builder password(String password) {
      this.password = password;
      return this;
    }

    /** Sets the default database. */
    public Builder database(String database) {
      this.database = database;
      return this;
    }

    /** Sets the connect timeout. */
    public Builder connectTimeout(Duration timeout) {
      this.connectTimeout = timeout;
      return this;
    }

    /** Sets the request timeout. */
    public Builder requestTimeout(Duration timeout) {
      this.requestTimeout = timeout;
      return this;
    }

    /** Sets how insert bodies are compressed (default {@link Compression#LZ4}). */
    public Builder compression(Compression compression) {
      this.compression = compression;
      return this;
    }

    /**
     * Sets the ZSTD level for {@link Compression#ZSTD}, {@value ClickHouseHttpOptions#MIN_ZSTD_LEVEL}
     * (fastest) to {@value ClickHouseHttpOptions#MAX_ZSTD_LEVEL} (smallest); default {@value
     * ClickHouseHttpOptions#DEFAULT_ZSTD_LEVEL}.
     */
    public Builder zstdLevel(int level) {
      this.zstdLevel = level;
      return this;
    }

    /** Adds a server setting sent with every request. */
    public Builder setting(String name, String value) {
      settings.put(name, value);
      return this;
    }

    /** Returns the options. */
    public ClickHouseHttpOptions build() {
      return new ClickHouseHttpOptions(url, user, password, database, connectTimeout,
          requestTimeout, compression, zstdLevel, settings);
    }
  }
}
