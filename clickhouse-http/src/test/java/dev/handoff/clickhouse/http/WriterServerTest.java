package dev.handoff.clickhouse.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.handoff.api.Frame;
import dev.handoff.api.spi.InsertWriter;
import dev.handoff.api.TableSchema;
import dev.handoff.api.spi.WriteException;
import dev.handoff.clickhouse.testserver.ClickHouseServer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Inserts through the HTTP writer into a real ClickHouse 18.16 server, and what it reports. */
final class WriterServerTest {
  static final ClickHouseServer server = ClickHouseServer.shared();

  private static ClickHouseHttp http(ClickHouseHttpOptions.Compression compression) {
    return ClickHouseHttp.create(ClickHouseHttpOptions.builder().url(server.httpUrl())
        .compression(compression).build());
  }

  private static List<Object[]> rows(int from, int count) {
    List<Object[]> rows = new ArrayList<>();
    for (int i = from; i < from + count; i++) {
      rows.add(new Object[] {(long) i, "s" + i, i % 3 == 0 ? null : "n" + i});
    }
    return rows;
  }

  private static String expected(int from, int count) {
    StringBuilder sb = new StringBuilder();
    for (int i = from; i < from + count; i++) {
      sb.append(i).append("\ts").append(i).append('\t')
          .append(i % 3 == 0 ? "\\N" : "n" + i).append('\n');
    }
    return sb.toString();
  }

  private static String createTable(String prefix) {
    String db = server.uniqueDatabase(prefix);
    server.execute("CREATE TABLE " + db + ".t (id UInt64, s String,"
        + " a Nullable(String), d UInt8 DEFAULT 7) ENGINE = MergeTree ORDER BY id");
    return db;
  }

  @ParameterizedTest
  @ValueSource(strings = {"Native", "RowBinary", "native", "rowbinary"})
  void write_insertsFramesOfSeveralChunksAsOneInsert_readBackEqual(String format) throws Exception {
    String db = server.uniqueDatabase("w_fmt");
    server.execute("CREATE TABLE " + db + ".t (id UInt64, s String, a Nullable(String))"
        + " ENGINE = MergeTree ORDER BY id");
    try (ClickHouseHttp http = http(ClickHouseHttpOptions.Compression.NONE)) {
      TableSchema schema = http.schema(db, "t");
      InsertWriter writer = http.writer(db, "t", schema, format);
      Frame a = Encoded.frame(format, schema, rows(0, 50));
      Frame b = Encoded.frame(format, schema, rows(50, 70));

      writer.write(Encoded.insert(0, 120, a, b));

      assertThat(server.query("SELECT * FROM " + db + ".t ORDER BY id FORMAT TabSeparated"))
          .isEqualTo(expected(0, 120));
    }
  }

  @Test
  void writer_byColumnNames_insertsThoseColumnsAndLeavesDefaults() throws Exception {
    String db = createTable("w_cols");
    try (ClickHouseHttp http = http(ClickHouseHttpOptions.Compression.NONE)) {
      InsertWriter writer = http.writer(db, "t", List.of("s", "id"), "RowBinary");
      TableSchema two = new TableSchema(List.of(http.schema(db, "t").column(1),
          http.schema(db, "t").column(0)));
      List<Object[]> rows = List.of(new Object[] {"x", 5L}, new Object[] {"y", 6L});

      writer.write(Encoded.insert(0, 2, Encoded.frame("RowBinary", two, rows)));

      assertThat(server.query("SELECT id, s, a, d FROM " + db + ".t ORDER BY id"))
          .isEqualTo("5\tx\t\\N\t7\n6\ty\t\\N\t7\n");
      assertThatThrownBy(() -> http.writer(db, "t", List.of("id", "nope"), "Native"))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("no insertable column nope");
      assertThatThrownBy(() -> http.writer(db, "t", List.of("id"), "JSONEachRow"))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("unsupported insert format 'JSONEachRow'");
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"Native", "RowBinary"})
  void write_gzipCompressedBodies_readBackEqual(String format) throws Exception {
    String db = server.uniqueDatabase("w_gzip");
    server.execute("CREATE TABLE " + db + ".t (id UInt64, s String, a Nullable(String))"
        + " ENGINE = MergeTree ORDER BY id");
    try (ClickHouseHttp http = http(ClickHouseHttpOptions.Compression.GZIP)) {
      TableSchema schema = http.schema(db, "t");
      InsertWriter writer = http.writer(db, "t", schema, format);

      writer.write(Encoded.insert(0, 500, Encoded.frame(format, schema, rows(0, 300)),
          Encoded.frame(format, schema, rows(300, 200))));

      assertThat(server.query("SELECT * FROM " + db + ".t ORDER BY id FORMAT TabSeparated"))
          .isEqualTo(expected(0, 500));
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"Native", "RowBinary"})
  void write_fourShardsConcurrently_everyRowArrivesOnce(String format) throws Exception {
    String db = server.uniqueDatabase("w_conc");
    server.execute("CREATE TABLE " + db + ".t (id UInt64, s String, a Nullable(String))"
        + " ENGINE = MergeTree ORDER BY id");
    int shards = 4;
    int insertsPerShard = 25;
    int rowsPerInsert = 40;
    ExecutorService pool = Executors.newFixedThreadPool(shards);
    try (ClickHouseHttp http = http(ClickHouseHttpOptions.Compression.NONE)) {
      TableSchema schema = http.schema(db, "t");
      InsertWriter writer = http.writer(db, "t", schema, format);
      List<Future<?>> done = new ArrayList<>();
      for (int s = 0; s < shards; s++) {
        int shard = s;
        done.add(pool.submit(() -> {
          for (int i = 0; i < insertsPerShard; i++) {
            int first = (shard * insertsPerShard + i) * rowsPerInsert;
            writer.write(Encoded.insert(shard, rowsPerInsert,
                Encoded.frame(format, schema, rows(first, rowsPerInsert))));
          }
          return null;
        }));
      }
      for (Future<?> f : done) {
        f.get(120, TimeUnit.SECONDS);
      }
    } finally {
      pool.shutdownNow();
    }
    int total = shards * insertsPerShard * rowsPerInsert;
    assertThat(server.query("SELECT count(), uniqExact(id), min(id), max(id) FROM " + db + ".t"))
        .isEqualTo(total + "\t" + total + "\t0\t" + (total - 1) + "\n");
  }

