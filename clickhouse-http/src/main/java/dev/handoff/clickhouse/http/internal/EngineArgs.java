package dev.handoff.clickhouse.http.internal;

import java.util.ArrayList;
import java.util.List;

/**
 * Splits a table engine clause such as {@code Distributed(c, 'db', t, cityHash64(a, b) % 4)}
 * into its top-level arguments, as text: commas inside parentheses, brackets and quotes do not
 * split. Enough for the engine clauses the server prints; not an SQL parser.
 */
public final class EngineArgs {
  private EngineArgs() {}

  /**
   * Returns the arguments of {@code engine(...)} in {@code clause}, each stripped of surrounding
   * white space.
   *
   * @throws IllegalArgumentException when the clause does not start with {@code engine(} or its
   *     parentheses or quotes do not close
   */
  public static List<String> of(String engine, String clause) {
    String s = clause.strip();
    if (!s.startsWith(engine + "(")) {
      throw new IllegalArgumentException("not a " + engine + " engine: " + clause);
    }
    List<String> args = new ArrayList<>();
    int depth = 0;
    int start = engine.length() + 1;
    for (int i = start; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '\'' || c == '`' || c == '"') {
        i = closingQuote(s, i, clause);
      } else if (c == '(' || c == '[') {
        depth++;
      } else if (c == ')' || c == ']') {
        if (depth == 0) {
          String last = s.substring(start, i).strip();
          if (!last.isEmpty() || !args.isEmpty()) {
            args.add(last);
          }
          return args;
        }
        depth--;
      } else if (c == ',' && depth == 0) {
        args.add(s.substring(start, i).strip());
        start = i + 1;
      }
    }
    throw new IllegalArgumentException("unbalanced parentheses in " + clause);
  }

  /**
   * Returns {@code arg} without its quotes when it is a string literal or a quoted identifier
   * (with {@code \x} escapes and doubled quotes undone), else {@code arg} as it is.
   */
  public static String unquote(String arg) {
    String a = arg.strip();
    if (a.length() < 2) {
      return a;
    }
    char q = a.charAt(0);
    if ((q != '\'' && q != '`' && q != '"') || a.charAt(a.length() - 1) != q) {
      return a;
    }
    StringBuilder out = new StringBuilder();
    for (int i = 1; i < a.length() - 1; i++) {
      char c = a.charAt(i);
      if (c == '\\' && i + 1 < a.length() - 1) {
        out.append(a.charAt(++i));
      } else if (c == q && i + 1 < a.length() - 1 && a.charAt(i + 1) == q) {
        out.append(q);
        i++;
      } else {
        out.append(c);
      }
    }
    return out.toString();
  }

  private static int closingQuote(String s, int open, String clause) {
    char q = s.charAt(open);
    for (int i = open + 1; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '\\') {
        i++;
      } else if (c == q) {
        if (i + 1 < s.length() && s.charAt(i + 1) == q) {
          i++;
        } else {
          return i;
        }
      }
    }
    throw new IllegalArgumentException("unclosed quote in " + clause);
  }
}
