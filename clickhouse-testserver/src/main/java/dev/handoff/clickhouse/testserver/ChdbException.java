package dev.handoff.clickhouse.testserver;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A failure of a {@link ChdbSession}: either the engine refused a query ({@link #engineMessage()}
 * holds its error text, {@code "Code: 47. DB::Exception: ..."}), or the engine could not be found,
 * built, started or reached ({@link #engineMessage()} is empty and the message says why and what to
 * do).
 */
public final class ChdbException extends RuntimeException {
  private static final long serialVersionUID = 1L;
  private static final Pattern CODE = Pattern.compile("^Code: (\\d+)");
  private static final int MAX_SQL_IN_MESSAGE = 300;

  private final String engineMessage;
  private final String sql;

  private ChdbException(String message, Throwable cause, String engineMessage, String sql) {
    super(message, cause);
    this.engineMessage = engineMessage;
    this.sql = sql;
  }

  /** The harness failed: the library is missing, the launcher did not build, the process died. */
  ChdbException(String message, Throwable cause) {
    this(message, cause, "", "");
  }

  /** The harness failed. */
  ChdbException(String message) {
    this(message, null, "", "");
  }

  /** The engine answered {@code sql} with the error {@code engineMessage}. */
  static ChdbException refused(String engineMessage, String sql) {
    return new ChdbException("ClickHouse " + Chdb.ENGINE_VERSION + " (libchdb) refused ["
        + abbreviate(sql) + "]: " + engineMessage.strip(), null, engineMessage, sql);
  }

  /** The engine's error text as it gave it, or empty when the harness itself failed. */
  public String engineMessage() {
    return engineMessage;
  }

  /** The query the engine refused, or empty when the harness itself failed. */
  public String sql() {
    return sql;
  }

  /**
   * The ClickHouse error code at the start of {@link #engineMessage()} ({@code Code: 47} gives 47),
   * or {@code -1} if there is none.
   */
  public int errorCode() {
    Matcher m = CODE.matcher(engineMessage.strip());
    return m.find() ? Integer.parseInt(m.group(1)) : -1;
  }

  private static String abbreviate(String sql) {
    String oneLine = sql.strip().replaceAll("\\s+", " ");
    return oneLine.length() <= MAX_SQL_IN_MESSAGE
        ? oneLine
        : oneLine.substring(0, MAX_SQL_IN_MESSAGE) + "...";
  }
}
