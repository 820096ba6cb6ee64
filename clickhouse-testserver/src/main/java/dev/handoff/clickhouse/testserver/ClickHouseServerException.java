package dev.handoff.clickhouse.testserver;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A failure of the test server: either ClickHouse answered a request with an HTTP status other
 * than 200 ({@link #httpStatus()} and {@link #serverMessage()} tell what it said), or the server
 * could not be started, reached or stopped ({@link #httpStatus()} is {@code -1}).
 */
public final class ClickHouseServerException extends RuntimeException {
  private static final long serialVersionUID = 1L;
  private static final Pattern CODE = Pattern.compile("^Code: (\\d+)");
  private static final int MAX_SQL_IN_MESSAGE = 300;

  private final int httpStatus;
  private final String serverMessage;

  /** ClickHouse answered {@code sql} with {@code httpStatus} and the body {@code serverMessage}. */
  ClickHouseServerException(int httpStatus, String serverMessage, String sql) {
    super("HTTP " + httpStatus + " from ClickHouse for [" + abbreviate(sql) + "]: "
        + serverMessage.strip());
    this.httpStatus = httpStatus;
    this.serverMessage = serverMessage;
  }

  /** The harness itself failed (start, stop, or a request that got no HTTP answer). */
  ClickHouseServerException(String message, Throwable cause) {
    super(message, cause);
    this.httpStatus = -1;
    this.serverMessage = "";
  }

  /** The harness itself failed. */
  ClickHouseServerException(String message) {
    this(message, null);
  }

  /** The HTTP status ClickHouse answered with, or {@code -1} if there was no HTTP answer. */
  public int httpStatus() {
    return httpStatus;
  }

  /**
   * The response body ClickHouse sent with the error, as it sent it (18.16 writes {@code "Code:
   * 62, e.displayText() = DB::Exception: ..."}); empty if there was no HTTP answer.
   */
  public String serverMessage() {
    return serverMessage;
  }

  /**
   * The ClickHouse error code at the start of {@link #serverMessage()} ({@code Code: 62} gives
   * 62), or {@code -1} if the message has none.
   */
  public int errorCode() {
    Matcher m = CODE.matcher(serverMessage.strip());
    return m.find() ? Integer.parseInt(m.group(1)) : -1;
  }

  private static String abbreviate(String sql) {
    String oneLine = sql.strip().replaceAll("\\s+", " ");
    return oneLine.length() <= MAX_SQL_IN_MESSAGE
        ? oneLine
        : oneLine.substring(0, MAX_SQL_IN_MESSAGE) + "...";
  }
}
