package dev.handoff.encoders.testsupport;

import static dev.handoff.encoders.testsupport.DiffValues.utf8;

import dev.handoff.clickhouse.type.ClickHouseType;
import dev.handoff.clickhouse.type.TypeKind;
import dev.handoff.encoders.testsupport.DiffModel.Bad;
import dev.handoff.encoders.testsupport.DiffModel.Case;
import dev.handoff.encoders.testsupport.DiffModel.V;
import dev.handoff.encoders.testsupport.DiffValues.Bytes;
import dev.handoff.encoders.testsupport.DiffValues.F32;
import dev.handoff.encoders.testsupport.DiffValues.F64;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * The JSON-lines form of a differential case, for the {@code JsonNode} row adapter: each row
 * rendered from the canonical values, so it says the same thing in JSON's terms.
 */
public final class DiffJson {
  private DiffJson() {}

  /* ================================================================== JSON lines */

  /**
   * Returns the rows of {@code c} as JSON lines for the JsonNode adapter, built from the
   * canonical values (so they say the same thing in JSON's terms), or {@code null} when a value
   * has no JSON form (a string that is not UTF-8). Every third row is a JSON array (columns by
   * position), the others objects (every other one leaving its nulls out). Numbers, dates,
   * enums and named tuples take one of their JSON forms, chosen by the value's hash. A {@link
   * Bad} value is written as its JSON form.
   */
  public static List<String> jsonLines(Case c) {
    List<String> lines = new ArrayList<>();
    try {
      for (int r = 0; r < c.rows().size(); r++) {
        List<V> row = c.rows().get(r);
        boolean array = r % 3 == 2;
        StringBuilder sb = new StringBuilder(array ? "[" : "{");
        boolean first = true;
        for (int i = 0; i < row.size(); i++) {
          Object v = row.get(i).expected();
          if (v instanceof Bad bad) {
            sb.append(first ? "" : ", ");
            first = false;
            if (!array) {
              sb.append(jsonString(c.columns().get(i).name())).append(": ");
            }
            sb.append(bad.json());
            continue;
          }
          if (!array && v == null && r % 2 == 1) {
            continue; // a missing field reads as null
          }
          sb.append(first ? "" : ", ");
          first = false;
          if (!array) {
            sb.append(jsonString(c.columns().get(i).name())).append(": ");
          }
          json(sb, c.columns().get(i).type(), v, r * 31 + i);
        }
        lines.add(sb.append(array ? "]" : "}").toString());
      }
    } catch (NotJson e) {
      return null;
    }
    return lines;
  }

