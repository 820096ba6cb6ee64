package dev.handoff.encoders.rowbinary.internal;

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
 * Encodes rows in RowBinary: per row, each column's value in table order, nothing else. With a
 * header, every frame starts with the RowBinaryWithNamesAndTypes header.
 */
final class RowBinaryEncoder<T> implements RowEncoder<T> {
  private final TableSchema schema;
  private final ClickHouseType[] types;
  private final RowAccessor<T> accessor;
  private final byte[] header;
  private final ValueWriter[] writers;

  /**
   * The fast path for Object[] rows (RowAccessors.objectArray(), recognized by identity): the
   * table's {@link RowProgram}, or null for other accessors.
   */
  private final MethodHandle program;

  RowBinaryEncoder(TableSchema schema, ClickHouseType[] types, RowAccessor<T> accessor,
      byte[] header) {
    this.schema = schema;
    this.types = types;
    this.accessor = accessor;
    this.header = header;
    this.writers = new ValueWriter[types.length];
    for (int i = 0; i < types.length; i++) {
      writers[i] = ValueWriter.of(types[i], schema.column(i).name());
    }
    this.program = accessor == (Object) RowAccessors.objectArray()
        ? RowProgram.compile(schema, types, writers) : null;
  }

  @Override
  public void encode(T row, ChunkBuffer buffer) {
    if (header != null && buffer.length() == 0) {
      // A new frame begins with this row. If the row fails, the stage truncates the header away
      // with it, and the next row writes it again.
      buffer.writeBytes(header);
    }
    // A null row, or one shorter than the schema, takes the generic path: the accessor
    // reports it.
    if (program != null && row != null && ((Object[]) row).length >= writers.length) {
      try {
        program.invokeExact((Object[]) row, buffer);
      } catch (HandoffException | Error e) {
        throw e;
      } catch (Throwable e) {
        // The cases turn their writers' exceptions into DATA errors; what is left is the
        // buffer's (a row beyond the largest array).
        throw new HandoffException(ErrorClass.DATA,
            "rowbinary: the row could not be written: " + e, e);
      }
      return;
    }
    int column = 0;
    try {
      for (; column < writers.length; column++) {
        writers[column].write(accessor, row, column, buffer);
      }
    } catch (HandoffException e) {
      throw e;
    } catch (RuntimeException e) {
      // An adapter that returned the wrong Java type, or any other surprise: still a record
      // error, never a different exception type. The message has the shape of every other
      // DATA error (with the value when the adapter can still show it), and the adapter's
      // exception stays the cause, so its stack trace is not lost.
      throw Conversions.unreadable(accessor, row, column, types[column],
          schema.column(column).name(), e);
    }
  }

  @Override
  public RowEncoder<T> newInstance() {
    return new RowBinaryEncoder<>(schema, types, accessor, header);
  }

  @Override
  public String toString() {
    return "RowBinaryEncoder" + schema.columns();
  }
}