  @Test
  void write_unknownTable_isPermanentWithCode60() throws Exception {
    String db = createTable("w_unknown");
    try (ClickHouseHttp http = http(ClickHouseHttpOptions.Compression.NONE)) {
      TableSchema schema = http.schema(db, "t");
      InsertWriter writer = http.writer(db, "gone", schema, "RowBinary");

      assertThatThrownBy(() -> writer.write(Encoded.insert(0, 1,
          Encoded.frame("RowBinary", schema, List.<Object[]>of(new Object[] {1L, "x", null, 1})))))
          .isInstanceOfSatisfying(WriteException.class, e -> {
            assertThat(e.kind()).isEqualTo(WriteException.Kind.PERMANENT);
            assertThat(e.serverCode()).isEqualTo(60);
            assertThat(e).hasMessageContaining("HTTP 404").hasMessageContaining("UNKNOWN_TABLE")
                .hasMessageContaining(db + ".gone");
          });
    }
  }

  @Test
  void write_truncatedData_isPermanentAndWritesNothing() throws Exception {
    String db = createTable("w_bad");
    try (ClickHouseHttp http = http(ClickHouseHttpOptions.Compression.NONE)) {
      InsertWriter writer = http.writer(db, "t", http.schema(db, "t"), "RowBinary");

      assertThatThrownBy(() -> writer.write(Encoded.insert(0, 1, Frame.copyOf(new byte[] {1, 0, 0}))))
          .isInstanceOfSatisfying(WriteException.class, e -> {
            assertThat(e.kind()).isEqualTo(WriteException.Kind.PERMANENT);
            assertThat(e.serverCode()).isEqualTo(33);
            assertThat(e).hasMessageContaining("CANNOT_READ_ALL_DATA");
          });
      assertThat(server.query("SELECT count() FROM " + db + ".t")).isEqualTo("0\n");
    }
  }

  @Test
  void write_credentialsInHeaders_rightUserWrites_wrongPasswordOrUnknownUserIsPermanent() throws Exception {
    String db = createTable("w_auth");
    TableSchema schema;
    try (ClickHouseHttp http = http(ClickHouseHttpOptions.Compression.NONE)) {
      schema = http.schema(db, "t");
    }
    Frame frame = Encoded.frame("Native", schema, List.<Object[]>of(new Object[] {1L, "x", null, 1}));
    ClickHouseHttp wrongPassword = ClickHouseHttp.create(ClickHouseHttpOptions.builder()
        .url(server.httpUrl()).user("default").password("not-the-password").build());
    ClickHouseHttp unknownUser = ClickHouseHttp.create(ClickHouseHttpOptions.builder()
        .url(server.httpUrl()).user("nobody").build());

    ClickHouseHttp rightUser = ClickHouseHttp.create(ClickHouseHttpOptions.builder()
        .url(server.httpUrl()).user("default").build());
    rightUser.writer(db, "t", schema, "Native").write(Encoded.insert(0, 1, frame));
    assertThat(server.query("SELECT count() FROM " + db + ".t")).isEqualTo("1\n");

    assertThatThrownBy(() -> wrongPassword.writer(db, "t", schema, "Native")
        .write(Encoded.insert(0, 1, frame)))
        .isInstanceOfSatisfying(WriteException.class, e -> {
          assertThat(e.kind()).isEqualTo(WriteException.Kind.PERMANENT);
          assertThat(e.serverCode()).isEqualTo(193);
          assertThat(e).hasMessageContaining("HTTP 401").hasMessageContaining("WRONG_PASSWORD");
        });
    assertThatThrownBy(() -> unknownUser.writer(db, "t", schema, "Native")
        .write(Encoded.insert(0, 1, frame)))
        .isInstanceOfSatisfying(WriteException.class, e -> {
          assertThat(e.kind()).isEqualTo(WriteException.Kind.PERMANENT);
          assertThat(e.serverCode()).isEqualTo(192);
        });
    assertThatThrownBy(() -> wrongPassword.schema(db, "t"))
        .isInstanceOfSatisfying(ClickHouseHttpException.class, e -> {
          assertThat(e.status()).isEqualTo(401);
          assertThat(e.serverCode()).isEqualTo(193);
          assertThat(e.isTransient()).isFalse();
        });
  }

