package dev.handoff.cli;

import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * An inclusive range of seeds, written {@code A..B} (or one seed {@code N}).
 *
 * @param from the first seed
 * @param to the last seed, at least {@code from}
 */
record SeedRange(long from, long to) {

  private static final Pattern RANGE = Pattern.compile("(-?\\d+)(?:\\.\\.(-?\\d+))?");

  /**
   * Parses {@code A..B} or {@code N}.
   *
   * @throws IllegalArgumentException naming the text and the expected form
   */
  static SeedRange parse(String text) {
    Matcher m = RANGE.matcher(text.strip());
    if (!m.matches()) {
      throw new IllegalArgumentException("'" + text + "' is not a seed range (expected A..B,"
          + " for example 1..1000)");
    }
    try {
      long from = Long.parseLong(m.group(1));
      long to = m.group(2) == null ? from : Long.parseLong(m.group(2));
      if (to < from) {
        throw new IllegalArgumentException("seed range " + text + " ends before it starts");
      }
      return new SeedRange(from, to);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("seed range " + text + ": a seed is out of range", e);
    }
  }

  /** Converts {@code --seeds} values for picocli. */
  static final class Converter implements ITypeConverter<SeedRange> {
    Converter() {}

    @Override
    public SeedRange convert(String value) {
      try {
        return parse(value);
      } catch (IllegalArgumentException e) {
        throw new TypeConversionException(e.getMessage());
      }
    }
  }
}
