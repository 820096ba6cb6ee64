package dev.handoff.clickhouse.http;

import dev.handoff.clickhouse.http.internal.ErrorCodes;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * An error reported by a ClickHouse server in an HTTP response body: its numeric code, the code's
 * name when known, and the message.
 *
 * <p>{@link #parse} reads both spellings servers use: the one of 18.x ({@code Code: 60,
 * e.displayText() = DB::Exception: Table x doesn't exist., e.what() = DB::Exception}) and the
 * newer one ({@code Code: 60. DB::Exception: Table x does not exist. (UNKNOWN_TABLE) (version
 * ...)}).
 *
 * @param code the server's error code, {@code > 0}
 * @param name the code's name ({@code UNKNOWN_TABLE}), or {@code null} when neither the response
 *     nor the writer's table names it
 * @param message the message without the {@code DB::Exception:} prefix and the trailing
 *     {@code e.what()} or version notes
 */
public record ServerError(int code, String name, String message) {
  private static final Pattern CODE = Pattern.compile("Code: (\\d{1,9})[,.] ?");
  private static final Pattern DISPLAY = Pattern.compile("^e\\.displayText\\(\\) = ");
  private static final Pattern WHAT = Pattern.compile(",? ?e\\.what\\(\\) = [\\w:]+\\s*$");
  private static final Pattern VERSION =
      Pattern.compile("\\s*\\(version .*\\)\\s*$", Pattern.DOTALL);
  private static final Pattern NAME = Pattern.compile("\\s*\\(([A-Z][A-Z0-9_]+)\\)\\s*$");
  private static final Pattern PREFIX = Pattern.compile("^(DB::)?Exception: ");
  private static final int MAX_MESSAGE = 4096;

  /**
   * Parses a response body. Returns empty when the body holds no {@code Code: N} (a proxy's page,
   * say).
   */
  public static Optional<ServerError> parse(String body) {
    if (body == null) {
      return Optional.empty();
    }
    Matcher m = CODE.matcher(body);
    if (!m.find()) {
      return Optional.empty();
    }
    int code = Integer.parseInt(m.group(1));
    if (code <= 0) {
      return Optional.empty();
    }
    String rest = body.substring(m.end()).strip();
    rest = DISPLAY.matcher(rest).replaceFirst("");
    rest = WHAT.matcher(rest).replaceFirst("");
    rest = VERSION.matcher(rest).replaceFirst("");
    String name = null;
    Matcher n = NAME.matcher(rest);
    if (n.find()) {
      name = n.group(1);
      rest = rest.substring(0, n.start());
    }
    rest = PREFIX.matcher(rest.strip()).replaceFirst("").strip();
    if (rest.length() > MAX_MESSAGE) {
      rest = rest.substring(0, MAX_MESSAGE) + "...";
    }
    return Optional.of(new ServerError(code, name != null ? name : ErrorCodes.name(code), rest));
  }

  /**
   * Returns whether a failure with this error and HTTP status {@code status} is worth retrying:
   * true for codes of load, limits, network, replication and read-only states, false for codes of
   * bad data, bad queries, unknown tables or columns and authentication, and for any other code
   * true exactly when the status is 5xx (or 408, 429).
   */
  public boolean isTransient(int status) {
    return ErrorCodes.isTransient(status, code);
  }

  /** Returns {@code Code: N (NAME): message}. */
  @Override
  public String toString() {
    return "Code: " + code + (name != null ? " (" + name + ")" : "") + ": " + message;
  }
}
