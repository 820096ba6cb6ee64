package dev.handoff.cli;

import java.time.Duration;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * Parses the sizes and durations of the {@code ingest} options: {@code 65536}, {@code 64KiB},
 * {@code 16MiB}, {@code 1GiB} (also {@code KB}/{@code MB}/{@code GB}, decimal, and the bare
 * letters {@code k}, {@code m}, {@code g} as binary); {@code 200ms}, {@code 5s}, {@code 10m},
 * {@code 1h} or an ISO-8601 duration such as {@code PT5S}.
 */
final class Sizes {
  private static final Pattern SIZE =
      Pattern.compile("(\\d+)\\s*([a-z]*)");
  private static final Pattern DURATION =
      Pattern.compile("(\\d+)\\s*(ms|s|m|min|h)");

  private Sizes() {}

  /**
   * Returns the bytes {@code text} means.
   *
   * @throws IllegalArgumentException if it is not a size, or too large for a {@code long}
   */
  static long parseBytes(String text) {
    Matcher m = SIZE.matcher(text.strip().toLowerCase(Locale.ROOT));
    if (!m.matches()) {
      throw new IllegalArgumentException("'" + text + "' is not a size (examples: 65536, 64KiB,"
          + " 16MiB, 1GiB)");
    }
    long unit = switch (m.group(2)) {
      case "", "b" -> 1L;
      case "k", "kib", "ki" -> 1L << 10;
      case "m", "mib", "mi" -> 1L << 20;
      case "g", "gib", "gi" -> 1L << 30;
      case "kb" -> 1_000L;
      case "mb" -> 1_000_000L;
      case "gb" -> 1_000_000_000L;
      default -> throw new IllegalArgumentException("'" + text + "': unknown size unit '"
          + m.group(2) + "' (use KiB, MiB, GiB, KB, MB or GB)");
    };
    try {
      return Math.multiplyExact(Long.parseLong(m.group(1)), unit);
    } catch (ArithmeticException | NumberFormatException e) {
      throw new IllegalArgumentException("'" + text + "' is too large", e);
    }
  }

  /**
   * Returns the duration {@code text} means.
   *
   * @throws IllegalArgumentException if it is not a duration
   */
  static Duration parseDuration(String text) {
    String t = text.strip().toLowerCase(Locale.ROOT);
    Matcher m = DURATION.matcher(t);
    if (m.matches()) {
      long n = Long.parseLong(m.group(1));
      return switch (m.group(2)) {
        case "ms" -> Duration.ofMillis(n);
        case "s" -> Duration.ofSeconds(n);
        case "m", "min" -> Duration.ofMinutes(n);
        default -> Duration.ofHours(n);
      };
    }
    if (t.startsWith("p")) {
      try {
        return Duration.parse(text.strip());
      } catch (RuntimeException e) {
        // falls through to the message below
      }
    }
    throw new IllegalArgumentException("'" + text + "' is not a duration (examples: 200ms, 5s,"
        + " 10m, 1h)");
  }

  /** Returns a duration as the options spell it: {@code 10m}, {@code 3s}, {@code 250ms}. */
  static String formatDuration(java.time.Duration d) {
    long ms = d.toMillis();
    if (ms % 3_600_000 == 0 && ms > 0) {
      return ms / 3_600_000 + "h";
    }
    if (ms % 60_000 == 0 && ms > 0) {
      return ms / 60_000 + "m";
    }
    if (ms % 1000 == 0) {
      return ms / 1000 + "s";
    }
    return ms + "ms";
  }

  /** Returns {@code bytes} with a binary unit, for messages: {@code 64 KiB}. */
  static String formatBytes(long bytes) {
    String[] units = {"B", "KiB", "MiB", "GiB", "TiB"};
    double v = bytes;
    int u = 0;
    while (Math.abs(v) >= 1024 && u < units.length - 1) {
      v /= 1024;
      u++;
    }
    return u == 0 ? bytes + " B" : String.format(Locale.ROOT, "%.1f %s", v, units[u]);
  }

  /** The picocli converter of byte sizes. */
  static final class BytesConverter implements ITypeConverter<Long> {
    /** Creates the converter; picocli calls it. */
    BytesConverter() {}

    @Override
    public Long convert(String value) {
      try {
        return parseBytes(value);
      } catch (IllegalArgumentException e) {
        throw new TypeConversionException(e.getMessage());
      }
    }
  }

  /** The picocli converter of durations. */
  static final class DurationConverter implements ITypeConverter<Duration> {
    /** Creates the converter; picocli calls it. */
    DurationConverter() {}

    @Override
    public Duration convert(String value) {
      try {
        return parseDuration(value);
      } catch (IllegalArgumentException e) {
        throw new TypeConversionException(e.getMessage());
      }
    }
  }
}