  /** A value without a JSON form. */
  public static final class NotJson extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** Makes the signal, without a stack trace. */
    public NotJson() {
      super(null, null, false, false);
    }
  }

  /**
   * Appends canonical value {@code v} of type {@code t} as JSON, in one of its forms chosen by
   * the value's hash and {@code salt}.
   *
   * @throws NotJson when the value has no JSON form
   */
  public static void json(StringBuilder sb, ClickHouseType t, Object v, int salt) {
    if (v == null) {
      sb.append("null");
      return;
    }
    int form = ((Objects.hashCode(v) ^ salt) & 0x7FFF_FFFF) % 3;
    switch (t.kind()) {
      case NULLABLE:
      case LOW_CARDINALITY:
        json(sb, t.element(), v, salt);
        return;
      case INT8: case INT16: case INT32: case INT64: case INT128: case INT256:
      case UINT8: case UINT16: case UINT32: case UINT64: case UINT128: case UINT256:
        sb.append(form == 0 ? jsonString(v.toString()) : v.toString());
        return;
      case FLOAT32: {
        float f = ((F32) v).v();
        if (Float.isNaN(f) || Float.isInfinite(f) || form == 0) {
          sb.append(jsonString(keyText(t, v)));
        } else if (f == 0 && 1 / f < 0) {
          sb.append("-0.0");
        } else {
          sb.append(new BigDecimal((double) f)); // exact, so the double is this float
        }
        return;
      }
      case FLOAT64: {
        double d = ((F64) v).v();
        sb.append(Double.isNaN(d) || Double.isInfinite(d) || form == 0
            ? jsonString(keyText(t, v)) : Double.toString(d));
        return;
      }
      case BOOL:
        sb.append(form == 0 ? jsonString(v.toString()) : v.toString());
        return;
      case DECIMAL: {
        BigDecimal bd = (BigDecimal) v;
        if (form == 1 && BigDecimal.valueOf(bd.doubleValue()).compareTo(bd) == 0) {
          sb.append(Double.toString(bd.doubleValue())); // a DoubleNode that is this decimal
        } else if (form == 2 && (bd.signum() == 0 || bd.stripTrailingZeros().scale() <= 0)) {
          sb.append(bd.toBigIntegerExact()); // an integer node
        } else {
          sb.append(jsonString(bd.toPlainString()));
        }
        return;
      }
      case DATE:
      case DATE32:
        sb.append(form == 0 ? Long.toString(((LocalDate) v).toEpochDay())
            : jsonString(v.toString()));
        return;
      case DATETIME:
        sb.append(form == 0 ? Long.toString(((Instant) v).getEpochSecond())
            : jsonString(v.toString()));
        return;
      case DATETIME64: {
        Instant i = (Instant) v;
        long unit = BigInteger.TEN.pow(t.precision()).longValueExact();
        sb.append(form == 0
            ? BigInteger.valueOf(i.getEpochSecond()).multiply(BigInteger.valueOf(unit))
                .add(BigInteger.valueOf(i.getNano() / (1_000_000_000L / unit))).toString()
            : jsonString(v.toString()));
        return;
      }
      case ENUM8:
      case ENUM16:
        sb.append(form == 0 ? v.toString() : jsonString(keyText(t, v)));
        return;
      case ARRAY:
      case NESTED: {
        ClickHouseType e = t.kind() == TypeKind.ARRAY ? t.element()
            : ClickHouseType.named(TypeKind.TUPLE, t.names(), t.elements());
        sb.append('[');
        List<?> l = (List<?>) v;
        for (int i = 0; i < l.size(); i++) {
          sb.append(i == 0 ? "" : ", ");
          json(sb, e, l.get(i), salt * 7 + i);
        }
        sb.append(']');
        return;
      }
      case TUPLE: {
        List<?> l = (List<?>) v;
        boolean object = t.names() != null && form != 0;
        sb.append(object ? '{' : '[');
        for (int i = 0; i < l.size(); i++) {
          sb.append(i == 0 ? "" : ", ");
          if (object) {
            sb.append(jsonString(t.names().get(i))).append(": ");
          }
          json(sb, t.elements().get(i), l.get(i), salt * 7 + i);
        }
        sb.append(object ? '}' : ']');
        return;
      }
      case MAP: {
        sb.append('{');
        List<?> pairs = (List<?>) v;
        for (int i = 0; i < pairs.size(); i++) {
          List<?> pair = (List<?>) pairs.get(i);
          sb.append(i == 0 ? "" : ", ")
              .append(jsonString(keyText(t.elements().get(0), pair.get(0)))).append(": ");
          json(sb, t.elements().get(1), pair.get(1), salt * 7 + i);
        }
        sb.append('}');
        return;
      }
      default:
        sb.append(jsonString(keyText(t, v))); // strings, UUID, IPs
    }
  }

  /**
   * Returns a canonical value as text its column accepts (JSON object keys, quoted JSON values).
   *
   * @throws NotJson when the value has no text form (bytes that are not UTF-8)
   */
  public static String keyText(ClickHouseType t, Object v) {
    switch (t.kind()) {
      case LOW_CARDINALITY:
        return keyText(t.element(), v);
      case FLOAT32: {
        float f = ((F32) v).v();
        return Float.isNaN(f) ? "nan" : Float.isInfinite(f) ? (f > 0 ? "inf" : "-inf")
            : Float.toString(f);
      }
      case FLOAT64: {
        double d = ((F64) v).v();
        return Double.isNaN(d) ? "nan" : Double.isInfinite(d) ? (d > 0 ? "inf" : "-inf")
            : Double.toString(d);
      }
      case DECIMAL:
        return ((BigDecimal) v).toPlainString();
      case STRING:
      case FIXED_STRING: {
        byte[] b = ((Bytes) v).b;
        int n = b.length;
        while (t.kind() == TypeKind.FIXED_STRING && n > 0 && b[n - 1] == 0) {
          n--; // the encoder pads again
        }
        String text = utf8(Arrays.copyOf(b, n));
        if (text == null) {
          throw new NotJson();
        }
        return text;
      }
      case ENUM8:
      case ENUM16:
        for (int i = 0; i < t.enumSize(); i++) {
          if (t.enumValue(i) == (Integer) v) {
            return t.enumName(i);
          }
        }
        throw new IllegalStateException(v + " is not a value of " + t);
      default:
        return v.toString(); // integers, Bool, dates (ISO), instants (ISO), UUID, IPs
    }
  }

  /** Returns {@code s} quoted as a JSON string. */
  public static String jsonString(String s) {
    StringBuilder sb = new StringBuilder("\"");
    for (int i = 0; i < s.length(); i++) {
      char ch = s.charAt(i);
      if (ch == '"' || ch == '\\') {
        sb.append('\\').append(ch);
      } else if (ch < 0x20) {
        sb.append(String.format("\\u%04x", (int) ch));
      } else {
        sb.append(ch);
      }
    }
    return sb.append('"').toString();
  }
}
