package dev.handoff.clickhouse.value;

/** Number scanning and parsing of the JSON readers ({@link JsonText}, {@link JsonFlat}). */
final class JsonNumbers {
  private JsonNumbers() {}

  /**
   * Returns where the number starting at {@code from} ends: an optional minus, then digits, dots,
   * exponent letters and signs, as both readers take them (the parse that follows judges the
   * spelling). The end is returned as is when the number has only digits, and as {@code ~end}
   * (negative) when it has a fraction or an exponent.
   */
  static int scanEnd(CharSequence text, int from) {
    int pos = from;
    if (pos < text.length() && text.charAt(pos) == '-') {
      pos++;
    }
    boolean integral = true;
    while (pos < text.length()) {
      char c = text.charAt(pos);
      if (c >= '0' && c <= '9') {
        pos++;
      } else if (c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-') {
        integral = false;
        pos++;
      } else {
        break;
      }
    }
    return integral ? pos : ~pos;
  }

  private static final double[] POW10 = {
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
    1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

  /**
   * Parses {@code -?d+(.d+)?([eE][+-]?d+)?} when the result is exact by one IEEE operation (up
   * to 18 significant digits, a mantissa below 2^53, a power of ten up to 22), else NaN.
   */
  static double fastDouble(CharSequence text, int from, int to) {
    int i = from;
    boolean negative = text.charAt(i) == '-';
    if (negative) {
      i++;
    }
    long m = 0;
    int digits = 0;
    int scale = 0;
    int intStart = i;
    for (; i < to && isDigit(text.charAt(i)); i++) {
      if (m != 0 || text.charAt(i) != '0') {
        if (++digits > 18) {
          return Double.NaN;
        }
        m = m * 10 + (text.charAt(i) - '0');
      }
    }
    if (i == intStart) {
      return Double.NaN;
    }
    if (i < to && text.charAt(i) == '.') {
      i++;
      int fracStart = i;
      for (; i < to && isDigit(text.charAt(i)); i++) {
        scale--;
        if (m != 0 || text.charAt(i) != '0') {
          if (++digits > 18) { // 19 digits can overflow the long
            return Double.NaN;
          }
          m = m * 10 + (text.charAt(i) - '0');
        }
      }
      if (i == fracStart) {
        return Double.NaN;
      }
    }
    if (i < to && (text.charAt(i) == 'e' || text.charAt(i) == 'E')) {
      i++;
      boolean expNegative = false;
      if (i < to && (text.charAt(i) == '+' || text.charAt(i) == '-')) {
        expNegative = text.charAt(i) == '-';
        i++;
      }
      int expStart = i;
      int exp = 0;
      for (; i < to && isDigit(text.charAt(i)); i++) {
        if (i - expStart >= 6) {
          return Double.NaN;
        }
        exp = exp * 10 + (text.charAt(i) - '0');
      }
      if (i == expStart) {
        return Double.NaN;
      }
      scale += expNegative ? -exp : exp;
    }
    if (i != to) {
      return Double.NaN;
    }
    double d;
    if (m == 0) {
      d = 0.0;
    } else if (m < (1L << 53) && scale >= -22 && scale <= 22) {
      d = scale >= 0 ? (double) m * POW10[scale] : (double) m / POW10[-scale];
    } else {
      return Double.NaN;
    }
    return negative ? -d : d;
  }

  static boolean isDigit(char c) {
    return c >= '0' && c <= '9';
  }
}
