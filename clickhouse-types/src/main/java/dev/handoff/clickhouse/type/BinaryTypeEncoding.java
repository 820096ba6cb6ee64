package dev.handoff.clickhouse.type;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * A type in ClickHouse's binary type encoding: the tags a RowBinaryWithNamesAndTypes header
 * carries instead of type names when the server reads it with {@code
 * input_format_binary_decode_types_in_binary_format = 1} (and writes it with {@code
 * output_format_binary_encode_types_in_binary_format = 1}); ClickHouse 24.10 and later.
 *
 * <p>One tag byte per type, then its parameters: VarUInt counts and lengths, strings as VarUInt
 * byte length and UTF-8, enum values as Int8/Int16 little-endian. The geo types are custom types
 * (tag {@code 0x2C} and their name), as the server writes them.
 */
public final class BinaryTypeEncoding {
  private BinaryTypeEncoding() {}

  /**
   * Returns the binary encoding of {@code type}.
   *
   * @throws IllegalArgumentException for a type without a binary encoding here ({@code Nothing}
   *     only inside Nullable is fine)
   */
  public static byte[] encode(ClickHouseType type) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(16);
    write(type, out);
    return out.toByteArray();
  }

  private static void write(ClickHouseType t, ByteArrayOutputStream out) {
    switch (t.kind()) {
      case NOTHING: out.write(0x00); break;
      case UINT8: out.write(0x01); break;
      case UINT16: out.write(0x02); break;
      case UINT32: out.write(0x03); break;
      case UINT64: out.write(0x04); break;
      case UINT128: out.write(0x05); break;
      case UINT256: out.write(0x06); break;
      case INT8: out.write(0x07); break;
      case INT16: out.write(0x08); break;
      case INT32: out.write(0x09); break;
      case INT64: out.write(0x0A); break;
      case INT128: out.write(0x0B); break;
      case INT256: out.write(0x0C); break;
      case FLOAT32: out.write(0x0D); break;
      case FLOAT64: out.write(0x0E); break;
      case DATE: out.write(0x0F); break;
      case DATE32: out.write(0x10); break;
      case DATETIME:
        if (t.timeZone() == null) {
          out.write(0x11);
        } else {
          out.write(0x12);
          string(t.timeZone(), out);
        }
        break;
      case DATETIME64:
        out.write(t.timeZone() == null ? 0x13 : 0x14);
        out.write(t.precision());
        if (t.timeZone() != null) {
          string(t.timeZone(), out);
        }
        break;
      case STRING: out.write(0x15); break;
      case FIXED_STRING:
        out.write(0x16);
        varUInt(t.length(), out);
        break;
      case ENUM8:
      case ENUM16: {
        boolean wide = t.kind() == TypeKind.ENUM16;
        out.write(wide ? 0x18 : 0x17);
        varUInt(t.enumSize(), out);
        for (int i = 0; i < t.enumSize(); i++) {
          string(t.enumName(i), out);
          out.write(t.enumValue(i));
          if (wide) {
            out.write(t.enumValue(i) >> 8);
          }
        }
        break;
      }
      case DECIMAL:
        switch (t.decimalWidth()) {
          case 4: out.write(0x19); break;
          case 8: out.write(0x1A); break;
          case 16: out.write(0x1B); break;
          default: out.write(0x1C);
        }
        out.write(t.precision());
        out.write(t.scale());
        break;
      case UUID: out.write(0x1D); break;
      case ARRAY:
        out.write(0x1E);
        write(t.element(), out);
        break;
      case TUPLE:
      case NESTED:
        out.write(t.kind() == TypeKind.NESTED ? 0x2F : t.names() == null ? 0x1F : 0x20);
        varUInt(t.elements().size(), out);
        for (int i = 0; i < t.elements().size(); i++) {
          if (t.names() != null) {
            string(t.names().get(i), out);
          }
          write(t.elements().get(i), out);
        }
        break;
      case NULLABLE:
        out.write(0x23);
        write(t.element(), out);
        break;
      case LOW_CARDINALITY:
        out.write(0x26);
        write(t.element(), out);
        break;
      case MAP:
        out.write(0x27);
        write(t.elements().get(0), out);
        write(t.elements().get(1), out);
        break;
      case IPV4: out.write(0x28); break;
      case IPV6: out.write(0x29); break;
      case BOOL: out.write(0x2D); break;
      case POINT: case RING: case LINE_STRING: case MULTI_LINE_STRING: case POLYGON:
      case MULTI_POLYGON:
        out.write(0x2C);
        string(t.canonicalName(), out);
        break;
      case SIMPLE_AGGREGATE_FUNCTION:
        out.write(0x2E);
        string(t.function(), out);
        varUInt(0, out); // no function parameters
        varUInt(1, out); // one argument type
        write(t.element(), out);
        break;
      case BFLOAT16: out.write(0x31); break;
      case TIME: out.write(0x32); break;
      case TIME64:
        out.write(0x34);
        out.write(t.precision());
        break;
      case QBIT:
        out.write(0x36);
        write(t.element(), out);
        varUInt(t.length(), out);
        break;
      default:
        throw new IllegalArgumentException("no binary type encoding for " + t);
    }
  }

  private static void string(String s, ByteArrayOutputStream out) {
    byte[] b = s.getBytes(StandardCharsets.UTF_8);
    varUInt(b.length, out);
    out.write(b, 0, b.length);
  }

  private static void varUInt(long v, ByteArrayOutputStream out) {
    while ((v & ~0x7FL) != 0) {
      out.write((int) ((v & 0x7F) | 0x80));
      v >>>= 7;
    }
    out.write((int) v);
  }
}
