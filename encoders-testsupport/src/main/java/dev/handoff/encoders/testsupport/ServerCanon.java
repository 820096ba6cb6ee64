package dev.handoff.encoders.testsupport;

import static java.nio.charset.StandardCharsets.UTF_8;

import dev.handoff.clickhouse.type.ClickHouseType;
import java.lang.reflect.Array;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HexFormat;
import java.util.List;
import java.util.UUID;

/**
 * Canonical values for comparing what a test sent with what the server shows, for the real-server
 * round trips of both encoders.
 *
 * <p>Both sides of a comparison are brought to one Java form per ClickHouse type: integers as
 * {@link BigInteger}; Float32 as {@link Float} and Float64 as {@link Double} (compared by bits,
 * so {@code -0.0 != 0.0}, and every NaN equal to every NaN, since text loses the payload; the byte
 * comparison of the re-select keeps it); Decimal as {@link BigDecimal} at the type's scale;
 * String and FixedString as {@link Bytes} (FixedString padded with zero bytes to N); Date as
 * {@link LocalDate}; DateTime as {@link Instant}; UUID; Enum as its element name; Array and Tuple
 * as {@link List}; NULL as {@code null}. Then {@link java.util.Objects#equals} decides.
 *
 * <p>The expected side is what the test author wrote ({@link #expected}); the actual side is what
 * the test parsed from the server's output (the rowbinary module's {@code ServerTsv}). Nothing here converts the way the encoder does:
 * a test gives the expected canonical value itself whenever the input is not already one.
 */
public final class ServerCanon {
  private ServerCanon() {}

  /**
   * Bytes with value equality and a readable, bounded {@code toString}.
   *
   * @param bytes the bytes (not copied)
   */
  public record Bytes(byte[] bytes) {
    /** Returns the UTF-8 bytes of {@code s}. */
    public static Bytes utf8(String s) {
      return new Bytes(s.getBytes(UTF_8));
    }

    /** Returns whether {@code o} holds the same bytes. */
    @Override
    public boolean equals(Object o) {
      return o instanceof Bytes b && Arrays.equals(bytes, b.bytes);
    }

    /** Returns a hash of the bytes. */
    @Override
    public int hashCode() {
      return Arrays.hashCode(bytes);
    }

    /** Returns the bytes quoted (see {@link ServerCanon#quote}). */
    @Override
    public String toString() {
      return quote(bytes);
    }
  }

  /**
   * A cell whose input differs from its canonical expected value.
   *
   * @param input the value handed to the encoder
   * @param expected its canonical value
   */
  public record Cell(Object input, Object expected) {}

  /** Returns the canonical form of the expected value {@code v} of a column of type {@code t}. */
  public static Object expected(ClickHouseType t, Object v) {
    if (v == null) {
      return null;
    }
    switch (t.kind()) {
      case NULLABLE:
      case LOW_CARDINALITY:
        return expected(t.element(), v);
      case INT8: case INT16: case INT32: case INT64:
      case UINT8: case UINT16: case UINT32: case UINT64:
        if (v instanceof BigInteger b) {
          return b;
        }
        if (v instanceof Long || v instanceof Integer || v instanceof Short || v instanceof Byte) {
          return BigInteger.valueOf(((Number) v).longValue());
        }
        if (v instanceof String s) {
          return new BigInteger(s);
        }
        break;
      case FLOAT32:
        if (v instanceof Float f) {
          return f;
        }
        if (v instanceof Double d) {
          return (float) (double) d; // JLS narrowing: round to nearest
        }
        break;
      case FLOAT64:
        if (v instanceof Double d) {
          return d;
        }
        if (v instanceof Float f) {
          return (double) (float) f;
        }
        break;
      case DECIMAL: {
        BigDecimal d = v instanceof BigDecimal b ? b
            : v instanceof String s ? new BigDecimal(s)
            : v instanceof BigInteger b ? new BigDecimal(b)
            : v instanceof Long || v instanceof Integer ? BigDecimal.valueOf(((Number) v).longValue())
            : null;
        if (d != null) {
          return d.setScale(t.scale(), RoundingMode.UNNECESSARY);
        }
        break;
      }
      case STRING:
        return bytesOf(v);
      case FIXED_STRING: {
        byte[] b = bytesOf(v).bytes();
        if (b.length > t.length()) {
          throw new IllegalArgumentException("test bug: " + quote(b) + " is longer than " + t);
        }
        return new Bytes(Arrays.copyOf(b, t.length()));
      }
      case DATE:
        if (v instanceof LocalDate d) {
          return d;
        }
        break;
      case DATETIME:
        if (v instanceof Instant i) {
          return i;
        }
        break;
      case UUID:
        if (v instanceof UUID u) {
          return u;
        }
        if (v instanceof String s) {
          return UUID.fromString(s);
        }
        break;
      case ENUM8:
      case ENUM16:
        if (v instanceof String s) {
          return s;
        }
        break;
      case ARRAY: {
        List<Object> out = new ArrayList<>();
        for (Object e : elementsOf(v)) {
          out.add(expected(t.element(), e));
        }
        return out;
      }
      case TUPLE: {
        List<?> in = elementsOf(v);
        if (in.size() != t.elements().size()) {
          throw new IllegalArgumentException("test bug: " + in + " for " + t);
        }
        List<Object> out = new ArrayList<>();
        for (int i = 0; i < in.size(); i++) {
          out.add(expected(t.elements().get(i), in.get(i)));
        }
        return out;
      }
      default:
        break;
    }
    throw new IllegalArgumentException("test bug: no canonical " + t + " for " + describe(v));
  }

