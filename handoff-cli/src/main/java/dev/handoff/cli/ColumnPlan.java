package dev.handoff.cli;

import dev.handoff.api.TableSchema;
import dev.handoff.clickhouse.type.ClickHouseType;
import dev.handoff.clickhouse.type.TypeKind;
import dev.handoff.clickhouse.value.Conversions;
import java.time.ZoneId;
import java.util.List;
import java.util.Set;

/**
 * What the parser threads read for each column straight from a line's bytes, by the column's
 * type (with {@code Nullable} unwrapped), so that the pipeline thread, which encodes, only copies
 * values: a {@code String} takes its text as UTF-8 bytes, a {@code FixedString(N)} too when they
 * fit; a {@code Date}, {@code Date32} or {@code DateTime} (in a zone with a fixed offset) its
 * text's day or second as a number, a {@code UUID} its text as a {@code UUID}, an integer of up
 * to 64 bits its text as a number, each only when the value is in the column's range (see {@link
 * ByteFields}), an {@code Enum8} or {@code Enum16} an element's name as its value. CSV and TSV
 * fields (where a number is text, not a JSON number) also read a {@code Decimal} of up to 18
 * digits that the column holds exactly as its value, and a {@code Float32} as its correctly
 * rounded float. Anything else stays text, for the conversions to read and word as before.
 */
final class ColumnPlan {

  /** Text, read by the encoder's conversions (every type not named below). */
  static final byte TEXT = 0;
  /** {@code String}: UTF-8 bytes. */
  static final byte STRING = 1;
  /** {@code FixedString(N)}: UTF-8 bytes of at most {@code N} ({@link #max}). */
  static final byte FIXED = 2;
  /** {@code DateTime} in a fixed offset ({@link #min} holds its seconds east of UTC). */
  static final byte DATETIME = 3;
  /** {@code Date} or {@code Date32}: the day, within {@link #min}..{@link #max}. */
  static final byte DATE = 4;
  /** {@code UUID}. */
  static final byte UUID = 5;
  /** An integer type of up to 64 bits: a number within {@link #min}..{@link #max}. */
  static final byte INTEGER = 6;
  /** {@code Enum8} or {@code Enum16}: an element's name as its value ({@link #enumNames}). */
  static final byte ENUM = 7;
  /**
   * {@code Decimal(P, S)} with P at most 18, in CSV and TSV: a value the column holds exactly
   * ({@link #min} holds S, {@link #max} P).
   */
  static final byte DECIMAL = 8;
  /** {@code Float32}, in CSV and TSV: its correctly rounded float. */
  static final byte FLOAT32 = 9;

  /** Per column, what is read ({@link #TEXT} and the others). */
  final byte[] kind;
  /** Per column, the least value (or the offset of a {@link #DATETIME}). */
  final long[] min;
  /** Per column, the largest value (or the width of a {@link #FIXED}). */
  final long[] max;
  /** Per column, whether it is {@code Float64}: an exact decimal is read as a double there. */
  final boolean[] float64;
  /** Per {@link #ENUM} column, its element names as UTF-8 (else {@code null}). */
  final byte[][][] enumNames;
  /** Per {@link #ENUM} column, its element values, in the order of {@link #enumNames}. */
  final int[][] enumValues;

  private ColumnPlan(int columns) {
    kind = new byte[columns];
    min = new long[columns];
    max = new long[columns];
    float64 = new boolean[columns];
    enumNames = new byte[columns][][];
    enumValues = new int[columns][];
  }

  /**
   * Returns the value of column {@code c}'s enum element whose name is {@code b[from, to)}, or
   * {@link ByteFields#NONE}: the value the conversion gives that name (other text stays text,
   * for the conversion to word).
   */
  long enumValue(int c, byte[] b, int from, int to) {
    byte[][] names = enumNames[c];
    for (int i = 0; i < names.length; i++) {
      byte[] n = names[i];
      if (n.length == to - from && java.util.Arrays.equals(n, 0, n.length, b, from, to)) {
        return enumValues[c][i];
      }
    }
    return ByteFields.NONE;
  }

  /**
   * The plan of {@code schema}'s columns, date-time text without an offset read in {@code zone}
   * where a {@code DateTime} names no zone of its own (as the encoder is told).
   */
  static ColumnPlan of(TableSchema schema, ZoneId zone) {
    ColumnPlan p = new ColumnPlan(schema.size());
    for (int c = 0; c < schema.size(); c++) {
      ClickHouseType t;
      try {
        t = ClickHouseType.parse(schema.column(c).type()).withDefaultZone(zone);
        if (t.isNullable()) {
          t = t.element();
        }
      } catch (IllegalArgumentException | IllegalStateException e) {
        continue; // the encoder words it
      }
      p.plan(c, t);
    }
    return p;
  }

  private void plan(int c, ClickHouseType t) {
    switch (t.kind()) {
      case STRING:
        kind[c] = STRING;
        break;
      case FIXED_STRING:
        kind[c] = FIXED;
        max[c] = t.length();
        break;
      case FLOAT64:
        float64[c] = true;
        break;
      case DATE:
        kind[c] = DATE;
        min[c] = 0;
        max[c] = Conversions.DATE_MAX;
        break;
      case DATE32:
        kind[c] = DATE;
        min[c] = -25_567; // 1900-01-01
        max[c] = 120_529; // 2299-12-31
        break;
      case DATETIME: {
        ZoneId z = t.zone();
        if (z.getRules().isFixedOffset()) {
          kind[c] = DATETIME;
          min[c] = z.getRules().getOffset(java.time.Instant.EPOCH).getTotalSeconds();
        }
        break;
      }
      case UUID:
        kind[c] = UUID;
        break;
      case ENUM8: case ENUM16:
        kind[c] = ENUM;
        enumNames[c] = new byte[t.enumSize()][];
        enumValues[c] = new int[t.enumSize()];
        for (int i = 0; i < t.enumSize(); i++) {
          enumNames[c][i] = t.enumName(i).getBytes(java.nio.charset.StandardCharsets.UTF_8);
          enumValues[c][i] = t.enumValue(i);
        }
        break;
      case INT8: case INT16: case INT32: case INT64:
      case UINT8: case UINT16: case UINT32: case UINT64:
        kind[c] = INTEGER;
        min[c] = Conversions.minLong(t);
        max[c] = Conversions.maxLong(t);
        break;
      case DECIMAL:
        if (t.precision() <= 18) {
          kind[c] = DECIMAL;
          min[c] = t.scale();
          max[c] = t.precision();
        }
        break;
      case FLOAT32:
        kind[c] = FLOAT32;
        break;
      default:
        break;
    }
  }

  /**
   * The plan of the legacy sets: {@code float64} columns are {@code Float64}, {@code strings}
   * are {@code String}, every other column is read as text.
   */
  static ColumnPlan of(List<String> columns, Set<String> float64, Set<String> strings) {
    ColumnPlan p = new ColumnPlan(columns.size());
    for (int c = 0; c < columns.size(); c++) {
      p.float64[c] = float64.contains(columns.get(c));
      p.kind[c] = strings.contains(columns.get(c)) ? STRING : TEXT;
    }
    return p;
  }
}
