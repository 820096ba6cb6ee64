package dev.handoff.clickhouse.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.handoff.api.ChunkBuffer;
import dev.handoff.api.Frame;
import dev.handoff.api.ColumnSpec;
import dev.handoff.api.spi.InsertWriter;
import dev.handoff.api.spi.RowEncoder;
import dev.handoff.api.TableSchema;
import dev.handoff.clickhouse.row.RowAccessors;
import dev.handoff.clickhouse.testserver.ClickHouseServer;
import dev.handoff.clickhouse.type.ClickHouseType;
import dev.handoff.core.Providers;
import dev.handoff.encoders.testsupport.ServerCanon.Cell;
import dev.handoff.encoders.testsupport.ServerValueGen;
import java.io.ByteArrayOutputStream;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Splitting frames of the real encoders into single rows: for random rows of many types, each
 * part inserted on its own into a real 18.16 server gives exactly the rows the whole frame gives.
 */
final class SplitServerTest {
  static final ClickHouseServer server = ClickHouseServer.shared();
  static final ClickHouseHttp http = ClickHouseHttp.create(
      ClickHouseHttpOptions.builder().url(server.httpUrl()).build());

  static final String COLUMNS = "n UInt32, i8 Int8, u64 UInt64, f32 Float32, f64 Float64,"
      + " d9 Decimal(9, 2), d18 Decimal(18, 4), d38 Decimal(38, 10), s String,"
      + " fs FixedString(4), dt Date, ts DateTime, tz DateTime('Asia/Tokyo'), id UUID,"
      + " e8 Enum8('a' = 1, 'b' = -2), e16 Enum16('x' = 1000, 'y' = -1000),"
      + " ns Nullable(String), ni Nullable(Int64), nf Nullable(FixedString(2)),"
      + " arr Array(Nullable(String)), aa Array(Array(UInt16)), tup Tuple(Int8, String),"
      + " at Array(Tuple(Nullable(UInt8), String)), lc LowCardinality(String),"
      + " lcn LowCardinality(Nullable(String)), alc Array(LowCardinality(String)),"
      + " nest Nested(a UInt8, b String)";

  @ParameterizedTest
  @CsvSource({"Native, 1", "Native, 2", "Native, 3", "RowBinary, 1", "RowBinary, 2",
      "RowBinary, 3"})
  void split_eachPartInsertedAloneGivesExactlyTheRowsOfTheWholeFrame(String format, long seed)
      throws Exception {
    String db = server.uniqueDatabase("split_" + format.toLowerCase());
    server.execute("CREATE TABLE " + db + ".whole (" + COLUMNS + ") ENGINE = MergeTree ORDER BY n");
    server.execute("CREATE TABLE " + db + ".parts (" + COLUMNS + ") ENGINE = MergeTree ORDER BY n");
    TableSchema schema = http.schema(db, "whole");
    List<String> names = schema.columns().stream().map(ColumnSpec::name).toList();
    List<ClickHouseType> types = schema.columns().stream()
        .map(c -> ClickHouseType.parse(c.type())).toList();
    ServerValueGen gen = new ServerValueGen(seed, ServerValueGen.FloatNaNs.QUIET);

    // Two blocks (Native) or two runs of rows in one frame, as a sealed chunk may hold.
    RowEncoder<Object[]> encoder = Providers.encoder(Encoded.encoderFor(format))
        .create(schema, RowAccessors.objectArray(), Map.of());
    ChunkBuffer buffer = new ChunkBuffer(4096);
    int rows = 0;
    for (int block = 0; block < 2; block++) {
      for (int i = 0; i < 40; i++) {
        Object[] cells = gen.row(names, types);
        Object[] row = new Object[cells.length];
        row[0] = (long) rows++;
        for (int c = 1; c < cells.length; c++) {
          row[c] = ((Cell) cells[c]).input();
        }
        encoder.encode(row, buffer);
      }
      encoder.finishChunk(buffer);
    }
    Frame frame = buffer.split();

    InsertWriter whole = http.writer(db, "whole", schema, format);
    InsertWriter parts = http.writer(db, "parts", schema, format);
    whole.write(Encoded.insert(0, rows, frame));
    List<Frame> split = whole.split(frame).orElseThrow();
    assertThat(split).hasSize(rows);
    for (Frame part : split) {
      assertThat(part.length()).isLessThan(frame.length());
      parts.write(Encoded.insert(0, 1, part));
      assertThat(parts.split(part)).as("a one-row frame does not split").isEmpty();
    }

    assertThat(server.query("SELECT count() FROM " + db + ".parts")).isEqualTo(rows + "\n");
    assertThat(server.queryBytes("SELECT * FROM " + db + ".parts ORDER BY n FORMAT RowBinary"))
        .isEqualTo(server.queryBytes("SELECT * FROM " + db + ".whole ORDER BY n FORMAT RowBinary"));
    if (format.equals("RowBinary")) {
      ByteArrayOutputStream joined = new ByteArrayOutputStream();
      for (Frame part : split) {
        part.writeTo(joined);
      }
      assertThat(joined.toByteArray()).isEqualTo(frame.toByteArray());
    }
  }

  @ParameterizedTest
  @CsvSource({"Native", "RowBinary"})
  void split_bytesThatAreNotWholeRows_isEmpty(String format) {
    TableSchema schema = TableSchema.of(new ColumnSpec("a", "UInt32"), new ColumnSpec("s", "String"));
    InsertWriter writer = http.writer("db", "t", schema, format);
    Frame two = Encoded.frame(format, schema,
        List.of(new Object[] {1L, "x"}, new Object[] {2L, "yy"}));
    byte[] cut = Arrays.copyOf(two.toByteArray(), two.length() - 1);

    assertThat(writer.split(two)).get().asList().hasSize(2);
    assertThat(writer.split(Frame.copyOf(cut))).isEmpty();
    assertThat(writer.split(Frame.empty())).isEmpty();
  }

}