  private static Bytes bytesOf(Object v) {
    if (v instanceof Bytes b) {
      return b;
    }
    if (v instanceof byte[] b) {
      return new Bytes(b);
    }
    if (v instanceof CharSequence s) {
      return Bytes.utf8(s.toString());
    }
    if (v instanceof char[] c) {
      return Bytes.utf8(new String(c));
    }
    throw new IllegalArgumentException("test bug: no bytes for " + describe(v));
  }

  /** Returns the elements of a List, Collection, Object[] or primitive array. */
  public static List<?> elementsOf(Object v) {
    if (v instanceof List<?> l) {
      return l;
    }
    if (v instanceof Collection<?> c) {
      return new ArrayList<>(c);
    }
    if (v != null && v.getClass().isArray()) {
      int n = Array.getLength(v);
      List<Object> out = new ArrayList<>(n);
      for (int i = 0; i < n; i++) {
        out.add(Array.get(v, i));
      }
      return out;
    }
    throw new IllegalArgumentException("test bug: not a container: " + describe(v));
  }

  /** Returns an input value with its Java class, bounded in length. */
  public static String describe(Object v) {
    if (v == null) {
      return "null";
    }
    String text;
    if (v instanceof byte[] b) {
      text = quote(b);
    } else if (v instanceof CharSequence s) {
      text = quote(s.toString().getBytes(UTF_8));
    } else if (v.getClass().isArray()) {
      text = elementsOf(v).stream().map(ServerCanon::describe).toList().toString();
    } else if (v instanceof Collection<?> c) {
      text = c.stream().map(ServerCanon::describe).toList().toString();
    } else if (v instanceof Float f) {
      text = f + " (bits 0x" + Integer.toHexString(Float.floatToRawIntBits(f)) + ")";
    } else if (v instanceof Double d) {
      text = d + " (bits 0x" + Long.toHexString(Double.doubleToRawLongBits(d)) + ")";
    } else {
      text = String.valueOf(v);
    }
    if (text.length() > 300) {
      text = text.substring(0, 300) + "...(" + text.length() + " chars)";
    }
    return text + " (" + v.getClass().getSimpleName() + ")";
  }

  /** Returns bytes quoted: printable ASCII as it is, other bytes as \xNN, long runs cut. */
  public static String quote(byte[] b) {
    StringBuilder sb = new StringBuilder("'");
    int shown = Math.min(b.length, 120);
    for (int i = 0; i < shown; i++) {
      int c = b[i] & 0xFF;
      if (c >= 0x20 && c < 0x7F && c != '\\' && c != '\'') {
        sb.append((char) c);
      } else {
        sb.append("\\x").append(HexFormat.of().toHexDigits((byte) c));
      }
    }
    sb.append('\'');
    if (shown < b.length) {
      sb.append("...(").append(b.length).append(" bytes)");
    }
    return sb.toString();
  }
}
