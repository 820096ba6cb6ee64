package dev.handoff.clickhouse.hash;

import java.util.ArrayList;
import java.util.List;

/**
 * Parses the sharding expressions {@link ShardingKey} understands: {@code column},
 * {@code rand()}, and {@code f(arg, ...)} where an argument is a column or a tuple of columns
 * {@code (a, b)} or {@code tuple(a, b)}, flattened. Columns are identifiers or back-quoted names.
 */
final class ExpressionParser {
  /** A parsed expression: a function (null for a lone column) and the columns, flattened. */
  record Call(String function, List<String> columns) {}

  private final String text;
  private int pos;

  ExpressionParser(String text) {
    if (text == null || text.isBlank()) {
      throw new IllegalArgumentException("the sharding key expression is empty");
    }
    this.text = text;
  }

  Call parse() {
    skipSpaces();
    String name = name();
    skipSpaces();
    Call call;
    if (pos < text.length() && text.charAt(pos) == '(') {
      pos++;
      List<String> columns = new ArrayList<>();
      arguments(columns);
      call = new Call(name, columns);
    } else {
      call = new Call(null, List.of(name));
    }
    skipSpaces();
    if (pos != text.length()) {
      throw error("unexpected '" + text.substring(pos) + "'");
    }
    return call;
  }

  /** Reads arguments up to and including the closing parenthesis. */
  private void arguments(List<String> columns) {
    skipSpaces();
    if (peek() == ')') {
      pos++;
      return;
    }
    while (true) {
      skipSpaces();
      if (peek() == '(') {
        pos++;
        arguments(columns);
      } else {
        String name = name();
        skipSpaces();
        if (peek() == '(') {
          if (!name.equals("tuple")) {
            throw error("nested function " + name + "(...) is not supported; only columns and"
                + " tuples of columns can be arguments");
          }
          pos++;
          arguments(columns);
        } else {
          columns.add(name);
        }
      }
      skipSpaces();
      char c = peek();
      pos++;
      if (c == ')') {
        return;
      }
      if (c != ',') {
        throw error("expected ',' or ')' at position " + (pos - 1));
      }
    }
  }

  private String name() {
    if (peek() == '`') {
      int end = text.indexOf('`', pos + 1);
      if (end < 0) {
        throw error("unterminated back-quoted name");
      }
      String name = text.substring(pos + 1, end);
      pos = end + 1;
      return name;
    }
    int start = pos;
    while (pos < text.length()
        && (Character.isLetterOrDigit(text.charAt(pos)) || text.charAt(pos) == '_')) {
      pos++;
    }
    if (start == pos || Character.isDigit(text.charAt(start))) {
      throw error("expected a column or function name at position " + start);
    }
    return text.substring(start, pos);
  }

  private char peek() {
    if (pos >= text.length()) {
      throw error("unexpected end");
    }
    return text.charAt(pos);
  }

  private void skipSpaces() {
    while (pos < text.length() && Character.isWhitespace(text.charAt(pos))) {
      pos++;
    }
  }

  private IllegalArgumentException error(String reason) {
    return new IllegalArgumentException("sharding key '" + text + "': " + reason);
  }
}