  @ParameterizedTest
  @ValueSource(strings = {"Native", "RowBinary"})
  void write_rowTheServerRejects_failsTheWholeInsertWith395_andItsRowsAlone(String format)
      throws Exception {
    String db = server.uniqueDatabase("w_reject");
    Rejections.createTable(server, db, "t", "id UInt64, s String", 666);
    try (ClickHouseHttp http = http(ClickHouseHttpOptions.Compression.NONE)) {
      TableSchema schema = http.schema(db, "t");
      assertThat(schema.columns()).extracting(c -> c.name()).containsExactly("id", "s");
      InsertWriter writer = http.writer(db, "t", schema, format);
      List<Object[]> rows = new ArrayList<>();
      for (long id = 660; id < 670; id++) {
        rows.add(new Object[] {id, "r" + id});
      }
      Frame frame = Encoded.frame(format, schema, rows);

      assertThatThrownBy(() -> writer.write(Encoded.insert(0, 10, frame)))
          .isInstanceOfSatisfying(WriteException.class, e -> {
            assertThat(e.kind()).isEqualTo(WriteException.Kind.PERMANENT);
            assertThat(e.serverCode()).isEqualTo(395);
            assertThat(e).hasMessageContaining("FUNCTION_THROW_IF_VALUE_IS_NON_ZERO");
          });
      assertThat(server.query("SELECT count() FROM " + db + ".t")).isEqualTo("0\n");

      List<Frame> parts = writer.split(frame).orElseThrow();
      assertThat(parts).hasSize(10);
      List<Integer> rejected = new ArrayList<>();
      for (int i = 0; i < parts.size(); i++) {
        try {
          writer.write(Encoded.insert(0, 1, parts.get(i)));
        } catch (WriteException e) {
          assertThat(e.serverCode()).isEqualTo(395);
          rejected.add(i);
        }
      }
      assertThat(rejected).containsExactly(6);
      assertThat(server.query("SELECT count(), sum(id) FROM " + db + ".t"))
          .isEqualTo("9\t" + (6645 - 666) + "\n");
    }
  }

  @Test
  void write_afterTheServerClosedTheIdleKeepAliveConnection_succeeds() throws Exception {
    String db = createTable("w_idle");
    try (ClickHouseHttp http = http(ClickHouseHttpOptions.Compression.NONE)) {
      TableSchema schema = http.schema(db, "t");
      InsertWriter writer = http.writer(db, "t", schema, "RowBinary");
      writer.write(Encoded.insert(0, 10, Encoded.frame("RowBinary", schema, rows4(0, 10))));

      Thread.sleep(3_500); // the server's keep_alive_timeout is 3 s

      writer.write(Encoded.insert(0, 10, Encoded.frame("RowBinary", schema, rows4(10, 10))));
      assertThat(server.query("SELECT count() FROM " + db + ".t")).isEqualTo("20\n");
    }
  }

  private static List<Object[]> rows4(int from, int count) {
    List<Object[]> rows = new ArrayList<>();
    for (Object[] r : rows(from, count)) {
      rows.add(new Object[] {r[0], r[1], r[2], 1});
    }
    return rows;
  }

  @ParameterizedTest
  @ValueSource(strings = {"Native", "RowBinary"})
  void write_columnAndTableNamesThatNeedQuoting(String format) throws Exception {
    String db = server.uniqueDatabase("w_quote");
    server.execute("CREATE TABLE " + db + ".`odd table` (`weird name` UInt8,"
        + " `back\\`tick` String, `dot.ted` String) ENGINE = Memory");
    try (ClickHouseHttp http = http(ClickHouseHttpOptions.Compression.NONE)) {
      TableSchema schema = http.schema(db, "odd table");
      assertThat(schema.columns()).extracting(c -> c.name())
          .containsExactly("weird name", "back`tick", "dot.ted");
      InsertWriter writer = http.writer(db, "odd table", schema, format);

      writer.write(Encoded.insert(0, 1, Encoded.frame(format, schema,
          List.<Object[]>of(new Object[] {7, "b", "d"}))));

      assertThat(server.query("SELECT * FROM " + db + ".`odd table`")).isEqualTo("7\tb\td\n");
    }
  }

  @Test
  void write_anEmptyInsert_isAcceptedByTheServer() throws Exception {
    String db = createTable("w_empty");
    try (ClickHouseHttp http = http(ClickHouseHttpOptions.Compression.NONE)) {
      InsertWriter writer = http.writer(db, "t", http.schema(db, "t"), "RowBinary");

      writer.write(Encoded.insert(0, 0, Frame.empty()));

      assertThat(server.query("SELECT count() FROM " + db + ".t")).isEqualTo("0\n");
    }
  }
}
