package dev.handoff.encoders.rowbinary;

import static java.nio.charset.StandardCharsets.ISO_8859_1;
import static java.nio.charset.StandardCharsets.UTF_8;

import dev.handoff.clickhouse.type.ClickHouseType;
import dev.handoff.clickhouse.type.TypeKind;
import dev.handoff.encoders.testsupport.ServerCanon;
import dev.handoff.encoders.testsupport.ServerCanon.Bytes;
import java.io.ByteArrayOutputStream;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * Parses ClickHouse 18.16's {@code FORMAT TabSeparated} output into {@link ServerCanon} values.
 *
 * <p>What 18.16 prints (checked against the server): a row per line, fields split by tabs; in a
 * top-level field strings are escaped ({@code \b \f \n \r \t \0 \\ \'}; any other byte, invalid
 * UTF-8 included, as it is) and NULL is {@code \N}. Inside Array {@code [a,b]} and Tuple {@code
 * (a,b)} values, strings, FixedStrings, enum names, dates, date-times and UUIDs are in single
 * quotes with the same escapes, numbers are bare, NULL is {@code NULL}. Floats print as the
 * shortest text that reads back to the same value, with {@code nan}, {@code inf}, {@code -inf};
 * Decimals with exactly S fraction digits. Day 0 prints as {@code 0000-00-00} and DateTime 0 as
 * {@code 0000-00-00 00:00:00}; date-times print in the column's time zone (the server's, UTC,
 * when it has none).
 */
final class ServerTsv {
  private ServerTsv() {}

  /** One parsed row: the values and the raw bytes of each field. */
  record Row(List<Object> values, List<byte[]> fields) {
    /** The raw text of field {@code i}, cut to a readable length. */
    String text(int i) {
      return abbreviate(new String(fields.get(i), UTF_8));
    }
  }

  /** Splits the output into rows and parses each row's fields by {@code types}. */
  static List<Row> parse(byte[] output, List<ClickHouseType> types) {
    List<Row> rows = new ArrayList<>();
    int start = 0;
    for (int i = 0; i < output.length; i++) {
      if (output[i] == '\n') {
        rows.add(parseRow(output, start, i, types, rows.size()));
        start = i + 1;
      }
    }
    if (start != output.length) {
      throw new AssertionError("the server's TabSeparated output does not end with a newline");
    }
    return rows;
  }

  private static Row parseRow(byte[] b, int from, int to, List<ClickHouseType> types,
      int index) {
    List<Object> values = new ArrayList<>(types.size());
    List<byte[]> fields = new ArrayList<>(types.size());
    int start = from;
    for (int column = 0; column < types.size(); column++) {
      int end = start;
      while (end < to && b[end] != '\t') {
        end++;
      }
      if (end == to && column < types.size() - 1 || end < to && column == types.size() - 1) {
        throw new AssertionError("row " + index + " of the server's output has "
            + "a different number of fields than the " + types.size() + " columns: "
            + new String(b, from, to - from, UTF_8));
      }
      byte[] field = java.util.Arrays.copyOfRange(b, start, end);
      fields.add(field);
      try {
        values.add(topLevel(field, types.get(column)));
      } catch (RuntimeException e) {
        throw new AssertionError("cannot parse field " + column + " (" + types.get(column)
            + ") of row " + index + " of the server's output: "
            + abbreviate(new String(field, UTF_8)), e);
      }
      start = end + 1;
    }
    return new Row(values, fields);
  }

  static String abbreviate(String s) {
    return s.length() <= 300 ? s : s.substring(0, 300) + "...(" + s.length() + " chars)";
  }

  /**
   * Whether {@code t} holds a Decimal with P &gt; 18, which 18.16 cannot always print (see
   * ServerRoundTrip#checkWideDecimals).
   */
  static boolean hasWideDecimal(ClickHouseType t) {
    if (t.kind() == TypeKind.DECIMAL) {
      return t.precision() > 18;
    }
    for (ClickHouseType e : t.elements()) {
      if (hasWideDecimal(e)) {
        return true;
      }
    }
    return false;
  }

  /**
   * Writes a canonical value as 18.16 reads it in TabSeparated: a top-level field ({@code
   * topLevel}) or a value inside an Array or Tuple (quoted strings, {@code NULL}).
   */
  static String render(ClickHouseType t, Object v, boolean topLevel) {
    if (v == null) {
      return topLevel ? "\\N" : "NULL";
    }
    switch (t.kind()) {
      case NULLABLE:
      case LOW_CARDINALITY:
        return render(t.element(), v, topLevel);
      case ARRAY:
      case TUPLE: {
        List<?> items = (List<?>) v;
        StringBuilder sb = new StringBuilder(t.kind() == TypeKind.ARRAY ? "[" : "(");
        for (int i = 0; i < items.size(); i++) {
          if (i > 0) {
            sb.append(',');
          }
          ClickHouseType e = t.kind() == TypeKind.ARRAY ? t.element() : t.elements().get(i);
          sb.append(render(e, items.get(i), false));
        }
        return sb.append(t.kind() == TypeKind.ARRAY ? ']' : ')').toString();
      }
      case DECIMAL:
        return ((BigDecimal) v).toPlainString();
      case INT8: case INT16: case INT32: case INT64:
      case UINT8: case UINT16: case UINT32: case UINT64:
        return v.toString();
      default:
        throw new IllegalArgumentException("test bug: ServerTsv.render does not write " + t);
    }
  }

