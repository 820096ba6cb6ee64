package dev.handoff.flink.table;

import dev.handoff.api.row.RowAccessor;
import dev.handoff.api.row.ValueKind;
import java.math.BigDecimal;
import org.apache.flink.table.data.RowData;

/**
 * Reads the fields of a {@link RowData} for the encoder: field {@code i} is Flink position
 * {@code positions[i]}, read as {@code reads[i]} says. Serves the top-level row (the table's
 * columns, matched by name) and ROW values inside it (Tuple elements, by position).
 *
 * <p>Primitives come out of Flink's typed getters without boxing; STRING and BYTES come out as
 * Flink's bytes. Immutable and shared by every shard.
 */
final class RowDataAccessor implements RowAccessor<RowData> {
  private final int[] positions;
  private final ValueRead[] reads;

  RowDataAccessor(int[] positions, ValueRead[] reads) {
    this.positions = positions.clone();
    this.reads = reads.clone();
  }

  @Override
  public ValueKind kind(RowData row, int field) {
    return reads[field].kind(Slots.ROW, row, positions[field]);
  }

  @Override
  public Object getObject(RowData row, int field) {
    return reads[field].getObject(Slots.ROW, row, positions[field]);
  }

  @Override
  public boolean isNull(RowData row, int field) {
    return row.isNullAt(positions[field]);
  }

  @Override
  public boolean getBoolean(RowData row, int field) {
    return reads[field].getBoolean(Slots.ROW, row, positions[field]);
  }

  @Override
  public long getLong(RowData row, int field) {
    return reads[field].getLong(Slots.ROW, row, positions[field]);
  }

  @Override
  public double getDouble(RowData row, int field) {
    return reads[field].getDouble(Slots.ROW, row, positions[field]);
  }

  @Override
  public BigDecimal getBigDecimal(RowData row, int field) {
    return reads[field].getBigDecimal(Slots.ROW, row, positions[field]);
  }

  @Override
  public CharSequence getText(RowData row, int field) {
    return reads[field].getText(Slots.ROW, row, positions[field]);
  }

  @Override
  public byte[] getBytes(RowData row, int field) {
    return reads[field].getBytes(Slots.ROW, row, positions[field]);
  }

  @Override
  public RowAccessor<Object> nested(RowData row, int field) {
    return reads[field].nested();
  }

  @Override
  public int size(RowData row) {
    return reads.length;
  }
}
