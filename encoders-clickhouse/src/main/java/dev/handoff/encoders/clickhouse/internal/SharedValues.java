package dev.handoff.encoders.clickhouse.internal;

import dev.handoff.api.ChunkBuffer;
import dev.handoff.api.ColumnSpec;
import dev.handoff.api.TableSchema;
import dev.handoff.api.row.RowAccessor;
import dev.handoff.api.row.ValueKind;
import dev.handoff.api.spi.RowEncoder;
import dev.handoff.api.spi.RowEncoderProvider;
import dev.handoff.clickhouse.type.BinaryTypes;
import dev.handoff.clickhouse.type.ClickHouseType;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;

/**
 * Writes one value as a JSON column's shared data holds it: the binary encoding of its type,
 * then the value in RowBinary. The RowBinary bytes come from the {@code rowbinary} encoder,
 * found through {@link ServiceLoader} like any encoder (so this module has no class dependency on
 * it): the value is read through a {@link Slot} that points at it. One instance per JSON column.
 */
final class SharedValues {
  private final String column;
  private final Map<ClickHouseType, RowEncoder<Slot>> encoders = new HashMap<>();
  private final Map<ClickHouseType, byte[]> tags = new HashMap<>();
  private final Slot slot = new Slot();
  private RowEncoderProvider provider;

  SharedValues(String column) {
    this.column = column;
  }

  /** Writes the type tag of {@code type} and the value at {@code field} of {@code container}. */
  void write(ClickHouseType type, RowAccessor<Object> acc, Object container, int field,
      ChunkBuffer out) {
    RowEncoder<Slot> e = encoders.get(type);
    if (e == null) {
      e = provider().create(new TableSchema(List.of(new ColumnSpec(column, type.toString()))),
          new SlotAccessor(), Map.of());
      encoders.put(type, e);
      tags.put(type, BinaryTypes.encode(type));
    }
    out.writeBytes(tags.get(type));
    slot.acc = acc;
    slot.container = container;
    slot.field = field;
    try {
      e.encode(slot, out);
    } finally {
      slot.container = null;
    }
  }

  private RowEncoderProvider provider() {
    if (provider == null) {
      for (RowEncoderProvider p : ServiceLoader.load(RowEncoderProvider.class)) {
        if (p.name().equals("rowbinary")) {
          provider = p;
        }
      }
      if (provider == null) {
        throw new IllegalStateException("column " + column + ": a block with more paths than"
            + " max_dynamic_paths writes the surplus as shared data, in RowBinary; put the"
            + " rowbinary encoder (handoff-encoders-rowbinary) on the module path");
      }
    }
    return provider;
  }

  /** Where the value to write is. */
  static final class Slot {
    RowAccessor<Object> acc;
    Object container;
    int field;
  }

  /** Reads field 0 of a {@link Slot} as its accessor reads the value it points at. */
  static final class SlotAccessor implements RowAccessor<Slot> {
    @Override
    public ValueKind kind(Slot s, int field) {
      return s.acc.kind(s.container, s.field);
    }

    @Override
    public Object getObject(Slot s, int field) {
      return s.acc.getObject(s.container, s.field);
    }

    @Override
    public boolean isNull(Slot s, int field) {
      return s.acc.isNull(s.container, s.field);
    }

    @Override
    public boolean getBoolean(Slot s, int field) {
      return s.acc.getBoolean(s.container, s.field);
    }

    @Override
    public long getLong(Slot s, int field) {
      return s.acc.getLong(s.container, s.field);
    }

    @Override
    public double getDouble(Slot s, int field) {
      return s.acc.getDouble(s.container, s.field);
    }

    @Override
    public BigInteger getBigInteger(Slot s, int field) {
      return s.acc.getBigInteger(s.container, s.field);
    }

    @Override
    public BigDecimal getBigDecimal(Slot s, int field) {
      return s.acc.getBigDecimal(s.container, s.field);
    }

    @Override
    public CharSequence getText(Slot s, int field) {
      return s.acc.getText(s.container, s.field);
    }

    @Override
    public byte[] getBytes(Slot s, int field) {
      return s.acc.getBytes(s.container, s.field);
    }

    @Override
    public void writeBytesWithLength(Slot s, int field, ChunkBuffer out) {
      s.acc.writeBytesWithLength(s.container, s.field, out);
    }

    @Override
    public RowAccessor<Object> nested(Slot s, int field) {
      return s.acc.nested(s.container, s.field);
    }

    @Override
    public int size(Slot s) {
      return 1;
    }
  }
}
