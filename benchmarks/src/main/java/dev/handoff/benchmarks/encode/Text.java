package dev.handoff.benchmarks.encode;

import java.util.SplittableRandom;

/** Random text of realistic shapes for the generated rows. */
final class Text {
  private Text() {}

  private static final String ALNUM =
      "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
  private static final String[] WORDS = {
    "alpha", "beta", "gamma", "delta", "order", "click", "view", "cart", "search", "home",
    "product", "item", "user", "session", "page", "api", "v2", "event", "stream", "report"
  };

  /** {@code min..max} alphanumeric ASCII characters. */
  static String alnum(SplittableRandom r, int min, int max) {
    int n = r.nextInt(min, max + 1);
    char[] c = new char[n];
    for (int i = 0; i < n; i++) {
      c[i] = ALNUM.charAt(r.nextInt(ALNUM.length()));
    }
    return new String(c);
  }

  /**
   * About {@code target} characters of words separated by {@code sep}; with probability {@code
   * nonAscii} one word carries a non-ASCII letter (two UTF-8 bytes), as user text sometimes does.
   */
  static String words(SplittableRandom r, int target, char sep, double nonAscii) {
    StringBuilder b = new StringBuilder(target + 12);
    while (b.length() < target - 4) {
      if (b.length() > 0) {
        b.append(sep);
      }
      b.append(WORDS[r.nextInt(WORDS.length)]);
    }
    while (b.length() < target) {
      b.append(ALNUM.charAt(r.nextInt(ALNUM.length())));
    }
    if (r.nextDouble() < nonAscii) {
      b.setCharAt(r.nextInt(b.length()), '\u00e9');
    }
    return b.toString();
  }

  /** A URL of about {@code target} characters. */
  static String url(SplittableRandom r, int target) {
    return "https://example.com/" + words(r, Math.max(4, target - 20), '/', 0.0);
  }
}
