package dev.handoff.cli;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * Parses the lines of a {@link ParsedBlock} into JSON trees: an object row (fields by column
 * name) or an array row (fields by position). A line that is not JSON, holds more than one value,
 * or holds a value that is neither an object nor an array gets a reason instead of a node; an
 * object's fields that name no column are recorded (and make the row bad under {@code --strict}).
 *
 * <p>A JSON object whose values are all scalars is read into the block's flat arrays ({@link
 * BlockRows}), with no tree: first by {@link FlatScanner} straight from the bytes (plain ASCII
 * lines), else from Jackson's tokens, each field name (which Jackson interns) matched to its
 * column by identity, starting at the column after the previous field's (a number with a
 * fraction read as an exact decimal keeps the node the tree would hold). CSV and TSV rows go to
 * the flat slots as text. Anything else (an array row, a nested value, a line that does not
 * parse) is read as a tree as before, so messages and values stay the same.
 *
 * <p>One parser per thread, with its own {@link TreeMapper}.
 */
final class LineParser {

  private final TreeMapper json;
  private final JsonFactory factory;
  private final boolean exactDecimals;
  /** The table's column names in schema order, interned (Jackson interns field names too). */
  private final String[] names;
  /** Column index by name, for names not interned the same way. */
  private final Map<String, Integer> index;
  /** Per column: whether it is {@code Float64} (see the constructor). */
  private final boolean[] float64;
  /** Reads the common lines without Jackson. */
  private final FlatScanner scanner;
  private final boolean strict;
  /** CSV or TSV, or {@code null} for JSON lines. */
  private final DelimitedText.Kind delimited;
  /** The column names of a CSV or TSV header. */
  private final List<String> header;
  /** The column of each header name, or -1 for a name that is no column. */
  private final int[] headerColumn;
  /** Reads CSV and TSV rows straight from their bytes ({@code null} for JSON lines). */
  private final DelimitedBytes delimitedBytes;

  /**
   * Creates a parser.
   *
   * @param columns the table's column names, in schema order
   * @param exactDecimals whether numbers with a fraction are read as exact decimals
   * @param strict whether a field naming no column makes the row bad
   */
  LineParser(List<String> columns, boolean exactDecimals, boolean strict) {
    this(columns, exactDecimals, strict, null, List.of());
  }

  /**
   * Creates a parser of CSV or TSV rows named by {@code header} ({@code delimited} {@code null}:
   * JSON lines).
   */
  LineParser(List<String> columns, boolean exactDecimals, boolean strict,
      DelimitedText.Kind delimited, List<String> header) {
    this(columns, exactDecimals, strict, delimited, header, java.util.Set.of());
  }

  /**
   * Creates a parser that, with exact decimals, reads a number for one of {@code float64Columns}
   * as a double all the same (the correctly rounded double is what the exact decimal converts
   * to; a number that overflows or underflows a double still goes exact, to be rejected so).
   */
  LineParser(List<String> columns, boolean exactDecimals, boolean strict,
      DelimitedText.Kind delimited, List<String> header, java.util.Set<String> float64Columns) {
    this(columns, exactDecimals, strict, delimited, header, float64Columns, java.util.Set.of());
  }

  /**
   * Creates a parser that also gives a string for one of {@code stringColumns} (columns of type
   * {@code String}) as its UTF-8 bytes where the line holds it without escapes, so the encoder
   * copies them instead of encoding a {@code String} again.
   */
  LineParser(List<String> columns, boolean exactDecimals, boolean strict,
      DelimitedText.Kind delimited, List<String> header, java.util.Set<String> float64Columns,
      java.util.Set<String> stringColumns) {
    this(columns, exactDecimals, strict, delimited, header,
        ColumnPlan.of(columns, float64Columns, stringColumns));
  }

