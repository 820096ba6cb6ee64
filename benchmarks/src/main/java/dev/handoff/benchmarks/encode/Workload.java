package dev.handoff.benchmarks.encode;

import com.clickhouse.client.api.data_formats.RowBinaryFormatSerializer;
import com.clickhouse.data.ClickHouseColumn;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.io.SerializedString;
import dev.handoff.api.ColumnSpec;
import dev.handoff.api.TableSchema;
import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.List;

/**
 * A table schema and pre-generated rows ({@code Object[]}, column {@code i} at index {@code i}),
 * plus the hand-written code two contenders need per schema: typed client-v2 serializer calls
 * and a Jackson JSONEachRow writer. Every contender reads the same row objects.
 */
public abstract class Workload {
  /** Rows per benchmark operation; every benchmark reports per row. */
  public static final int ROWS = 100_000;

  private final String name;
  private final List<ColumnSpec> columns;
  private final Object[][] rows;
  /** Field names, pre-quoted for Jackson (its fastest way to write a known name). */
  protected final SerializedString[] jsonNames;

  protected Workload(String name, List<ColumnSpec> columns, Object[][] rows) {
    this.name = name;
    this.columns = List.copyOf(columns);
    this.rows = rows;
    this.jsonNames = new SerializedString[columns.size()];
    for (int i = 0; i < jsonNames.length; i++) {
      jsonNames[i] = new SerializedString(columns.get(i).name());
    }
  }

  /** The narrow schema: DateTime, UInt64, Float64, UInt8, String ~12 bytes, String ~40 bytes. */
  public static Workload narrow(int rows, long seed) {
    return new NarrowWorkload(rows, seed);
  }

  /**
   * The narrow schema with {@code s12} declared {@code LowCardinality(String)}, its values drawn
   * from a pool of 200 distinct strings.
   *
   * @param shared whether rows hold the pool's String instances or each row its own copy
   */
  public static Workload narrowLowCardinality(int rows, long seed, boolean shared) {
    return NarrowWorkload.lowCardinality(rows, seed, shared);
  }

  /**
   * The wide schema: 20 columns of Int32, Int64, Float64, String, Nullable(String),
   * Array(Int32), UUID, Decimal64(4) and Date.
   *
   * @param decimals the Java form of the Decimal64(4) values
   */
  public static Workload wide(int rows, long seed, DecimalForm decimals) {
    return new WideWorkload(rows, seed, decimals);
  }

  /** The fixed-width schema: UInt64, Int32, Float64, DateTime, UInt8, Date (27 bytes a row). */
  public static Workload fixedWidth(int rows, long seed) {
    return new FixedWidthWorkload(rows, seed);
  }

  /** The Java form of Decimal values in the rows. */
  public enum DecimalForm {
    /** {@code Double} with at most 4 fraction digits: what a JSON or metrics pipeline has. */
    DOUBLE,
    /** {@code BigDecimal} of scale 4: what a careful money pipeline has. */
    BIG_DECIMAL
  }

  public String name() {
    return name;
  }

  public List<ColumnSpec> columns() {
    return columns;
  }

  public Object[][] rows() {
    return rows;
  }

  /** The schema for our encoder. */
  public TableSchema handoffSchema() {
    return new TableSchema(columns);
  }

  /** The same schema for client-v2 (parsed by client-v2 from the same type strings). */
  public com.clickhouse.client.api.metadata.TableSchema clientV2Schema() {
    List<ClickHouseColumn> list = new ArrayList<>();
    for (ColumnSpec c : columns) {
      list.add(ClickHouseColumn.of(c.name(), c.type()));
    }
    return new com.clickhouse.client.api.metadata.TableSchema(list);
  }

  /**
   * Writes {@code row} with client-v2's typed {@link RowBinaryFormatSerializer} calls: the
   * fastest correct hand-written use of that API ({@code out} is the serializer's stream, for
   * {@link RowBinaryFormatSerializer#writeSize}).
   */
  public abstract void writeTyped(RowBinaryFormatSerializer s, OutputStream out, Object[] row)
      throws IOException;

  /** Writes {@code row} as one JSONEachRow object (the caller ends the line). */
  public abstract void writeJson(JsonGenerator g, Object[] row) throws IOException;
}
