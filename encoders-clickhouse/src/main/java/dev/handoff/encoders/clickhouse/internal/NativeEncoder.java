package dev.handoff.encoders.clickhouse.internal;

import dev.handoff.api.ChunkBuffer;
import dev.handoff.api.ErrorClass;
import dev.handoff.api.HandoffException;
import dev.handoff.api.row.RowAccessor;
import dev.handoff.api.spi.RowEncoder;
import dev.handoff.api.spi.TableSchema;
import dev.handoff.clickhouse.type.ClickHouseType;
import dev.handoff.clickhouse.value.Conversions;

/**
 * Encodes rows in ClickHouse Native: rows are appended to per-column buffers, and {@link
 * #finishChunk} writes them as one block: VarUInt column count, VarUInt row count, then per
 * column its name, its type string exactly as the schema spells it, and (when the block has
 * rows) the state prefixes of the column's tree followed by its data. Never BlockInfo, never the
 * custom-serialization byte: an HTTP INSERT body is read at protocol revision 0.
 *
 * <p><b>Atomic rows.</b> {@link #encode} appends columns 0..n-1 in order. If column k fails,
 * columns 0..k are truncated back to the row count before the row (k included: it may hold part
 * of the value, such as the first elements of an array), which also removes LowCardinality
 * dictionary entries the row added; then the DATA error is rethrown. The chunk buffer is never
 * touched by {@code encode}.
 *
 * <p><b>Size.</b> {@link #bufferedBytes} adds the precomputed header bytes and each column's
 * prefix and data sizes, which every column keeps as counters: a walk over the type tree, not
 * the rows.
 */
final class NativeEncoder<T> implements RowEncoder<T> {
  private final TableSchema schema;
  private final ClickHouseType[] types;
  private final RowAccessor<T> accessor;
  private final Column[] columns;
  /** Per column: its name and type as binary strings, as the block header carries them. */
  private final byte[][] headers;
  private final long headerBytes;
  private int rows;

  NativeEncoder(TableSchema schema, ClickHouseType[] types, RowAccessor<T> accessor) {
    this.schema = schema;
    this.types = types;
    this.accessor = accessor;
    this.columns = new Column[types.length];
    this.headers = new byte[types.length][];
    long h = 0;
    for (int i = 0; i < types.length; i++) {
      String name = schema.column(i).name();
      columns[i] = Column.of(types[i], name);
      ChunkBuffer b = new ChunkBuffer(64);
      writeString(b, name);
      writeString(b, schema.column(i).type());
      headers[i] = b.toByteArray();
      h += headers[i].length;
    }
    this.headerBytes = h;
  }

  private static void writeString(ChunkBuffer b, String s) {
    b.writeVarUInt(ChunkBuffer.utf8Length(s));
    b.writeUtf8(s);
  }

  @Override
  public void encode(T row, ChunkBuffer buffer) {
    int column = 0;
    try {
      for (; column < columns.length; column++) {
        columns[column].append(accessor, row, column);
      }
    } catch (HandoffException e) {
      rollback(column, e);
      throw e;
    } catch (RuntimeException e) {
      rollback(column, e);
      // An adapter that returned the wrong Java type, or any other surprise: still a record
      // error with the shape of every other DATA error, keeping the adapter's exception.
      String message = Conversions.error(accessor, row, column, types[column],
          schema.column(column).name(), "could not be read: " + e).getMessage();
      throw new HandoffException(ErrorClass.DATA, message, e);
    }
    rows++;
  }

  /** Truncates columns 0..{@code failed} back to the rows before the current one. */
  private void rollback(int failed, RuntimeException cause) {
    try {
      for (int i = 0; i <= failed && i < columns.length; i++) {
        columns[i].truncate(rows);
      }
    } catch (RuntimeException e) {
      e.addSuppressed(cause);
      throw HandoffException.fatal("clickhouse-native: rolling back a failed row failed; the"
          + " block is inconsistent: " + e, e);
    }
  }

  @Override
  public int bufferedBytes() {
    if (rows == 0) {
      return 0;
    }
    long b = ChunkBuffer.varUIntSize(columns.length) + ChunkBuffer.varUIntSize(rows) + headerBytes;
    for (Column c : columns) {
      b += c.prefixBytes() + c.dataBytes();
    }
    return (int) Math.min(b, Integer.MAX_VALUE);
  }

  @Override
  public void finishChunk(ChunkBuffer buffer) {
    if (rows == 0) {
      return; // no empty blocks
    }
    try {
      buffer.ensureWritable(bufferedBytes());
      buffer.writeVarUInt(columns.length);
      buffer.writeVarUInt(rows);
      for (int i = 0; i < columns.length; i++) {
        buffer.writeBytes(headers[i]);
        columns[i].writePrefix(buffer);
        columns[i].writeData(buffer);
      }
    } catch (HandoffException e) {
      throw e.errorClass() == ErrorClass.FATAL ? e
          : HandoffException.fatal("clickhouse-native: writing a block failed: " + e, e);
    } catch (RuntimeException e) {
      throw HandoffException.fatal("clickhouse-native: writing a block of " + rows
          + " rows failed: " + e, e);
    } finally {
      reset();
    }
  }

  /** Empties every column for the next block, keeping their buffers. */
  private void reset() {
    for (Column c : columns) {
      c.truncate(0);
    }
    rows = 0;
  }

  /** Returns the bytes the column buffers hold, used or not (tests and diagnostics). */
  long retainedBytes() {
    long b = 0;
    for (Column c : columns) {
      b += c.retainedBytes();
    }
    return b;
  }

  @Override
  public RowEncoder<T> newInstance() {
    return new NativeEncoder<>(schema, types, accessor);
  }

  @Override
  public String toString() {
    return "NativeEncoder" + schema.columns();
  }
}
