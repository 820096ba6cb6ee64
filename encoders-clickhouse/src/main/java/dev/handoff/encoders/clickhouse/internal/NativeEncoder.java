package dev.handoff.encoders.clickhouse.internal;

import dev.handoff.api.ChunkBuffer;
import dev.handoff.api.ErrorClass;
import dev.handoff.api.HandoffException;
import dev.handoff.api.row.RowAccessor;
import dev.handoff.api.spi.RowEncoder;
import dev.handoff.api.TableSchema;
import dev.handoff.clickhouse.row.RowAccessors;
import dev.handoff.clickhouse.type.ClickHouseType;
import dev.handoff.clickhouse.value.Conversions;
import java.lang.invoke.MethodHandle;

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
 * <p><b>Size.</b> {@link #bufferedBytes} adds the precomputed header bytes, the rows times the
 * summed width of the top-level fixed-width columns (each holds exactly one value per row
 * between rows), the buffer lengths of the top-level String columns (the first two read from
 * fields of their own, without a loop), and the prefix and data sizes of the other top-level
 * columns, which every column keeps as counters: no walk over the rows, and no call and no
 * loop at all for a schema of plain leaves with at most two String columns (the stage asks
 * after every row).
 *
 * <p><b>Dispatch.</b> {@code RowAccessors.objectArray()} rows (at least as long as the schema)
 * go through a {@link NativeProgram}: one method handle per instance that appends the row to
 * these columns in the schema's order, with fast cases for the common Java classes and the
 * column's own {@code append} for the rest. Other rows take the generic loop, where the hot leaf
 * classes are called through a switch on a per-column tag, so their {@code append} is bound
 * statically and inlined; every other column is a virtual call.
 */
final class NativeEncoder<T> implements RowEncoder<T> {
  private final TableSchema schema;
  private final ClickHouseType[] types;
  private final RowAccessor<T> accessor;
  private final Column[] columns;
  /** Per column: its name and type as binary strings, as the block header carries them. */
  private final byte[][] headers;
  /** The column count's VarUInt and every column's header: the block bytes that never vary. */
  private final long headerBytes;
  /** Per column: which hot leaf class it is ({@link #OTHER} for the rest). */
  private final byte[] tags;
  /** The summed width of the top-level fixed-width leaves: their bytes per row. */
  private final long fixedRowBytes;
  /**
   * The data buffers of the first two top-level variable-width leaves (String), or an empty
   * buffer of no column where the schema has fewer: a leaf's size is its buffer's length, read
   * here without a call or a loop (most schemas have at most two String columns).
   */
  private final ChunkBuffer variable0;
  private final ChunkBuffer variable1;
  /** The data buffers of the further top-level String leaves, or null when there are none. */
  private final ChunkBuffer[] moreVariable;
  /**
   * The other top-level columns that are not fixed-width leaves, whose sizes are asked for, or
   * null when there are none.
   */
  private final Column[] sized;
  /**
   * For {@code RowAccessors.objectArray()} rows: the {@link NativeProgram} of these columns,
   * or null (another accessor, or no column with a fast case).
   */
  private final MethodHandle program;
  private int rows;

  private static final byte OTHER = 0;
  private static final byte INT = 1;
  private static final byte FLOAT64 = 2;
  private static final byte DATETIME = 3;
  private static final byte DATE = 4;
  private static final byte STRING = 5;

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
      if (columns[i] instanceof Leaves.StringColumn sc) {
        sc.dropOffsets(); // only ever truncated to a row count: see Leaf.Variable
      }
      ChunkBuffer b = new ChunkBuffer(64);
      writeString(b, name);
      writeString(b, schema.column(i).type());
      headers[i] = b.toByteArray();
      h += headers[i].length;
    }
    this.headerBytes = ChunkBuffer.varUIntSize(types.length) + h;
    this.tags = new byte[columns.length];
    long fixed = 0;
    java.util.List<ChunkBuffer> variable = new java.util.ArrayList<>();
    java.util.List<Column> others = new java.util.ArrayList<>();
    for (int i = 0; i < columns.length; i++) {
      Column c = columns[i];
      tags[i] = c instanceof Leaves.IntColumn ? INT
          : c instanceof Leaves.Float64Column ? FLOAT64
          : c instanceof Leaves.DateTimeColumn ? DATETIME
          : c instanceof Leaves.DateColumn ? DATE
          : c instanceof Leaves.StringColumn ? STRING
          : OTHER;
      if (c instanceof Leaf.Fixed f && c.prefixBytes() == 0) {
        fixed += f.width;
      } else if (c instanceof Leaf.Variable v && c.prefixBytes() == 0) {
        variable.add(v.data);
      } else {
        others.add(c);
      }
    }
    this.fixedRowBytes = fixed;
    ChunkBuffer none = new ChunkBuffer(1); // never written: length 0
    this.variable0 = variable.size() > 0 ? variable.get(0) : none;
    this.variable1 = variable.size() > 1 ? variable.get(1) : none;
    this.moreVariable = variable.size() > 2
        ? variable.subList(2, variable.size()).toArray(new ChunkBuffer[0]) : null;
    this.sized = others.isEmpty() ? null : others.toArray(new Column[0]);
    this.program = accessor == (Object) RowAccessors.objectArray()
        ? NativeProgram.compile(schema, types, columns) : null;
  }

  private static void writeString(ChunkBuffer b, String s) {
    b.writeVarUInt(ChunkBuffer.utf8Length(s));
    b.writeUtf8(s);
  }

  @Override
  public void encode(T row, ChunkBuffer buffer) {
    if (program != null && row != null && ((Object[]) row).length >= columns.length) {
      appendProgram(row);
      return;
    }
    int column = 0;
    try {
      Column[] cols = columns;
      byte[] tag = tags;
      RowAccessor<T> acc = accessor;
      for (; column < cols.length; column++) {
        append(cols[column], tag[column], acc, row, column);
      }
    } catch (HandoffException e) {
      rollback(column, e);
      throw e;
    } catch (RuntimeException e) {
      rollback(column, e);
      // An adapter that returned the wrong Java type, or any other surprise: still a record
      // error with the shape of every other DATA error, keeping the adapter's exception.
      throw Conversions.unreadable(accessor, row, column, types[column],
          schema.column(column).name(), e);
    }
    rows++;
  }

  /**
   * Runs the row program on an Object[] row. Whatever it throws, every column goes back to the
   * rows before this one (columns the row has not reached are there already, so truncating them
   * changes nothing). The cases turn every conversion failure into a DATA error themselves, so
   * any other exception means a column buffer could not grow or a bug: FATAL, and the record's
   * batch replays instead of this and every following record being skipped.
   */
  private void appendProgram(T row) {
    try {
      program.invokeExact((Object[]) row);
    } catch (HandoffException e) {
      rollback(columns.length - 1, e);
      throw e;
    } catch (Error e) {
      rollback(columns.length - 1, e);
      throw e;
    } catch (Throwable e) { // a RuntimeException; invokeExact declares Throwable
      rollback(columns.length - 1, e);
      throw HandoffException.fatal("native: appending a row of " + columns.length
          + " columns to a block of " + rows + " rows failed: " + e, e);
    }
    rows++;
  }

  /** Appends field {@code field} of {@code row} to column {@code c}, whose tag is {@code tag}. */
  private static <T> void append(Column c, byte tag, RowAccessor<T> acc, T row, int field) {
    switch (tag) {
      case INT: ((Leaves.IntColumn) c).append(acc, row, field); break;
      case FLOAT64: ((Leaves.Float64Column) c).append(acc, row, field); break;
      case DATETIME: ((Leaves.DateTimeColumn) c).append(acc, row, field); break;
      case DATE: ((Leaves.DateColumn) c).append(acc, row, field); break;
      case STRING: ((Leaves.StringColumn) c).append(acc, row, field); break;
      default: c.append(acc, row, field);
    }
  }

  /** Truncates columns 0..{@code failed} back to the rows before the current one. */
  private void rollback(int failed, Throwable cause) {
    try {
      for (int i = 0; i <= failed && i < columns.length; i++) {
        columns[i].truncate(rows);
      }
    } catch (RuntimeException e) {
      e.addSuppressed(cause);
      throw HandoffException.fatal("native: rolling back a failed row failed; the"
          + " block is inconsistent: " + e, e);
    }
  }

  @Override
  public int bufferedBytes() {
    int r = rows;
    if (r == 0) {
      return 0;
    }
    long b = headerBytes + ChunkBuffer.varUIntSize(r) + r * fixedRowBytes
        + variable0.length() + variable1.length();
    if (moreVariable != null) {
      for (ChunkBuffer d : moreVariable) {
        b += d.length();
      }
    }
    if (sized != null) {
      for (Column c : sized) {
        b += c.prefixBytes() + c.dataBytes();
      }
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
          : HandoffException.fatal("native: writing a block failed: " + e, e);
    } catch (RuntimeException e) {
      throw HandoffException.fatal("native: writing a block of " + rows
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