  /**
   * Creates a parser that reads each column's strings as {@code plan} says (see {@link
   * ColumnPlan}): as UTF-8 bytes, or a date's, date-time's, UUID's or integer's value, on the
   * parser threads, where the text is in a shape {@link ByteFields} reads.
   */
  LineParser(List<String> columns, boolean exactDecimals, boolean strict,
      DelimitedText.Kind delimited, List<String> header, ColumnPlan plan) {
    this.names = new String[columns.size()];
    this.float64 = plan.float64.clone();
    this.index = new HashMap<>();
    for (int i = 0; i < names.length; i++) {
      names[i] = columns.get(i).intern();
      index.putIfAbsent(names[i], i);
    }
    this.exactDecimals = exactDecimals;

    this.strict = strict;
    this.delimited = delimited;
    this.header = header;
    this.headerColumn = new int[header.size()];
    for (int i = 0; i < headerColumn.length; i++) {
      Integer c = index.get(header.get(i));
      headerColumn[i] = c == null ? -1 : c;
    }
    this.json = new TreeMapper(exactDecimals);
    this.factory = json.factory();
    this.scanner = new FlatScanner(names, exactDecimals, plan, json);
    this.delimitedBytes = delimited == null ? null
        : new DelimitedBytes(delimited, headerColumn, plan);
  }

  /** Splits the block's bytes into lines and parses each non-blank one. */
  void parse(ParsedBlock b) {
    byte[] buf = b.bytes;
    int length = b.length;
    // Size the arrays for the block's lines: the reader counted them; else count them here.
    int cap = b.lines;
    if (cap <= 0) {
      cap = 1;
      for (int i = BlockReader.newline(buf, 0, length); i < length;
          i = BlockReader.newline(buf, i + 1, length)) {
        cap++;
      }
    }
    int cols = names.length;
    int flat = cap * cols;
    b.columns = cols;
    if (b.kinds == null || b.kinds.length < flat || b.nodes.length < cap) {
      b.nodes = new JsonNode[cap];
      b.kinds = new byte[flat];
      b.values = new long[flat];
      b.objects = new Object[flat];
    } else {
      // A block used again: its slots start as a fresh block's, all nulls (values are only
      // read where a kind says they were set).
      int used = b.usedSlots;
      Arrays.fill(b.kinds, 0, used, BlockRows.NULL);
      Arrays.fill(b.objects, 0, used, null);
      Arrays.fill(b.nodes, 0, used / cols, null);
    }
    b.usedSlots = flat;
    parse(b, buf, length, cap);
  }

  private void parse(ParsedBlock b, byte[] buf, int length, int cap) {
    JsonNode[] nodes = b.nodes;
    boolean fit = b.lineStart != null && b.lineStart.length >= cap;
    int[] starts = fit ? b.lineStart : new int[cap];
    int[] lengths = fit ? b.lineLength : new int[cap];
    int[] ends = fit ? b.lineEnd : new int[cap];
    int[] index = fit ? b.lineIndex : new int[cap];
    int rows = 0;
    int line = 0;
    int pos = 0;
    int[] known = b.lineEnds;
    while (pos < length) {
      int nl = known != null ? known[line] : BlockReader.newline(buf, pos, length);
      int next = nl < length ? nl + 1 : nl;
      int len = nl - pos;
      if (len > 0 && nl < length && buf[nl - 1] == '\r') {
        len--;
      }
      if (!BlockReader.blank(buf, pos, pos + len)) {
        if (rows == cap) {
          throw new IllegalStateException("block of " + cap + " lines holds more");
        }
        starts[rows] = pos;
        lengths[rows] = len;
        ends[rows] = next;
        index[rows] = line;
        if (delimited != null ? !delimitedFlat(b, rows, buf, pos, len)
            : !flat(b, rows, buf, pos, len)) {
          nodes[rows] = parseLine(b, rows, buf, pos, len);
        }
        rows++;
      }
      line++;
      pos = next;
    }
    b.rows = rows;
    b.lines = line;
    b.lineStart = starts;
    b.lineLength = lengths;
    b.lineEnd = ends;
    b.lineIndex = index;
  }

