package dev.handoff.clickhouse.hash;

import dev.handoff.clickhouse.type.ClickHouseType;
import dev.handoff.clickhouse.type.TypeKind;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Random values of ClickHouse types as Java values an {@code Object[]} row holds (Long for every
 * integer, Date (days) and DateTime (seconds), Double for floats, byte[] for strings, List for
 * arrays, null for NULL), edges included, and their RowBinary form.
 */
final class Values {
  private Values() {}

  static boolean isIntegerLike(String type) {
    return switch (ClickHouseType.parse(type).kind()) {
      case INT8, INT16, INT32, INT64, UINT8, UINT16, UINT32, UINT64, DATE, DATETIME -> true;
      default -> false;
    };
  }

  static Object of(String type, SplittableRandom random) {
    return of(ClickHouseType.parse(type), random);
  }

  static Object of(ClickHouseType type, SplittableRandom random) {
    switch (type.kind()) {
      case NULLABLE:
        return random.nextInt(5) == 0 ? null : of(type.element(), random);
      case ARRAY: {
        List<Object> list = new ArrayList<>();
        int length = random.nextInt(4) == 0 ? 0 : random.nextInt(12);
        for (int i = 0; i < length; i++) {
          list.add(of(type.element(), random));
        }
        return list;
      }
      case STRING:
        return bytes(random, random.nextInt(4) == 0 ? 0 : random.nextInt(100));
      case FIXED_STRING: {
        // Shorter values are padded with zeros by the server and by the key alike.
        return bytes(random, random.nextInt(3) == 0 ? random.nextInt(type.length() + 1)
            : type.length());
      }
      case FLOAT32: {
        int pick = random.nextInt(10);
        float f = pick == 0 ? edgeFloat(random) : pick < 4 ? Float.intBitsToFloat(random.nextInt())
            : (float) ((random.nextDouble() - 0.5) * Math.pow(10, random.nextInt(12)));
        return Float.isNaN(f) ? (double) Float.NaN : (double) f;
      }
      case FLOAT64: {
        int pick = random.nextInt(10);
        double d = pick == 0 ? edgeFloat(random) : pick < 4 ? Double.longBitsToDouble(
            random.nextLong()) : (random.nextDouble() - 0.5) * Math.pow(10, random.nextInt(18));
        return Double.isNaN(d) ? Double.NaN : d; // the canonical NaN: RowBinary keeps bits
      }
      case ENUM8:
      case ENUM16:
        return (long) type.enumValue(random.nextInt(type.enumSize()));
      default:
        return integer(type.kind(), random);
    }
  }

  private static float edgeFloat(SplittableRandom random) {
    float[] edges = {0f, -0f, 1f, -1f, Float.MIN_VALUE, Float.MAX_VALUE, Float.POSITIVE_INFINITY,
        Float.NEGATIVE_INFINITY, 0.5f};
    return edges[random.nextInt(edges.length)];
  }

  private static long integer(TypeKind kind, SplittableRandom random) {
    int width = kind.fixedWidth();
    boolean signed = switch (kind) {
      case INT8, INT16, INT32, INT64 -> true;
      default -> false;
    };
    long value = switch (random.nextInt(6)) {
      case 0 -> random.nextInt(3) - 1;                               // -1, 0, 1
      case 1 -> signed ? (random.nextBoolean() ? -1L << (8 * width - 1) : ~(-1L << (8 * width - 1)))
          : random.nextBoolean() ? 0 : -1;                             // min / max
      default -> random.nextLong();
    };
    if (width < 8) {
      int bits = 8 * width;
      value = signed ? (value << (64 - bits)) >> (64 - bits) : value & ((1L << bits) - 1);
    }
    return value;
  }

  static byte[] bytes(SplittableRandom random, int length) {
    byte[] bytes = new byte[length];
    random.nextBytes(bytes);
    return bytes;
  }

  static void writeRowBinary(ByteArrayOutputStream out, String type, Object value) {
    writeRowBinary(out, ClickHouseType.parse(type), value);
  }

  @SuppressWarnings("unchecked")
  static void writeRowBinary(ByteArrayOutputStream out, ClickHouseType type, Object value) {
    switch (type.kind()) {
      case NULLABLE -> {
        out.write(value == null ? 1 : 0);
        if (value != null) {
          writeRowBinary(out, type.element(), value);
        }
      }
      case ARRAY -> {
        List<Object> list = (List<Object>) value;
        ServerHashes.writeVarUInt(out, list.size());
        list.forEach(element -> writeRowBinary(out, type.element(), element));
      }
      case STRING -> {
        byte[] bytes = (byte[]) value;
        ServerHashes.writeVarUInt(out, bytes.length);
        out.writeBytes(bytes);
      }
      case FIXED_STRING -> {
        byte[] bytes = (byte[]) value;
        out.writeBytes(bytes);
        out.writeBytes(new byte[type.length() - bytes.length]);
      }
      case FLOAT32 -> ServerHashes.writeLong(out,
          Float.floatToRawIntBits((float) (double) (Double) value), 4);
      case FLOAT64 -> ServerHashes.writeLong(out, Double.doubleToRawLongBits((Double) value), 8);
      default -> ServerHashes.writeLong(out, (Long) value, type.kind().fixedWidth());
    }
  }

  static String describe(Object[] row) {
    StringBuilder text = new StringBuilder("[");
    for (int i = 0; i < row.length; i++) {
      text.append(i == 0 ? "" : ", ").append(row[i] instanceof byte[] b
          ? "0x" + HexFormat.of().formatHex(b, 0, Math.min(b.length, 64))
              + (b.length > 64 ? "...(" + b.length + " bytes)" : "")
          : String.valueOf(row[i]));
    }
    return text.append(']').toString();
  }
}
