package dev.handoff.benchmarks.encode;

import com.clickhouse.client.api.data_formats.RowBinaryFormatWriter;
import com.clickhouse.data.ClickHouseColumn;
import com.clickhouse.data.ClickHouseFormat;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.List;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Param;

/**
 * Encode cost per value of the types of ClickHouse 20-26 that client-v2 0.10.0 also writes, one
 * column of the type, ours against client-v2's POJO path: its {@link RowBinaryFormatWriter},
 * whose {@code setValue} and {@code commitRow} run {@code SerializerUtils.serializeData} per
 * value, the serializer its POJO inserts use. Values as both take them ({@link
 * ModernTypeValues}): Time and Time64 as {@code Long} (client-v2 refuses {@code LocalTime} and
 * {@code Duration}), geo shapes as {@code double} arrays, Variant and Dynamic as {@code Long} or
 * {@code String}, JSON as JSON text, which client-v2 sends as a string (the server reads it with
 * {@code input_format_binary_read_json_as_string = 1}) and ours as binary JSON (paths and typed
 * values). The setup checks that both write the same RowBinary bytes, JSON excepted.
 *
 * <pre>
 * java -jar benchmarks/target/benchmarks.jar 'ModernTypes' -prof gc -f 1 -wi 2 -w 1s -i 3 -r 1s
 * </pre>
 */
public class ModernTypesBenchmark extends ModernTypeCost {
  /**
   * The column's type, or {@code JSON-arrays}: a JSON column whose texts hold arrays (of strings,
   * of numbers with nulls, of mixed kinds, of arrays, of objects; {@link ModernTypeValues}).
   */
  @Param({"Time", "Time64(3)", "Point", "Ring", "Polygon", "Variant(Int64, String)", "Dynamic",
      "JSON", "JSON-arrays", "Nullable(Tuple(a UInt8, b String))"})
  public String type;

  private ByteSink sink;
  private RowBinaryFormatWriter writer;

  @Override
  protected String type() {
    return type.equals(ModernTypeValues.JSON_ARRAYS) ? "JSON" : type;
  }

  @Override
  protected String dataset() {
    return type;
  }

  @Override
  protected void setupOthers(int room) {
    sink = new ByteSink(room * 2);
    writer = new RowBinaryFormatWriter(sink, new com.clickhouse.client.api.metadata.TableSchema(
        List.of(ClickHouseColumn.of("v", type()))), ClickHouseFormat.RowBinary);
    if (!type().equals("JSON")) {
      byte[] ours = rowBinaryBytes();
      clientV2Writer();
      byte[] theirs = sink.toByteArray();
      int at = Arrays.mismatch(ours, theirs);
      if (at >= 0) {
        throw new IllegalStateException(type + ": client-v2 differs from ours at byte " + at);
      }
    }
  }

  /** client-v2's POJO path: {@code setValue} and {@code commitRow} per value. */
  @Benchmark
  public int clientV2Writer() {
    sink.reset();
    RowBinaryFormatWriter w = writer;
    try {
      for (Object[] row : rows) {
        w.setValue(1, row[0]);
        w.commitRow();
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return sink.size();
  }
}
