package dev.handoff.simulator;

import dev.handoff.api.row.RowAccessor;
import dev.handoff.api.row.ValueKind;
import dev.handoff.api.ColumnSpec;
import dev.handoff.api.TableSchema;

/**
 * One simulated source record: its run-wide id, its source, its number within the source, its
 * routing key, its sequence number within that key and a pad of varying length (rows of varying
 * size). The encoder writes all six columns; the simulated sink decodes them back.
 */
final class SimRow {
  /** The table every simulated encoder is created for. */
  static final TableSchema SCHEMA = TableSchema.of(
      new ColumnSpec("id", "UInt32"),
      new ColumnSpec("source", "UInt16"),
      new ColumnSpec("n", "UInt32"),
      new ColumnSpec("key", "UInt64"),
      new ColumnSpec("seq", "UInt64"),
      new ColumnSpec("pad", "String"));

  /** The most bytes a row's {@code pad} column holds. */
  static final int MAX_PAD = 4096;
  /** The pad of each length: {@code PADS[n]} holds {@code n} bytes of value {@code n & 0x7F}. */
  private static final byte[][] PADS = new byte[MAX_PAD + 1][];

  /** Reads the five columns as longs. */
  static final RowAccessor<SimRow> ACCESSOR = new RowAccessor<>() {
    @Override
    public ValueKind kind(SimRow row, int field) {
      return field == 5 ? ValueKind.BYTES : ValueKind.LONG;
    }

    @Override
    public Object getObject(SimRow row, int field) {
      return field == 5 ? getBytes(row, field) : (Object) getLong(row, field);
    }

    @Override
    public byte[] getBytes(SimRow row, int field) {
      if (field != 5) {
        throw new IndexOutOfBoundsException("field " + field + " is not bytes");
      }
      return pad(row.pad);
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
      return 6;
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
  /** Bytes in the {@code pad} column: rows of varying size. */
  final int pad;

  SimRow(int id, int source, int n, long key, long keySeq, int pad) {
    this.pad = pad;
    this.id = id;
    this.source = source;
    this.n = n;
    this.key = key;
    this.keySeq = keySeq;
  }

  static synchronized byte[] pad(int n) {
    byte[] p = PADS[n];
    if (p == null) {
      p = new byte[n];
      java.util.Arrays.fill(p, (byte) (n & 0x7F));
      PADS[n] = p;
    }
    return p;
  }

  @Override
  public String toString() {
    return "record " + id + " (source " + source + " #" + n + ", key " + key + " seq " + keySeq
        + ")";
  }
}