  /**
   * Reads row {@code row} on the fast path: returns {@code false}, with the row's flat slots
   * cleared, when the line is not an object of scalar values that parses cleanly (the caller
   * then reads it as a tree, which also words any error).
   */
  private boolean flat(ParsedBlock b, int row, byte[] buf, int off, int len) {
    int cols = names.length;
    int base = row * cols;
    byte[] kinds = b.kinds;
    long[] values = b.values;
    Object[] objects = b.objects;
    List<String> unknown = null;
    boolean ok = false;
    if (scanner.scan(buf, off, off + len, kinds, values, objects, base)) {
      unknown(b, row, scanner.unknown);
      return true;
    }
    Arrays.fill(kinds, base, base + cols, BlockRows.NULL);
    Arrays.fill(objects, base, base + cols, null);
    try (JsonParser p = factory.createParser(buf, off, len)) {
      if (p.nextToken() != JsonToken.START_OBJECT) {
        return false;
      }
      int expect = 0;
      JsonToken t;
      while ((t = p.nextToken()) == JsonToken.FIELD_NAME) {
        String name = p.currentName();
        int c = column(name, expect);
        t = p.nextToken();
        if (c < 0) {
          if (unknown == null) {
            unknown = new ArrayList<>(2);
          }
          if (!unknown.contains(name)) {
            unknown.add(name);
          }
          p.skipChildren();
          continue;
        }
        expect = c + 1 == cols ? 0 : c + 1;
        int s = base + c;
        switch (t) {
          case VALUE_STRING:
            kinds[s] = BlockRows.TEXT;
            objects[s] = p.getText();
            break;
          case VALUE_NUMBER_INT:
            switch (p.getNumberType()) {
              case INT:
                kinds[s] = BlockRows.INT;
                values[s] = p.getIntValue();
                break;
              case LONG:
                kinds[s] = BlockRows.LONG;
                values[s] = p.getLongValue();
                break;
              default:
                kinds[s] = BlockRows.BIG_INTEGER;
                objects[s] = p.getBigIntegerValue();
                break;
            }
            break;
          case VALUE_NUMBER_FLOAT:
            if (exactDecimals && float64[c]) {
              double d = p.getDoubleValue();
              if (d != 0 && !Double.isInfinite(d)) {
                kinds[s] = BlockRows.DOUBLE;
                values[s] = Double.doubleToRawLongBits(d);
                break;
              }
            }
            if (exactDecimals) {
              // The node the tree would hold (same deserializer, same normalization), kept in a
              // one-element array that BlockRows reads through the tree's nested accessor.
              kinds[s] = BlockRows.DECIMAL;
              ObjectMapper mapper = json.get();
              objects[s] = mapper.createArrayNode().add((JsonNode) mapper.readTree(p));
              break;
            }
            kinds[s] = BlockRows.DOUBLE;
            values[s] = Double.doubleToRawLongBits(p.getDoubleValue());
            break;
          case VALUE_TRUE:
          case VALUE_FALSE:
            kinds[s] = BlockRows.BOOLEAN;
            values[s] = t == JsonToken.VALUE_TRUE ? 1 : 0;
            break;
          case VALUE_NULL:
            kinds[s] = BlockRows.NULL;
            objects[s] = null;
            break;
          default:
            return false;
        }
      }
      if (t != JsonToken.END_OBJECT || p.nextToken() != null) {
        return false;
      }
      ok = true;
    } catch (IOException | RuntimeException e) {
      return false;
    } finally {
      if (!ok) {
        Arrays.fill(kinds, base, base + cols, BlockRows.NULL);
        Arrays.fill(objects, base, base + cols, null);
      }
    }
    unknown(b, row, unknown);
    return true;
  }

