package dev.handoff.encoders.rowbinary;

import static org.assertj.core.api.Assertions.assertThat;

import dev.handoff.api.ChunkBuffer;
import dev.handoff.api.ColumnSpec;
import dev.handoff.api.TableSchema;
import dev.handoff.api.spi.RowEncoder;
import dev.handoff.clickhouse.row.RowAccessors;
import dev.handoff.clickhouse.testserver.Chdb;
import dev.handoff.clickhouse.testserver.ChdbSession;
import dev.handoff.encoders.rowbinary.internal.RowBinaryEncoderProvider;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code insert_deduplication_token} on a ClickHouse 26.7 engine (libchdb, {@link Chdb}), with
 * RowBinary bytes written by this module's encoder: the server side of idempotent retries. A
 * MergeTree table with {@code non_replicated_deduplication_window = 100} stores an insert once
 * however often the same bytes arrive with the same token, and twice with two tokens; without the
 * window the token does nothing; a token reused for other rows drops them; an insert the server
 * cuts into several blocks is deduplicated block by block. Inserts run with {@code async_insert =
 * 0}, as an HTTP insert does unless configured otherwise.
 *
 * <p>Never skipped: without libchdb, {@link Chdb#open()} fails in {@code @BeforeAll} with how to
 * install it.
 */
final class DeduplicationTokenChdbTest {
  private static final String COLUMNS =
      "id UInt64, customer String, amount Decimal(18, 2), at DateTime64(3, 'UTC')";
  private static final int ROWS = 1_000;
  private static ChdbSession engine;
  private static byte[] batch;

  @BeforeAll
  static void open() {
    engine = Chdb.open();
    batch = encode(0, ROWS);
  }

  @AfterAll
  static void close() {
    if (engine != null) {
      engine.close();
    }
  }

  /** Rows {@code from} to {@code from + count - 1}, in id order, as our RowBinary encoder writes them. */
  private static byte[] encode(int from, int count) {
    TableSchema schema = new TableSchema(List.of(new ColumnSpec("id", "UInt64"),
        new ColumnSpec("customer", "String"), new ColumnSpec("amount", "Decimal(18, 2)"),
        new ColumnSpec("at", "DateTime64(3, 'UTC')")));
    RowEncoder<Object[]> encoder =
        new RowBinaryEncoderProvider().create(schema, RowAccessors.objectArray(), Map.of());
    ChunkBuffer buffer = new ChunkBuffer(64 * count);
    for (long id = from; id < from + count; id++) {
      encoder.encode(new Object[] {id, "customer-" + id % 97, BigDecimal.valueOf(id * 25, 2),
          Instant.ofEpochMilli(1_767_225_600_000L + id)}, buffer);
    }
    return buffer.toByteArray();
  }

  private static String table(String name, int window) {
    engine.execute("CREATE TABLE " + name + " (" + COLUMNS + ") ENGINE = MergeTree ORDER BY id"
        + " SETTINGS non_replicated_deduplication_window = " + window);
    engine.execute("SYSTEM STOP MERGES " + name); // so that the parts counted are the inserts'
    return name;
  }

  private static void insert(String table, byte[] rows, String token, String moreSettings) {
    Path file = engine.writeFile(table + ".bin", rows);
    String settings = "async_insert = 0"
        + (token == null ? "" : ", insert_deduplication_token = " + Chdb.literal(token))
        + (moreSettings.isEmpty() ? "" : ", " + moreSettings);
    engine.execute("INSERT INTO " + table + " FROM INFILE " + Chdb.literal(file.toString())
        + " SETTINGS " + settings + " FORMAT RowBinary");
  }

  private static long count(String table) {
    return Long.parseLong(engine.queryText("SELECT count() FROM " + table).strip());
  }

  private static long activeParts(String table) {
    return Long.parseLong(engine.queryText("SELECT count() FROM system.parts"
        + " WHERE database = currentDatabase() AND table = " + Chdb.literal(table)
        + " AND active").strip());
  }

  @Test
  void sameBytes_sameToken_storeTheRowsOnce_exactlyAsEncoded() {
    String t = table("same_token", 100);
    insert(t, batch, "shard-0:seq-1", "");
    insert(t, batch, "shard-0:seq-1", ""); // the retry after a lost response
    insert(t, batch, "shard-0:seq-1", "");
    assertThat(count(t)).isEqualTo(ROWS);
    assertThat(activeParts(t)).isEqualTo(1);
    assertThat(engine.query("SELECT * FROM " + t + " ORDER BY id", "RowBinary")).isEqualTo(batch);
  }

  @Test
  void sameBytes_differentTokens_storeTheRowsTwice() {
    String t = table("two_tokens", 100);
    insert(t, batch, "shard-0:seq-1", "");
    insert(t, batch, "shard-0:seq-2", ""); // identical rows, but another insert
    assertThat(count(t)).isEqualTo(2L * ROWS);
    assertThat(engine.queryText("SELECT uniqExact(id), min(c), max(c) FROM"
        + " (SELECT id, count() AS c FROM " + t + " GROUP BY id)"))
        .isEqualTo(ROWS + "\t2\t2\n");
  }

  @Test
  void withoutTheWindow_aPlainMergeTreeIgnoresTheToken() {
    String t = table("no_window", 0);
    insert(t, batch, "shard-0:seq-1", "");
    insert(t, batch, "shard-0:seq-1", "");
    assertThat(count(t)).isEqualTo(2L * ROWS);
  }

  @Test
  void withoutAToken_identicalBytesAreDeduplicatedByTheirHash() {
    String t = table("no_token", 100);
    insert(t, batch, null, "");
    insert(t, batch, null, "");
    assertThat(count(t)).isEqualTo(ROWS);
    insert(t, batch, "shard-0:seq-1", ""); // a token replaces the hash as the identity
    assertThat(count(t)).isEqualTo(2L * ROWS);
  }

  @Test
  void aTokenReusedForOtherRows_dropsThem() {
    String t = table("reused_token", 100);
    insert(t, batch, "shard-0:seq-1", "");
    insert(t, encode(ROWS, 10), "shard-0:seq-1", "");
    assertThat(count(t)).isEqualTo(ROWS);
    assertThat(engine.queryText("SELECT max(id) FROM " + t)).isEqualTo((ROWS - 1) + "\n");
  }

  @Test
  void anInsertCutIntoBlocks_isDeduplicatedBlockByBlock() {
    String t = table("blocks", 100);
    String small = "max_insert_block_size = 100, max_block_size = 100,"
        + " input_format_parallel_parsing = 0, min_insert_block_size_rows = 0,"
        + " min_insert_block_size_bytes = 0"; // blocks of 100 rows, each a part of its own
    insert(t, batch, "shard-0:seq-1", small);
    long parts = activeParts(t);
    insert(t, batch, "shard-0:seq-1", small);
    assertThat(count(t)).isEqualTo(ROWS);
    assertThat(parts).isEqualTo(ROWS / 100);
    assertThat(activeParts(t)).isEqualTo(parts);
  }
}
