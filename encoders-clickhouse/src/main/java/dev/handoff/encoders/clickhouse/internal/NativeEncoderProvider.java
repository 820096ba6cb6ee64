package dev.handoff.encoders.clickhouse.internal;

import dev.handoff.api.row.RowAccessor;
import dev.handoff.api.spi.RowEncoder;
import dev.handoff.api.spi.RowEncoderProvider;
import dev.handoff.api.TableSchema;
import dev.handoff.clickhouse.type.ClickHouseType;
import dev.handoff.clickhouse.type.TypeKind;
import dev.handoff.encoders.clickhouse.NativeOptions;
import java.util.Map;
import java.util.Objects;

/** Provides the {@code native} encoder. */
public final class NativeEncoderProvider implements RowEncoderProvider {

  /** Creates the provider; called by {@link java.util.ServiceLoader}. */
  public NativeEncoderProvider() {}

  @Override
  public String name() {
    return NativeOptions.NAME;
  }

  @Override
  public <T> RowEncoder<T> create(TableSchema schema, RowAccessor<T> accessor,
      Map<String, String> options) {
    Objects.requireNonNull(schema, "schema");
    Objects.requireNonNull(accessor, "accessor");
    java.time.ZoneId zone = null;
    for (Map.Entry<String, String> e : options.entrySet()) {
      if (!e.getKey().equals(NativeOptions.TIMEZONE)) {
        throw new IllegalArgumentException(NativeOptions.NAME + ": unknown option '" + e.getKey()
            + "' (known: " + NativeOptions.TIMEZONE + ")");
      }
      zone = zoneOf(NativeOptions.NAME, e.getValue());
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
    // Compiles the column trees now, so an unsupported type fails here and not on a record.
    return new NativeEncoder<>(schema, types, accessor);
  }

  /** Parses the {@code timezone} option; a bad zone is an IllegalArgumentException naming it. */
  static java.time.ZoneId zoneOf(String provider, String value) {
    try {
      return java.time.ZoneId.of(value);
    } catch (java.time.DateTimeException e) {
      throw new IllegalArgumentException(provider + ": option timezone=" + value
          + ": not a time zone (" + e.getMessage() + ")", e);
    }
  }
}