  /**
   * Reads CSV or TSV row {@code row} into its flat slots as {@link DelimitedText#row} reads it
   * into a tree: each field's text under its header name (a later field of the same name wins),
   * a {@code \N} field missing (NULL), the non-null fields whose name is no column unknown;
   * straight from the bytes ({@link DelimitedBytes}, typed values as the plan says) where it
   * can, else as text. Returns {@code false}, slots untouched, when the line is malformed (the
   * tree path words it).
   */
  private boolean delimitedFlat(ParsedBlock b, int row, byte[] buf, int off, int len) {
    if (delimitedBytes.read(buf, off, len, b.kinds, b.values, b.objects, row * names.length)) {
      List<String> unknown = null;
      for (int i = 0; i < headerColumn.length; i++) {
        if (headerColumn[i] < 0 && !delimitedBytes.isNull(i)) {
          if (unknown == null) {
            unknown = new ArrayList<>(2);
          }
          if (!unknown.contains(header.get(i))) {
            unknown.add(header.get(i));
          }
        }
      }
      unknown(b, row, unknown);
      return true;
    }
    List<String> fields;
    try {
      fields = DelimitedText.fields(delimited, buf, off, len);
    } catch (DelimitedText.BadLine e) {
      return false;
    }
    if (fields.size() != headerColumn.length) {
      return false;
    }
    int base = row * names.length;
    List<String> unknown = null;
    for (int i = 0; i < headerColumn.length; i++) {
      String v = fields.get(i);
      if (v == null) {
        continue;
      }
      int c = headerColumn[i];
      if (c < 0) {
        if (unknown == null) {
          unknown = new ArrayList<>(2);
        }
        if (!unknown.contains(header.get(i))) {
          unknown.add(header.get(i));
        }
        continue;
      }
      b.kinds[base + c] = BlockRows.TEXT;
      b.objects[base + c] = v;
    }
    unknown(b, row, unknown);
    return true;
  }

  /** Records a flat row's unknown fields (or under {@code --strict} rejects the row). */
  private void unknown(ParsedBlock b, int row, List<String> unknown) {
    if (unknown != null) {
      if (strict) {
        b.problem(row, SkipReasons.UNKNOWN_FIELD, unknownMessage(unknown));
      } else {
        b.unknownFields(row, unknown.toArray(new String[0]));
      }
    }
  }

  /** Returns the column named {@code name}, trying {@code expect} first; -1 if none. */
  private int column(String name, int expect) {
    if (expect < names.length && names[expect] == name) {
      return expect;
    }
    for (int i = 0; i < names.length; i++) {
      if (names[i] == name) {
        return i;
      }
    }
    Integer i = index.get(name);
    return i == null ? -1 : i;
  }

  private JsonNode parseLine(ParsedBlock b, int row, byte[] buf, int off, int len) {
    if (delimited != null) {
      try {
        return unknownFields(b, row,
            DelimitedText.row(header, DelimitedText.fields(delimited, buf, off, len)));
      } catch (DelimitedText.BadLine e) {
        b.problem(row, SkipReasons.MALFORMED_ROW, "malformed " + delimited + " row: "
            + e.getMessage() + ": " + Messages.quote(buf, off, len));
        return null;
      }
    }
    JsonNode node;
    try (JsonParser p = factory.createParser(buf, off, len)) {
      node = json.get().readTree(p);
      if (node == null || !(node.isObject() || node.isArray())) {
        b.problem(row, SkipReasons.NOT_AN_OBJECT, "not a JSON object or array: "
            + Messages.quote(buf, off, len));
        return null;
      }
      if (p.nextToken() != null) {
        b.problem(row, SkipReasons.MALFORMED_JSON, "malformed JSON: more than one value on the"
            + " line: " + Messages.quote(buf, off, len));
        return null;
      }
    } catch (JsonProcessingException e) {
      b.problem(row, SkipReasons.MALFORMED_JSON, "malformed JSON: "
          + Messages.jsonError(e) + ": " + Messages.quote(buf, off, len));
      return null;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return unknownFields(b, row, node);
  }

  /** Records (or under {@code --strict} rejects) an object's fields that name no column. */
  private JsonNode unknownFields(ParsedBlock b, int row, JsonNode node) {
    if (node.isObject() && node.size() > 0) {
      List<String> unknown = null;
      for (Iterator<String> it = node.fieldNames(); it.hasNext(); ) {
        String name = it.next();
        if (!index.containsKey(name)) {
          if (unknown == null) {
            unknown = new ArrayList<>(2);
          }
          unknown.add(name);
        }
      }
      if (unknown != null) {
        if (strict) {
          b.problem(row, SkipReasons.UNKNOWN_FIELD, unknownMessage(unknown));
          return null;
        }
        b.unknownFields(row, unknown.toArray(new String[0]));
      }
    }
    return node;
  }

  private static String unknownMessage(List<String> unknown) {
    return "unknown field" + (unknown.size() > 1 ? "s " : " ") + Messages.names(unknown)
        + " (no such column; --strict rejects the row)";
  }
}
