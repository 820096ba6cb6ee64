package dev.handoff.flink.table;

import org.apache.flink.table.data.ArrayData;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.MapData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;

/**
 * The positional reads that {@link RowData} and {@link ArrayData} share without sharing an
 * interface, so {@link ValueRead} reads fields and elements with one piece of code. Two shared
 * stateless instances, {@link #ROW} and {@link #ARRAY}.
 *
 * @param <C> the container: {@code RowData} or {@code ArrayData}
 */
interface Slots<C> {

  boolean isNullAt(C c, int pos);

  boolean getBoolean(C c, int pos);

  byte getByte(C c, int pos);

  short getShort(C c, int pos);

  int getInt(C c, int pos);

  long getLong(C c, int pos);

  float getFloat(C c, int pos);

  double getDouble(C c, int pos);

  StringData getString(C c, int pos);

  DecimalData getDecimal(C c, int pos, int precision, int scale);

  TimestampData getTimestamp(C c, int pos, int precision);

  byte[] getBinary(C c, int pos);

  ArrayData getArray(C c, int pos);

  MapData getMap(C c, int pos);

  RowData getRow(C c, int pos, int arity);

  /** Reads the fields of a {@link RowData}. */
  Slots<RowData> ROW = new Slots<>() {
    @Override
    public boolean isNullAt(RowData c, int pos) {
      return c.isNullAt(pos);
    }

    @Override
    public boolean getBoolean(RowData c, int pos) {
      return c.getBoolean(pos);
    }

    @Override
    public byte getByte(RowData c, int pos) {
      return c.getByte(pos);
    }

    @Override
    public short getShort(RowData c, int pos) {
      return c.getShort(pos);
    }

    @Override
    public int getInt(RowData c, int pos) {
      return c.getInt(pos);
    }

    @Override
    public long getLong(RowData c, int pos) {
      return c.getLong(pos);
    }

    @Override
    public float getFloat(RowData c, int pos) {
      return c.getFloat(pos);
    }

    @Override
    public double getDouble(RowData c, int pos) {
      return c.getDouble(pos);
    }

    @Override
    public StringData getString(RowData c, int pos) {
      return c.getString(pos);
    }

    @Override
    public DecimalData getDecimal(RowData c, int pos, int precision, int scale) {
      return c.getDecimal(pos, precision, scale);
    }

    @Override
    public TimestampData getTimestamp(RowData c, int pos, int precision) {
      return c.getTimestamp(pos, precision);
    }

    @Override
    public byte[] getBinary(RowData c, int pos) {
      return c.getBinary(pos);
    }

    @Override
    public ArrayData getArray(RowData c, int pos) {
      return c.getArray(pos);
    }

    @Override
    public MapData getMap(RowData c, int pos) {
      return c.getMap(pos);
    }

    @Override
    public RowData getRow(RowData c, int pos, int arity) {
      return c.getRow(pos, arity);
    }
  };

  /** Reads the elements of an {@link ArrayData}. */
  Slots<ArrayData> ARRAY = new Slots<>() {
    @Override
    public boolean isNullAt(ArrayData c, int pos) {
      return c.isNullAt(pos);
    }

    @Override
    public boolean getBoolean(ArrayData c, int pos) {
      return c.getBoolean(pos);
    }

    @Override
    public byte getByte(ArrayData c, int pos) {
      return c.getByte(pos);
    }

    @Override
    public short getShort(ArrayData c, int pos) {
      return c.getShort(pos);
    }

    @Override
    public int getInt(ArrayData c, int pos) {
      return c.getInt(pos);
    }

    @Override
    public long getLong(ArrayData c, int pos) {
      return c.getLong(pos);
    }

    @Override
    public float getFloat(ArrayData c, int pos) {
      return c.getFloat(pos);
    }

    @Override
    public double getDouble(ArrayData c, int pos) {
      return c.getDouble(pos);
    }

    @Override
    public StringData getString(ArrayData c, int pos) {
      return c.getString(pos);
    }

    @Override
    public DecimalData getDecimal(ArrayData c, int pos, int precision, int scale) {
      return c.getDecimal(pos, precision, scale);
    }

    @Override
    public TimestampData getTimestamp(ArrayData c, int pos, int precision) {
      return c.getTimestamp(pos, precision);
    }

    @Override
    public byte[] getBinary(ArrayData c, int pos) {
      return c.getBinary(pos);
    }

    @Override
    public ArrayData getArray(ArrayData c, int pos) {
      return c.getArray(pos);
    }

    @Override
    public MapData getMap(ArrayData c, int pos) {
      return c.getMap(pos);
    }

    @Override
    public RowData getRow(ArrayData c, int pos, int arity) {
      return c.getRow(pos, arity);
    }
  };
}
