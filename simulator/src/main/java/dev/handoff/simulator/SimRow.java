package dev.handoff.simulator;

import dev.handoff.api.row.RowAccessor;
import dev.handoff.api.row.ValueKind;
import dev.handoff.api.ColumnSpec;
import dev.handoff.api.TableSchema;

/**
 * One simulated source record: its run-wide id, its source, its number within the source, its
 * routing key and its sequence number within that key. The encoder writes all five columns.
 */
final class SimRow {
  /** The table every simulated encoder is created for. */
  static final TableSchema SCHEMA = TableSchema.of(
      new ColumnSpec("id", "UInt32"),
      new ColumnSpec("source", "UInt16"),
      new ColumnSpec("n", "UInt32"),
      new ColumnSpec("key", "UInt64"),
      new ColumnSpec("seq", "UInt64"));

  /** Reads the five columns as longs. */
  static final RowAccessor<SimRow> ACCESSOR = new RowAccessor<>() {
    @Override
    public ValueKind kind(SimRow row, int field) {
      return ValueKind.LONG;
    }

    @Override
    public Object getObject(SimRow row, int field) {
      return getLong(row, field);
    }

    @Override
    public long getLong(SimRow row, int field) {
      switch (field) {
        case 0: return row.id;
        case 1: return row.poisoned ? POISON : row.source;
        case 2: return row.n;
        case 3: return row.key;
        case 4: return row.keySeq;
        default: throw new IndexOutOfBoundsException("field " + field);
      }
    }

    @Override
    public int size(SimRow row) {
      return 5;
    }
  };

  /**
   * The value a poisoned row carries in its {@code source} column: out of UInt16's range, so the
   * real encoder fails in the middle of the row (after writing the {@code id} column) and the
   * stage has to roll the partial row back.
   */
  static final long POISON = 70_000L;

  final int id;
  final int source;
  /** Set by the engine to inject a record-level DATA error through the encoder itself. */
  boolean poisoned;
  final int n;
  final long key;
  final long keySeq;

  SimRow(int id, int source, int n, long key, long keySeq) {
    this.id = id;
    this.source = source;
    this.n = n;
    this.key = key;
    this.keySeq = keySeq;
  }

  @Override
  public String toString() {
    return "record " + id + " (source " + source + " #" + n + ", key " + key + " seq " + keySeq
        + ")";
  }
}
