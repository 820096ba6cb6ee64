package dev.handoff.encoders.rowbinary.internal;

import dev.handoff.api.ChunkBuffer;
import dev.handoff.api.row.RowAccessor;
import dev.handoff.api.spi.RowEncoder;
import dev.handoff.api.spi.RowEncoderProvider;
import dev.handoff.api.TableSchema;
import dev.handoff.clickhouse.type.BinaryTypes;
import dev.handoff.clickhouse.type.ClickHouseType;
import dev.handoff.clickhouse.type.TypeKind;
import dev.handoff.encoders.rowbinary.RowBinaryOptions;
import java.util.Map;
import java.util.Objects;

/** Provides the {@code rowbinary} encoder. */
public final class RowBinaryEncoderProvider implements RowEncoderProvider {

  /** Creates the provider; called by {@link java.util.ServiceLoader}. */
  public RowBinaryEncoderProvider() {}

  @Override
  public String name() {
    return RowBinaryOptions.NAME;
  }

  @Override
  public <T> RowEncoder<T> create(TableSchema schema, RowAccessor<T> accessor,
      Map<String, String> options) {
    Objects.requireNonNull(schema, "schema");
    Objects.requireNonNull(accessor, "accessor");
    boolean withHeader = false;
    boolean binaryTypes = false;
    java.time.ZoneId zone = null;
    for (Map.Entry<String, String> e : options.entrySet()) {
      if (e.getKey().equals(RowBinaryOptions.TIMEZONE)) {
        try {
          zone = java.time.ZoneId.of(e.getValue());
        } catch (java.time.DateTimeException bad) {
          throw new IllegalArgumentException("rowbinary: option timezone=" + e.getValue()
              + ": not a time zone (" + bad.getMessage() + ")", bad);
        }
        continue;
      }
      if (!e.getKey().equals(RowBinaryOptions.HEADER)) {
        throw new IllegalArgumentException("rowbinary: unknown option '" + e.getKey()
            + "' (known: " + RowBinaryOptions.HEADER + ", " + RowBinaryOptions.TIMEZONE + ")");
      }
      switch (e.getValue()) {
        case RowBinaryOptions.HEADER_NONE:
          withHeader = false;
          break;
        case RowBinaryOptions.HEADER_NAMES_AND_TYPES:
          withHeader = true;
          binaryTypes = false;
          break;
        case RowBinaryOptions.HEADER_NAMES_AND_BINARY_TYPES:
          withHeader = true;
          binaryTypes = true;
          break;
        default:
          throw new IllegalArgumentException("rowbinary: option header=" + e.getValue()
              + " (expected: " + RowBinaryOptions.HEADER_NONE + ", "
              + RowBinaryOptions.HEADER_NAMES_AND_TYPES + " or "
              + RowBinaryOptions.HEADER_NAMES_AND_BINARY_TYPES + ")");
      }
    }
    ClickHouseType[] types = new ClickHouseType[schema.size()];
    for (int i = 0; i < types.length; i++) {
      String name = schema.column(i).name();
      try {
        types[i] = ClickHouseType.parse(schema.column(i).type());
        if (zone != null) {
          types[i] = types[i].withDefaultZone(zone);
        }
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("column " + name + ": " + e.getMessage(), e);
      }
      if (types[i].kind() == TypeKind.NOTHING) {
        throw new IllegalArgumentException("column " + name + ": type Nothing cannot be written");
      }
    }
    byte[] header = withHeader ? header(schema, types, binaryTypes) : null;
    return new RowBinaryEncoder<>(schema, types, accessor, header);
  }

  /**
   * Builds the RowBinaryWithNamesAndTypes header: count, names, then the types, each as the
   * server's canonical name of the parsed type (a 26.x server refuses any other spelling, such as
   * {@code Decimal32(4)} for {@code Decimal(9, 4)}) or, with {@code binaryTypes}, as its binary
   * type encoding.
   */
  private static byte[] header(TableSchema schema, ClickHouseType[] types, boolean binaryTypes) {
    ChunkBuffer b = new ChunkBuffer(256);
    b.writeVarUInt(schema.size());
    for (int i = 0; i < schema.size(); i++) {
      writeString(b, schema.column(i).name());
    }
    for (int i = 0; i < schema.size(); i++) {
      if (binaryTypes) {
        try {
          b.writeBytes(BinaryTypes.encode(types[i]));
        } catch (IllegalArgumentException e) {
          throw new IllegalArgumentException("column " + schema.column(i).name() + ": "
              + e.getMessage(), e);
        }
      } else {
        writeString(b, types[i].canonicalName());
      }
    }
    return b.toByteArray();
  }

  private static void writeString(ChunkBuffer b, String s) {
    b.writeVarUInt(ChunkBuffer.utf8Length(s));
    b.writeUtf8(s);
  }
}
