package dev.handoff.clickhouse.value;

import java.math.BigDecimal;
import java.math.BigInteger;

/**
 * Strict syntax checks and parsing for numbers written as text.
 *
 * <p>The grammar is {@code [+-]digits} (an integer) or {@code [+-](digits[.digits] | .digits)
 * [(e|E)[+-]digits]} (a decimal), plus {@code nan}, {@code inf} and {@code infinity} in any letter
 * case with an optional sign. Nothing else: no whitespace, no hexadecimal, no {@code _}, no
 * {@code d}/{@code f} suffixes (which {@link Double#parseDouble} would accept), so every parser
 * behind this check sees only what it parses exactly.
 */
final class NumberText {
  private NumberText() {}

  /** Not a number. */
  static final int INVALID = 0;
  /** An integer: {@code [+-]digits}. */
  static final int INTEGER = 1;
  /** A decimal with a point, an exponent or both. */
  static final int DECIMAL = 2;
  /** {@code nan}. */
  static final int NAN = 3;
  /** {@code inf}, {@code +inf}, {@code infinity}. */
  static final int POSITIVE_INFINITY = 4;
  /** {@code -inf}, {@code -infinity}. */
  static final int NEGATIVE_INFINITY = 5;

  /**
   * The longest text read as a number. The widest value any column holds has 78 digits; the cap
   * keeps a huge string from costing a superlinear BigDecimal or BigInteger parse.
   */
  static final int MAX_LENGTH = 400;

  /** Returns what {@code s} is: one of the constants above. Allocates nothing. */
  static int classify(CharSequence s) {
    int n = s.length();
    if (n == 0 || n > MAX_LENGTH) {
      return INVALID;
    }
    int i = 0;
    char first = s.charAt(0);
    if (first == '+' || first == '-') {
      i = 1;
    }
    int rest = n - i;
    if (rest == 3 && matchesIgnoreCase(s, i, "nan")) {
      return NAN;
    }
    if ((rest == 3 && matchesIgnoreCase(s, i, "inf"))
        || (rest == 8 && matchesIgnoreCase(s, i, "infinity"))) {
      return first == '-' ? NEGATIVE_INFINITY : POSITIVE_INFINITY;
    }
    int digits = 0;
    while (i < n && isDigit(s.charAt(i))) {
      i++;
      digits++;
    }
    boolean decimal = false;
    if (i < n && s.charAt(i) == '.') {
      decimal = true;
      i++;
      while (i < n && isDigit(s.charAt(i))) {
        i++;
        digits++;
      }
    }
    if (digits == 0) {
      return INVALID;
    }
    if (i < n && (s.charAt(i) == 'e' || s.charAt(i) == 'E')) {
      decimal = true;
      i++;
      if (i < n && (s.charAt(i) == '+' || s.charAt(i) == '-')) {
        i++;
      }
      int exponentDigits = 0;
      while (i < n && isDigit(s.charAt(i))) {
        i++;
        exponentDigits++;
      }
      if (exponentDigits == 0) {
        return INVALID;
      }
    }
    if (i != n) {
      return INVALID;
    }
    return decimal ? DECIMAL : INTEGER;
  }

  /** Returns the number of digits of an {@link #INTEGER} text (leading zeros included). */
  static int integerDigits(CharSequence s) {
    char first = s.charAt(0);
    return first == '+' || first == '-' ? s.length() - 1 : s.length();
  }

  /**
   * Parses an {@link #INTEGER} text of at most 18 digits, which cannot overflow a {@code long}.
   * Allocates nothing.
   */
  static long parseSmallInteger(CharSequence s) {
    int i = 0;
    char first = s.charAt(0);
    if (first == '+' || first == '-') {
      i = 1;
    }
    long v = 0;
    for (int n = s.length(); i < n; i++) {
      v = v * 10 + (s.charAt(i) - '0');
    }
    return first == '-' ? -v : v;
  }

  /** Parses an {@link #INTEGER} text of any length (up to {@link #MAX_LENGTH}). */
  static BigInteger parseBigInteger(CharSequence s) {
    return new BigInteger(s.toString());
  }

  /** Parses an {@link #INTEGER} or {@link #DECIMAL} text exactly. */
  static BigDecimal parseBigDecimal(CharSequence s) {
    try {
      return new BigDecimal(s.toString());
    } catch (NumberFormatException e) {
      // The syntax was checked, so only an exponent beyond the int range gets here.
      throw new Rejected("is out of range (its exponent is too large)");
    }
  }

  /** Returns whether the mantissa of a {@link #DECIMAL} or {@link #INTEGER} text is zero. */
  static boolean isZero(CharSequence s) {
    for (int i = 0, n = s.length(); i < n; i++) {
      char c = s.charAt(i);
      if (c == 'e' || c == 'E') {
        return true;
      }
      if (c >= '1' && c <= '9') {
        return false;
      }
    }
    return true;
  }

  /** Returns whether {@code s} from {@code from} equals the lower-case ASCII {@code word}. */
  static boolean matchesIgnoreCase(CharSequence s, int from, String word) {
    if (s.length() - from < word.length()) {
      return false;
    }
    for (int i = 0; i < word.length(); i++) {
      char c = s.charAt(from + i);
      if (c >= 'A' && c <= 'Z') {
        c = (char) (c + ('a' - 'A'));
      }
      if (c != word.charAt(i)) {
        return false;
      }
    }
    return true;
  }

  static boolean isDigit(char c) {
    return c >= '0' && c <= '9';
  }
}
