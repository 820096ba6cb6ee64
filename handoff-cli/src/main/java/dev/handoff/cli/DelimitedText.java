package dev.handoff.cli;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * CSV and TSV lines as ClickHouse writes and reads them ({@code CSVWithNames}, {@code
 * TabSeparatedWithNames}): the first line names the columns, each later line is one row, read
 * into an object of text fields so that the JSON path (accessor, conversions, encoders) takes it
 * as it takes a JSON object of strings.
 *
 * <p>CSV: fields separated by commas; a field may be quoted with {@code "} (a doubled {@code ""}
 * inside stands for one) or {@code '}; an unquoted {@code \N} is NULL; an unquoted empty field is
 * missing (NULL). TSV: fields separated by tabs; {@code \N} is NULL; {@code \t}, {@code \n},
 * {@code \r}, {@code \\}, {@code \0}, {@code \'}, {@code \b}, {@code \f} are unescaped. A quoted
 * CSV field that runs past the end of its line (a newline inside quotes) is not supported: the
 * row is bad.
 */
final class DelimitedText {
  private DelimitedText() {}

  /** The input formats. */
  enum Kind {
    CSV,
    TSV
  }

  /** A line that is not a well-formed row; the message says why. */
  static final class BadLine extends Exception {
    BadLine(String message) {
      super(message, null, false, false);
    }
  }

  /**
   * Splits one line into its fields; a {@code null} field is NULL (or missing).
   *
   * @throws BadLine if a quote is not closed on the line, or text follows a closing quote
   */
  static List<String> fields(Kind kind, byte[] buf, int off, int len) throws BadLine {
    String line = new String(buf, off, len, StandardCharsets.UTF_8);
    return kind == Kind.TSV ? tsv(line) : csv(line);
  }

  private static List<String> tsv(String line) throws BadLine {
    List<String> out = new ArrayList<>();
    int start = 0;
    while (true) {
      int tab = line.indexOf('\t', start);
      String raw = tab < 0 ? line.substring(start) : line.substring(start, tab);
      out.add(raw.equals("\\N") ? null : unescape(raw));
      if (tab < 0) {
        return out;
      }
      start = tab + 1;
    }
  }

  private static String unescape(String raw) throws BadLine {
    if (raw.indexOf('\\') < 0) {
      return raw;
    }
    StringBuilder sb = new StringBuilder(raw.length());
    for (int i = 0; i < raw.length(); i++) {
      char c = raw.charAt(i);
      if (c != '\\') {
        sb.append(c);
        continue;
      }
      if (++i == raw.length()) {
        throw new BadLine("a backslash ends the field " + Messages.quote(raw));
      }
      char e = raw.charAt(i);
      switch (e) {
        case 't' -> sb.append('\t');
        case 'n' -> sb.append('\n');
        case 'r' -> sb.append('\r');
        case 'b' -> sb.append('\b');
        case 'f' -> sb.append('\f');
        case '0' -> sb.append('\0');
        default -> sb.append(e); // \\, \', and any other escaped character stand for themselves
      }
    }
    return sb.toString();
  }

  private static List<String> csv(String line) throws BadLine {
    List<String> out = new ArrayList<>();
    int i = 0;
    int n = line.length();
    while (true) {
      if (i < n && (line.charAt(i) == '"' || line.charAt(i) == '\'')) {
        char q = line.charAt(i);
        // From quote to quote in bulk; a builder only for a field with a doubled quote.
        StringBuilder sb = null;
        int from = ++i;
        String value;
        while (true) {
          int close = line.indexOf(q, i);
          if (close < 0) {
            throw new BadLine("a quoted field is not closed on its line (a newline inside"
                + " quotes is not supported)");
          }
          if (close + 1 < n && line.charAt(close + 1) == q) {
            if (sb == null) {
              sb = new StringBuilder(close - from + 16);
            }
            sb.append(line, from, close + 1); // the text and one of the two quotes
            i = close + 2;
            from = i;
            continue;
          }
          value = sb == null ? line.substring(from, close)
              : sb.append(line, from, close).toString();
          i = close + 1;
          break;
        }
        out.add(value);
        if (i < n && line.charAt(i) != ',') {
          throw new BadLine("text after a closing quote at character " + (i + 1));
        }
      } else {
        int comma = line.indexOf(',', i);
        String raw = comma < 0 ? line.substring(i) : line.substring(i, comma);
        out.add(raw.isEmpty() || raw.equals("\\N") ? null : raw);
        i = comma < 0 ? n : comma;
      }
      if (i >= n) {
        return out;
      }
      i++; // the comma
      if (i == n) {
        out.add(null); // a trailing comma: one more, empty field
        return out;
      }
    }
  }

  /**
   * Returns the row as an object of text fields named by the header; a NULL field is left out
   * (missing reads as NULL).
   *
   * @throws BadLine if the row has another number of fields than the header
   */
  static ObjectNode row(List<String> header, List<String> fields) throws BadLine {
    if (fields.size() != header.size()) {
      throw new BadLine(fields.size() + " fields where the header has " + header.size());
    }
    ObjectNode node = JsonNodeFactory.instance.objectNode();
    for (int i = 0; i < fields.size(); i++) {
      String v = fields.get(i);
      if (v != null) {
        node.put(header.get(i), v);
      }
    }
    return node;
  }

  /**
   * The header line: the column names, and the input offset where the rows start.
   *
   * @param names the names, in field order
   * @param end the offset just after the header's newline
   */
  record Header(List<String> names, long end) {}

  /**
   * Reads the header line from {@code in} (the input's first line) byte by byte, so that a
   * stream such as stdin is left at the first row.
   *
   * @param name the input's name, for messages
   * @throws IOException if the input is empty, the line is longer than 1 MiB, or not a row
   */
  static Header readHeader(java.io.InputStream in, String name, Kind kind)
      throws java.io.IOException {
    java.io.ByteArrayOutputStream line = new java.io.ByteArrayOutputStream();
    int c;
    long n = 0;
    while ((c = in.read()) >= 0) {
      n++;
      if (c == '\n') {
        break;
      }
      line.write(c);
      if (n > (1 << 20)) {
        throw new java.io.IOException("the header line of " + name + " is longer than 1 MiB");
      }
    }
    if (n == 0) {
      throw new java.io.IOException(name + " is empty: a " + kind + " input starts with a"
          + " header line naming the columns");
    }
    byte[] b = line.toByteArray();
    int len = b.length > 0 && b[b.length - 1] == '\r' ? b.length - 1 : b.length;
    try {
      return new Header(fields(kind, b, 0, len), n);
    } catch (BadLine e) {
      throw new java.io.IOException("the header line of " + name + " is not a " + kind
          + " row: " + e.getMessage(), e);
    }
  }
}
