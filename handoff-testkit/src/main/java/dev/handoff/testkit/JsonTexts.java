package dev.handoff.testkit;

import java.util.SplittableRandom;

/**
 * Seeded random JSON texts for the property tests of the JSON readers and encoders: objects whose
 * keys need escapes or hold dots, values of every JSON kind (numbers at the edges of {@code long}
 * and {@code double}, strings with every escape and with UTF-8 of every length, malformed escapes),
 * arrays of every shape, and texts with a fault inserted. The same seed gives the same text.
 */
public final class JsonTexts {
  private static final String[] KEYS = {"a", "b", "c", "x", "a.b", "b.c", "é", "", "1", "\\u0061",
    "k\\\"q", "\\n", "日本"};

  private JsonTexts() {}

  /** Returns a random JSON object (a nesting of at most a few levels). */
  public static String object(SplittableRandom r) {
    StringBuilder sb = new StringBuilder();
    object(r, sb, 0);
    return sb.toString();
  }

  /** Inserts a fault into {@code text} (cut, stray backslash, comma, word). */
  public static String mutate(SplittableRandom r, String text) {
    int at = r.nextInt(text.length() + 1);
    switch (r.nextInt(4)) {
      case 0: return text.substring(0, at);
      case 1: return text.substring(0, at) + "\\" + text.substring(at);
      case 2: return text.substring(0, at) + ",}" + text.substring(at);
      default: return text.substring(0, at) + " x " + text.substring(at);
    }
  }

  private static void ws(SplittableRandom r, StringBuilder sb) {
    if (r.nextInt(4) == 0) {
      sb.append(" \t\n\r".charAt(r.nextInt(4)));
    }
  }

  /** Appends a random JSON object of nesting {@code depth} and below. */
  public static void object(SplittableRandom r, StringBuilder sb, int depth) {
    sb.append('{');
    ws(r, sb);
    int n = r.nextInt(depth == 0 ? 6 : 4);
    for (int i = 0; i < n; i++) {
      if (i > 0) {
        sb.append(',');
        ws(r, sb);
      }
      sb.append('"').append(KEYS[r.nextInt(KEYS.length)]);
      if (r.nextInt(3) == 0) {
        sb.append(r.nextInt(10));
      }
      sb.append('"');
      ws(r, sb);
      sb.append(':');
      ws(r, sb);
      value(r, sb, depth + 1);
      ws(r, sb);
    }
    sb.append('}');
  }

  private static void value(SplittableRandom r, StringBuilder sb, int depth) {
    int k = r.nextInt(depth > 4 ? 8 : 11);
    switch (k) {
      case 0: sb.append("null"); break;
      case 1: sb.append(r.nextBoolean()); break;
      case 2: sb.append(r.nextLong(-1000, 1000)); break;
      case 3: sb.append(r.nextLong()); break;
      case 4: number(r, sb); break;
      case 5: case 6: string(r, sb); break;
      case 7: sb.append(r.nextBoolean() ? "\"\"" : r.nextBoolean() ? "-0" : "0.0"); break;
      case 8: case 9: object(r, sb, depth); break;
      default: array(r, sb, depth); break;
    }
  }

  /**
   * Appends an array: of mixed values, of objects (as an array of objects is stored: Array(JSON)),
   * of integers with nulls, of strings, of floats and integers, of arrays; often empty.
   */
  private static void array(SplittableRandom r, StringBuilder sb, int depth) {
    sb.append('[');
    ws(r, sb);
    int n = r.nextInt(5);
    int shape = r.nextInt(6);
    for (int i = 0; i < n; i++) {
      if (i > 0) {
        sb.append(',');
        ws(r, sb);
      }
      switch (depth > 5 && shape >= 4 ? 0 : shape) {
        case 0: value(r, sb, depth + 1); break;
        case 1: object(r, sb, depth + 1); break;
        case 2: sb.append(r.nextInt(4) == 0 ? "null" : Long.toString(r.nextLong(-50, 50))); break;
        case 3: string(r, sb); break;
        case 4: if (r.nextBoolean()) { number(r, sb); } else { sb.append(r.nextInt(9)); } break;
        default: array(r, sb, depth + 1); break;
      }
    }
    ws(r, sb);
    sb.append(']');
  }

  private static void number(SplittableRandom r, StringBuilder sb) {
    switch (r.nextInt(10)) {
      case 0: sb.append(r.nextDouble() * Math.pow(10, r.nextInt(-30, 30))); break;
      case 1: sb.append("9223372036854775807"); break;
      case 2: sb.append("-9223372036854775808"); break;
      case 3: sb.append("9223372036854775808"); break;
      case 4: sb.append("123456789012345678901234567890"); break;
      case 5: sb.append(r.nextInt(1000)).append('.').append(r.nextInt(1000)); break;
      case 6: sb.append(r.nextInt(100)).append(r.nextBoolean() ? "e" : "E")
          .append(r.nextBoolean() ? "-" : r.nextBoolean() ? "+" : "").append(r.nextInt(400));
        break;
      case 7: sb.append(r.nextBoolean() ? "1." : r.nextBoolean() ? "-.5" : "1e"); break;
      case 8: sb.append("0.").append(r.nextLong(Long.MAX_VALUE)).append(r.nextInt(1000)); break;
      default: sb.append("00").append(r.nextInt(100)); break;
    }
  }

  private static void string(SplittableRandom r, StringBuilder sb) {
    sb.append('"');
    int n = r.nextInt(8);
    for (int i = 0; i < n; i++) {
      switch (r.nextInt(12)) {
        case 0: sb.append("\\\"\\\\\\/\\b\\f\\n\\r\\t".substring(0, 2 * (1 + r.nextInt(8))));
          break;
        case 1: sb.append(String.format("\\u%04x", r.nextInt(0x10000))); break;
        case 2: sb.append(String.format("\\u%04X", r.nextInt(0x10000))); break;
        case 3: sb.append("é日本\uD83D\uDE00"); break;
        case 4: sb.append(r.nextBoolean() ? "\\u+041" : "\\uzz"); break;
        default: sb.append((char) ('a' + r.nextInt(26))); break;
      }
    }
    sb.append('"');
  }
}
