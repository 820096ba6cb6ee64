package dev.handoff.clickhouse.type;

import dev.handoff.api.ChunkBuffer;
import java.util.List;

/**
 * The binary encoding of ClickHouse types (the server's {@code encodeDataType}): a one-byte tag
 * per type, then its parameters. A {@code Dynamic} value in RowBinary is this encoding of its type
 * followed by the value, and so is each value of a Dynamic's shared variant.
 *
 * <p>Codes verified against a ClickHouse 26.7 engine ({@code SELECT CAST(x, 'Dynamic') FORMAT
 * RowBinary}); strings are a VarUInt length and UTF-8 bytes.
 */
public final class BinaryTypes {
  private BinaryTypes() {}

  /** Returns the binary encoding of {@code type}. */
  public static byte[] encode(ClickHouseType type) {
    ChunkBuffer b = new ChunkBuffer(16);
    write(type, b);
    return b.toByteArray();
  }

  /** Writes the binary encoding of {@code type} to {@code out}. */
  public static void write(ClickHouseType type, ChunkBuffer out) {
    switch (type.kind()) {
      case NOTHING: out.writeByte(0x00); break;
      case UINT8: out.writeByte(0x01); break;
      case UINT16: out.writeByte(0x02); break;
      case UINT32: out.writeByte(0x03); break;
      case UINT64: out.writeByte(0x04); break;
      case UINT128: out.writeByte(0x05); break;
      case UINT256: out.writeByte(0x06); break;
      case INT8: out.writeByte(0x07); break;
      case INT16: out.writeByte(0x08); break;
      case INT32: out.writeByte(0x09); break;
      case INT64: out.writeByte(0x0A); break;
      case INT128: out.writeByte(0x0B); break;
      case INT256: out.writeByte(0x0C); break;
      case FLOAT32: out.writeByte(0x0D); break;
      case FLOAT64: out.writeByte(0x0E); break;
      case DATE: out.writeByte(0x0F); break;
      case DATE32: out.writeByte(0x10); break;
      case DATETIME:
        if (type.timeZone() == null) {
          out.writeByte(0x11);
        } else {
          out.writeByte(0x12);
          string(type.timeZone(), out);
        }
        break;
      case DATETIME64:
        out.writeByte(type.timeZone() == null ? 0x13 : 0x14);
        out.writeByte(type.precision());
        if (type.timeZone() != null) {
          string(type.timeZone(), out);
        }
        break;
      case STRING: out.writeByte(0x15); break;
      case FIXED_STRING:
        out.writeByte(0x16);
        out.writeVarUInt(type.length());
        break;
      case ENUM8:
      case ENUM16:
        out.writeByte(type.kind() == TypeKind.ENUM8 ? 0x17 : 0x18);
        out.writeVarUInt(type.enumSize());
        for (int i = 0; i < type.enumSize(); i++) {
          string(type.enumName(i), out);
          if (type.kind() == TypeKind.ENUM8) {
            out.writeByte(type.enumValue(i));
          } else {
            out.writeShortLE(type.enumValue(i));
          }
        }
        break;
      case DECIMAL:
        int w = type.decimalWidth();
        out.writeByte(w == 4 ? 0x19 : w == 8 ? 0x1A : w == 16 ? 0x1B : 0x1C);
        out.writeByte(type.precision());
        out.writeByte(type.scale());
        break;
      case UUID: out.writeByte(0x1D); break;
      case ARRAY:
        out.writeByte(0x1E);
        write(type.element(), out);
        break;
      case TUPLE:
        out.writeByte(type.names() == null ? 0x1F : 0x20);
        named(type.names(), type.elements(), out);
        break;
      case NULLABLE:
        out.writeByte(0x23);
        write(type.element(), out);
        break;
      case LOW_CARDINALITY:
        out.writeByte(0x26);
        write(type.element(), out);
        break;
      case MAP:
        out.writeByte(0x27);
        write(type.elements().get(0), out);
        write(type.elements().get(1), out);
        break;
      case IPV4: out.writeByte(0x28); break;
      case IPV6: out.writeByte(0x29); break;
      case BOOL: out.writeByte(0x2D); break;
      case NESTED:
        out.writeByte(0x2F);
        named(type.names(), type.elements(), out);
        break;
      // Types of ClickHouse 20-26 besides JSON, Variant and Dynamic (issue 15); the geo types
      // are custom types, by name, as the server writes them.
      case POINT: case RING: case LINE_STRING: case MULTI_LINE_STRING: case POLYGON:
      case MULTI_POLYGON:
        out.writeByte(0x2C);
        string(type.canonicalName(), out);
        break;
      case SIMPLE_AGGREGATE_FUNCTION:
        out.writeByte(0x2E);
        string(type.function(), out);
        out.writeVarUInt(0); // no function parameters
        out.writeVarUInt(1); // one argument type
        write(type.element(), out);
        break;
      case BFLOAT16: out.writeByte(0x31); break;
      case TIME: out.writeByte(0x32); break;
      case TIME64:
        out.writeByte(0x34);
        out.writeByte(type.precision());
        break;
      case QBIT: // with a stride 0x37 and the stride after the dimension
        out.writeByte(type.stride() < type.length() ? 0x37 : 0x36);
        write(type.element(), out);
        out.writeVarUInt(type.length());
        if (type.stride() < type.length()) {
          out.writeVarUInt(type.stride());
        }
        break;
      // Variant, Dynamic, JSON (issue 15).
      case VARIANT:
        out.writeByte(0x2A);
        named(null, type.elements(), out);
        break;
      case DYNAMIC:
        out.writeByte(0x2B);
        out.writeByte(type.maxDynamicTypes());
        break;
      case JSON:
        out.writeByte(0x30);
        out.writeByte(0); // the serialization version of the object type
        out.writeVarUInt(type.maxDynamicPaths());
        out.writeByte(type.maxDynamicTypes());
        named(type.names(), type.elements(), out);
        out.writeVarUInt(type.skipPaths().size());
        for (String p : type.skipPaths()) {
          string(p, out);
        }
        out.writeVarUInt(type.skipRegexps().size());
        for (String r : type.skipRegexps()) {
          string(r, out);
        }
        break;
      default:
        throw new IllegalArgumentException("no binary encoding for type " + type);
    }
  }

  private static void named(List<String> names, List<ClickHouseType> types, ChunkBuffer out) {
    out.writeVarUInt(types.size());
    for (int i = 0; i < types.size(); i++) {
      if (names != null) {
        string(names.get(i), out);
      }
      write(types.get(i), out);
    }
  }

  private static void string(String s, ChunkBuffer out) {
    out.writeVarUInt(ChunkBuffer.utf8Length(s));
    out.writeUtf8(s);
  }
}
