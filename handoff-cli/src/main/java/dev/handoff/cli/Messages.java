package dev.handoff.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import java.nio.charset.StandardCharsets;
import java.util.List;

/** Small text helpers for the messages about bad input rows. */
final class Messages {
  private Messages() {}

  /** How many characters of a line a message quotes. */
  static final int MAX_QUOTED_CHARS = 120;

  /** Returns a line's text, shortened to {@link #MAX_QUOTED_CHARS}, in single quotes. */
  static String quote(byte[] buf, int off, int len) {
    String s = new String(buf, off, Math.min(len, MAX_QUOTED_CHARS * 4), StandardCharsets.UTF_8);
    return quote(s);
  }

  /** Returns {@code s}, shortened to {@link #MAX_QUOTED_CHARS}, in single quotes. */
  static String quote(String s) {
    if (s.length() > MAX_QUOTED_CHARS) {
      return "'" + s.substring(0, MAX_QUOTED_CHARS) + "...' (" + s.length() + " characters)";
    }
    return "'" + s + "'";
  }

  /** Returns Jackson's message without its location part (the caller names line and offset). */
  static String jsonError(JsonProcessingException e) {
    String m = e.getOriginalMessage();
    if (m == null) {
      return e.getClass().getSimpleName();
    }
    int nl = m.indexOf('\n');
    m = nl >= 0 ? m.substring(0, nl) : m;
    // Jackson names its own idea of the source and position; the caller names the line.
    m = m.replaceAll("\\s*\\(start marker at \\[Source: .*?\\]\\)", "");
    if (e.getLocation() != null && e.getLocation().getColumnNr() > 0) {
      m += " (at character " + e.getLocation().getColumnNr() + ")";
    }
    return m;
  }

  /** Returns names as {@code "a", "b"}. */
  static String names(List<String> names) {
    StringBuilder sb = new StringBuilder();
    for (String n : names) {
      sb.append(sb.length() == 0 ? "" : ", ").append('"').append(n).append('"');
    }
    return sb.toString();
  }

  /** Returns where a row came from: {@code line 12 (byte offset 3456)}. */
  static String where(long line, long offset) {
    return "line " + line + " (byte offset " + offset + ")";
  }
}