  private static Object topLevel(byte[] field, ClickHouseType t) {
    switch (t.kind()) {
      case NULLABLE:
        if (field.length == 2 && field[0] == '\\' && field[1] == 'N') {
          return null;
        }
        return topLevel(field, t.element());
      case LOW_CARDINALITY:
        return topLevel(field, t.element());
      case STRING:
      case FIXED_STRING:
        return new Bytes(unescape(field, 0, field.length));
      case ENUM8:
      case ENUM16:
        return new String(unescape(field, 0, field.length), UTF_8);
      case ARRAY:
      case TUPLE: {
        Cursor c = new Cursor(field);
        Object v = c.value(t);
        if (c.pos != field.length) {
          throw new IllegalArgumentException("trailing text at " + c.pos);
        }
        return v;
      }
      default:
        return scalar(t, new String(field, ISO_8859_1));
    }
  }

  /** A value written as text without quotes or escapes. */
  static Object scalar(ClickHouseType t, String s) {
    switch (t.kind()) {
      case INT8: case INT16: case INT32: case INT64:
      case UINT8: case UINT16: case UINT32: case UINT64:
        return new BigInteger(s);
      case FLOAT32:
        switch (s) {
          case "nan": case "-nan": return Float.NaN;
          case "inf": case "+inf": return Float.POSITIVE_INFINITY;
          case "-inf": return Float.NEGATIVE_INFINITY;
          default: return Float.parseFloat(s);
        }
      case FLOAT64:
        switch (s) {
          case "nan": case "-nan": return Double.NaN;
          case "inf": case "+inf": return Double.POSITIVE_INFINITY;
          case "-inf": return Double.NEGATIVE_INFINITY;
          default: return Double.parseDouble(s);
        }
      case DECIMAL:
        return new BigDecimal(s);
      case DATE:
        return s.equals("0000-00-00") ? LocalDate.EPOCH : LocalDate.parse(s);
      case DATETIME:
        return s.equals("0000-00-00 00:00:00") ? Instant.EPOCH
            : LocalDateTime.parse(s.replace(' ', 'T')).atZone(t.zone()).toInstant();
      case UUID:
        return UUID.fromString(s);
      default:
        throw new IllegalArgumentException("no text parser for " + t);
    }
  }

  /** Undoes 18.16's string escapes; every other byte stands for itself. */
  static byte[] unescape(byte[] b, int from, int to) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(to - from);
    for (int i = from; i < to; i++) {
      byte c = b[i];
      if (c != '\\') {
        out.write(c);
        continue;
      }
      if (++i == to) {
        throw new IllegalArgumentException("a backslash ends the field");
      }
      switch (b[i]) {
        case 'b': out.write(0x08); break;
        case 'f': out.write(0x0C); break;
        case 'n': out.write('\n'); break;
        case 'r': out.write('\r'); break;
        case 't': out.write('\t'); break;
        case '0': out.write(0); break;
        default: out.write(b[i]); break; // \\ \' and anything else: the byte itself
      }
    }
    return out.toByteArray();
  }

  /** Reads the quoted-value syntax inside arrays and tuples. */
  private static final class Cursor {
    private final byte[] b;
    private int pos;

    Cursor(byte[] b) {
      this.b = b;
    }

    Object value(ClickHouseType t) {
      switch (t.kind()) {
        case NULLABLE:
          if (startsWith("NULL")) {
            pos += 4;
            return null;
          }
          return value(t.element());
        case LOW_CARDINALITY:
          return value(t.element());
        case ARRAY: {
          expect('[');
          List<Object> out = new ArrayList<>();
          if (peek() == ']') {
            pos++;
            return out;
          }
          while (true) {
            out.add(value(t.element()));
            if (peek() == ',') {
              pos++;
            } else {
              expect(']');
              return out;
            }
          }
        }
        case TUPLE: {
          expect('(');
          List<Object> out = new ArrayList<>();
          for (int i = 0; i < t.elements().size(); i++) {
            if (i > 0) {
              expect(',');
            }
            out.add(value(t.elements().get(i)));
          }
          expect(')');
          return out;
        }
        case STRING:
        case FIXED_STRING:
          return new Bytes(quoted());
        case ENUM8:
        case ENUM16:
          return new String(quoted(), UTF_8);
        case DATE:
        case DATETIME:
        case UUID:
          return scalar(t, new String(quoted(), ISO_8859_1));
        default: {
          int start = pos;
          while (pos < b.length && b[pos] != ',' && b[pos] != ']' && b[pos] != ')') {
            pos++;
          }
          return scalar(t, new String(b, start, pos - start, ISO_8859_1));
        }
      }
    }

    private byte[] quoted() {
      expect('\'');
      int start = pos;
      while (true) {
        if (pos >= b.length) {
          throw new IllegalArgumentException("unterminated quoted value from " + start);
        }
        if (b[pos] == '\\') {
          pos += 2;
        } else if (b[pos] == '\'') {
          break;
        } else {
          pos++;
        }
      }
      byte[] v = unescape(b, start, pos);
      pos++;
      return v;
    }

    private boolean startsWith(String s) {
      if (pos + s.length() > b.length) {
        return false;
      }
      for (int i = 0; i < s.length(); i++) {
        if (b[pos + i] != s.charAt(i)) {
          return false;
        }
      }
      return true;
    }

    private int peek() {
      return pos < b.length ? b[pos] : -1;
    }

    private void expect(char c) {
      if (peek() != c) {
        throw new IllegalArgumentException("expected '" + c + "' at " + pos);
      }
      pos++;
    }
  }
}
