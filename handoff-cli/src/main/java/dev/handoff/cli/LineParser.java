package dev.handoff.cli;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Set;

/**
 * Parses the lines of a {@link ParsedBlock} into JSON trees: an object row (fields by column
 * name) or an array row (fields by position). A line that is not JSON, holds more than one value,
 * or holds a value that is neither an object nor an array gets a reason instead of a node; an
 * object's fields that name no column are recorded (and make the row bad under {@code --strict}).
 *
 * <p>One parser per thread: the mapper is shared safely, the rest is per call.
 */
final class LineParser {

  private final ObjectMapper mapper;
  private final Set<String> columns;
  private final boolean strict;
  /** CSV or TSV, or {@code null} for JSON lines. */
  private final DelimitedText.Kind delimited;
  /** The column names of a CSV or TSV header. */
  private final List<String> header;

  /**
   * Creates a parser.
   *
   * @param columns the table's column names (to find unknown fields)
   * @param exactDecimals whether numbers with a fraction are read as exact decimals
   * @param strict whether a field naming no column makes the row bad
   */
  LineParser(Set<String> columns, boolean exactDecimals, boolean strict) {
    this(columns, exactDecimals, strict, null, List.of());
  }

  /**
   * Creates a parser of CSV or TSV rows named by {@code header} ({@code delimited} {@code null}:
   * JSON lines).
   */
  LineParser(Set<String> columns, boolean exactDecimals, boolean strict,
      DelimitedText.Kind delimited, List<String> header) {
    this.columns = columns;
    this.strict = strict;
    this.delimited = delimited;
    this.header = header;
    this.mapper = new ObjectMapper();
    if (exactDecimals) {
      mapper.enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS);
    }
  }

  /** Splits the block's bytes into lines and parses each non-blank one. */
  void parse(ParsedBlock b) {
    byte[] buf = b.bytes;
    int cap = 64;
    JsonNode[] nodes = new JsonNode[cap];
    int[] starts = new int[cap];
    int[] lengths = new int[cap];
    int[] ends = new int[cap];
    int[] index = new int[cap];
    b.nodes = nodes;
    int rows = 0;
    int line = 0;
    int pos = 0;
    while (pos < buf.length) {
      int nl = pos;
      int n = buf.length;
      while (nl < n && buf[nl] != '\n') {
        nl++;
      }
      int next = nl < buf.length ? nl + 1 : nl;
      int len = nl - pos;
      if (len > 0 && nl < buf.length && buf[nl - 1] == '\r') {
        len--;
      }
      if (!BlockReader.blank(buf, pos, pos + len)) {
        if (rows == cap) {
          cap *= 2;
          nodes = java.util.Arrays.copyOf(nodes, cap);
          starts = java.util.Arrays.copyOf(starts, cap);
          lengths = java.util.Arrays.copyOf(lengths, cap);
          ends = java.util.Arrays.copyOf(ends, cap);
          index = java.util.Arrays.copyOf(index, cap);
          b.nodes = nodes;
          if (b.reason != null) {
            b.reason = java.util.Arrays.copyOf(b.reason, cap);
            b.detail = java.util.Arrays.copyOf(b.detail, cap);
          }
          if (b.unknown != null) {
            b.unknown = java.util.Arrays.copyOf(b.unknown, cap);
          }
        }
        starts[rows] = pos;
        lengths[rows] = len;
        ends[rows] = next;
        index[rows] = line;
        nodes[rows] = parseLine(b, rows, buf, pos, len);
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
    try (JsonParser p = mapper.getFactory().createParser(buf, off, len)) {
      node = mapper.readTree(p);
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
        if (!columns.contains(name)) {
          if (unknown == null) {
            unknown = new ArrayList<>(2);
          }
          unknown.add(name);
        }
      }
      if (unknown != null) {
        if (strict) {
          b.problem(row, SkipReasons.UNKNOWN_FIELD, "unknown field" + (unknown.size() > 1
              ? "s " : " ") + Messages.names(unknown) + " (no such column; --strict rejects"
              + " the row)");
          return null;
        }
        b.unknownFields(row, unknown.toArray(new String[0]));
      }
    }
    return node;
  }
}
