package dev.handoff.encoders.rowbinary.internal;

import dev.handoff.api.ChunkBuffer;
import dev.handoff.api.ErrorClass;
import dev.handoff.api.HandoffException;
import dev.handoff.api.row.RowAccessor;
import dev.handoff.api.spi.RowEncoder;
import dev.handoff.api.spi.TableSchema;
import dev.handoff.clickhouse.row.RowAccessors;
import dev.handoff.clickhouse.type.ClickHouseType;
import dev.handoff.clickhouse.type.TypeKind;
import dev.handoff.clickhouse.value.Conversions;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.util.UUID;

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

  /*
   * Object[] rows (RowAccessors.objectArray()) take a fast path: per column, a switch over a
   * small code picks a static case that tests the value's class by identity and writes it
   * directly. Anything else (another class, a value out of the case's range, every error) goes
   * to the column's ValueWriter, which writes the same bytes the fast case would have, so the
   * output and the errors are the generic path's. The switch replaces a megamorphic virtual
   * call per column, and the cases read row[i] once instead of through the accessor.
   */
  private static final int GENERIC = 0;
  private static final int INT8 = 1;
  private static final int INT16 = 2;
  private static final int INT32 = 3;
  private static final int INT64 = 4;
  private static final int FLOAT64 = 5;
  private static final int DATETIME = 6;
  private static final int DATE = 7;
  private static final int STRING = 8;
  private static final int NULLABLE_STRING = 9;
  private static final int UUID_CODE = 10;
  private static final int ARRAY_INT32 = 11;
  private static final int DECIMAL32 = 12;
  private static final int DECIMAL64 = 13;

  /** Longest String written by the fast case: as ASCII, its length is one varint byte. */
  private static final int FAST_STRING_MAX = 127;

  /** The fast path's code per column, or null when the accessor is not objectArray(). */
  private final int[] codes;
  /** The range of an integer column's fast case (a Long or an Integer). */
  private final long[] min;
  private final long[] max;
  /**
   * A Decimal(P, S) column's constants, for P &lt;= 18: 10^S as a double and a long, 10^(P-S)
   * and 10^P. The fast cases are those of Conversions.toDecimalLong that allocate nothing (a
   * Long, a Double whose decimal at scale S rounds to it, a short BigDecimal), with its result.
   */
  private final int[] scale;
  private final double[] scaleDouble;
  private final long[] scaleLong;
  private final long[] integerLimit;
  private final long[] unscaledLimit;

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
    this.min = new long[types.length];
    this.max = new long[types.length];
    this.scale = new int[types.length];
    this.scaleDouble = new double[types.length];
    this.scaleLong = new long[types.length];
    this.integerLimit = new long[types.length];
    this.unscaledLimit = new long[types.length];
    if (accessor == (Object) RowAccessors.objectArray()) {
      codes = new int[types.length];
      for (int i = 0; i < types.length; i++) {
        codes[i] = code(types[i], i);
      }
    } else {
      codes = null;
    }
  }

  /** Returns the fast-path code of a column of type {@code type}, setting its integer range. */
  private int code(ClickHouseType type, int column) {
    ClickHouseType t = type.kind() == TypeKind.LOW_CARDINALITY ? type.element() : type;
    switch (t.kind()) {
      case INT8: return range(column, INT8, Byte.MIN_VALUE, Byte.MAX_VALUE);
      case UINT8: return range(column, INT8, 0, 0xFF);
      case INT16: return range(column, INT16, Short.MIN_VALUE, Short.MAX_VALUE);
      case UINT16: return range(column, INT16, 0, 0xFFFF);
      case INT32: return range(column, INT32, Integer.MIN_VALUE, Integer.MAX_VALUE);
      case UINT32: return range(column, INT32, 0, 0xFFFF_FFFFL);
      case INT64: return range(column, INT64, Long.MIN_VALUE, Long.MAX_VALUE);
      case UINT64: return range(column, INT64, 0, Long.MAX_VALUE);
      case FLOAT64: return FLOAT64;
      case DATETIME: return DATETIME;
      case DATE: return DATE;
      case STRING: return STRING;
      case UUID: return UUID_CODE;
      case DECIMAL:
        if (t.precision() > 18) {
          return GENERIC;
        }
        scale[column] = t.scale();
        scaleDouble[column] = pow10(t.scale());
        scaleLong[column] = (long) pow10(t.scale());
        integerLimit[column] = (long) pow10(t.precision() - t.scale());
        unscaledLimit[column] = (long) pow10(t.precision());
        return t.decimalWidth() == 4 ? DECIMAL32 : DECIMAL64;
      case NULLABLE: {
        ClickHouseType e = t.element();
        return e.kind() == TypeKind.STRING ? NULLABLE_STRING : GENERIC;
      }
      case ARRAY:
        return t.element().kind() == TypeKind.INT32 ? ARRAY_INT32 : GENERIC;
      default:
        return GENERIC;
    }
  }

  /** 10^e, exact as a double and as a long for e &lt;= 18. */
  private static double pow10(int e) {
    double p = 1;
    for (int i = 0; i < e; i++) {
      p *= 10;
    }
    return p;
  }

  private int range(int column, int code, long lo, long hi) {
    min[column] = lo;
    max[column] = hi;
    return code;
  }

  @Override
  public void encode(T row, ChunkBuffer buffer) {
    if (header != null && buffer.length() == 0) {
      // A new frame begins with this row. If the row fails, the stage truncates the header away
      // with it, and the next row writes it again.
      buffer.writeBytes(header);
    }
    int column = 0;
    try {
      // A null row, or one shorter than the schema, takes the generic path: the accessor
      // reports it.
      if (codes != null && row != null && ((Object[]) row).length >= codes.length) {
        // The fast cases, inline here (a method of their size would not be inlined): per
        // column, "continue" when the case wrote the value, "break fast" to leave the value,
        // untouched, to the column's writer.
        Object[] values = (Object[]) row;
        ChunkBuffer out = buffer;
        int n = writers.length;
        for (; column < n; column++) {
          int code = codes[column];
          int i = column;
          fast: {
            Object v = values[i];
            if (v == null) {
              if (code == NULLABLE_STRING) {
                out.writeByte(1);
                continue;
              }
              break fast;
            }
            Class<?> c = v.getClass();
            switch (code) {
              case INT8: case INT16: case INT32: case INT64: {
                long x;
                if (c == Long.class) {
                  x = (Long) v;
                } else if (c == Integer.class) {
                  x = (Integer) v;
                } else {
                  break fast;
                }
                if (x < min[i] || x > max[i]) {
                  break fast;
                }
                switch (code) {
                  case INT8: out.writeByte((int) x); break;
                  case INT16: out.writeShortLE((int) x); break;
                  case INT32: out.writeIntLE((int) x); break;
                  default: out.writeLongLE(x);
                }
                continue;
              }
              case FLOAT64:
                if (c == Double.class) {
                  out.writeDoubleLE((Double) v);
                  continue;
                }
                break fast;
              case DATETIME:
                if (c == Instant.class) {
                  long s = ((Instant) v).getEpochSecond();
                  if (s >= 0 && s <= Conversions.DATETIME_MAX) {
                    out.writeIntLE((int) s);
                    continue;
                  }
                }
                break fast;
              case DATE:
                if (c == LocalDate.class) {
                  long d = ((LocalDate) v).toEpochDay();
                  if (d >= 0 && d <= 0xFFFF) {
                    out.writeShortLE((int) d);
                    continue;
                  }
                }
                break fast;
              case STRING:
                if (c == String.class && writeShortString((String) v, out)) {
                  continue;
                }
                break fast;
              case NULLABLE_STRING:
                if (c == String.class) {
                  String s = (String) v;
                  if (s.length() <= FAST_STRING_MAX) {
                    out.writeByte(0);
                    writeShortString(s, out);
                    continue;
                  }
                }
                break fast;
              case UUID_CODE:
                if (c == UUID.class) {
                  UUID u = (UUID) v;
                  out.writeLongLE(u.getMostSignificantBits());
                  out.writeLongLE(u.getLeastSignificantBits());
                  continue;
                }
                break fast;
              case DECIMAL32:
              case DECIMAL64:
                if (writeDecimal(code, c, v, i, out)) {
                  continue;
                }
                break fast;
              case ARRAY_INT32:
                if (c == int[].class) {
                  int[] a = (int[]) v;
                  out.writeVarUInt(a.length);
                  for (int x : a) {
                    out.writeIntLE(x);
                  }
                  continue;
                }
                break fast;
              default:
                break fast;
            }
          }
          writers[column].write(accessor, row, column, buffer);
        }
      } else {
        for (; column < writers.length; column++) {
          writers[column].write(accessor, row, column, buffer);
        }
      }
    } catch (HandoffException e) {
      throw e;
    } catch (RuntimeException e) {
      // An adapter that returned the wrong Java type, or any other surprise: still a record
      // error, never a different exception type. The message has the shape of every other
      // DATA error (with the value when the adapter can still show it), and the adapter's
      // exception stays the cause, so its stack trace is not lost.
      String message = Conversions.error(accessor, row, column, types[column],
          schema.column(column).name(), "could not be read: " + e).getMessage();
      throw new HandoffException(ErrorClass.DATA, message, e);
    }
  }

  /** The Decimal(P &lt;= 18) case of fast path in {@link #encode}, out of it. */
  private boolean writeDecimal(int code, Class<?> c, Object v, int i, ChunkBuffer out) {
    long u;
    if (c == Double.class) {
      double d = (Double) v;
      double pow = scaleDouble[i];
      double scaled = d * pow; // NaN or infinite when d is: the generic path's error
      if (!(Math.abs(scaled) < 0x1p50)) {
        return false;
      }
      u = Math.round(scaled);
      // u and 10^S are exact doubles: u / 10^S == d iff the decimal u * 10^-S is d's.
      if ((double) u / pow != d) {
        return false;
      }
    } else if (c == Long.class || c == Integer.class) {
      long x = ((Number) v).longValue();
      long limit = integerLimit[i];
      if (x <= -limit || x >= limit) {
        return false;
      }
      u = x * scaleLong[i];
    } else if (c == BigDecimal.class) {
      BigDecimal bd = (BigDecimal) v;
      int bs = bd.scale();
      double pow = scaleDouble[i];
      if (bs < 0 || bs > scale[i] || bd.precision() > 15) {
        return false;
      }
      double scaled = bd.doubleValue() * pow;
      if (!(Math.abs(scaled) < 0x1p50)) {
        return false;
      }
      u = Math.round(scaled);
    } else {
      return false;
    }
    long limit = unscaledLimit[i];
    if (u <= -limit || u >= limit) {
      return false;
    }
    if (code == DECIMAL32) {
      out.writeIntLE((int) u);
    } else {
      out.writeLongLE(u);
    }
    return true;
  }

  /**
   * Writes a String of at most 127 chars with its length and returns true; false (nothing
   * written) for a longer one. ASCII text is checked, then copied in bulk; other text is
   * encoded here too, with the bytes the column's writer would write, so that it is not checked
   * for ASCII a second time on the generic path.
   */
  private static boolean writeShortString(String s, ChunkBuffer out) {
    if (s.length() > FAST_STRING_MAX) {
      return false;
    }
    if (!out.writeAsciiWithLength(s)) {
      out.writeUtf8WithLength(s);
    }
    return true;
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
