package dev.handoff.clickhouse.http.internal;

import java.util.Map;

/**
 * ClickHouse server error codes that the writer names and classifies, and the classification
 * itself: a code known to be retryable is transient, a code known to mean bad data, a bad query
 * or bad credentials is permanent, and any other code follows the HTTP status (5xx transient, 4xx
 * permanent). The numbers are those of the server's error code table (stable across versions).
 */
public final class ErrorCodes {
  /** Codes after which the same insert may succeed later: load, limits, network, replication. */
  private static final Map<Integer, String> TRANSIENT = Map.ofEntries(
      Map.entry(23, "CANNOT_READ_FROM_ISTREAM"),
      Map.entry(95, "CANNOT_READ_FROM_SOCKET"),
      Map.entry(96, "CANNOT_WRITE_TO_SOCKET"),
      Map.entry(159, "TIMEOUT_EXCEEDED"),
      Map.entry(160, "TOO_SLOW"),
      Map.entry(164, "READONLY"),
      Map.entry(173, "CANNOT_ALLOCATE_MEMORY"),
      Map.entry(198, "DNS_ERROR"),
      Map.entry(201, "QUOTA_EXPIRED"),
      Map.entry(202, "TOO_MANY_SIMULTANEOUS_QUERIES"),
      Map.entry(203, "NO_FREE_CONNECTION"),
      Map.entry(209, "SOCKET_TIMEOUT"),
      Map.entry(210, "NETWORK_ERROR"),
      Map.entry(218, "TABLE_IS_DROPPED"),
      Map.entry(225, "NO_ZOOKEEPER"),
      Map.entry(236, "ABORTED"),
      Map.entry(241, "MEMORY_LIMIT_EXCEEDED"),
      Map.entry(242, "TABLE_IS_READ_ONLY"),
      Map.entry(243, "NOT_ENOUGH_SPACE"),
      Map.entry(244, "UNEXPECTED_ZOOKEEPER_ERROR"),
      Map.entry(252, "TOO_MANY_PARTS"),
      Map.entry(254, "NO_ACTIVE_REPLICAS"),
      Map.entry(265, "NO_AVAILABLE_REPLICA"),
      Map.entry(279, "ALL_CONNECTION_TRIES_FAILED"),
      Map.entry(285, "TOO_FEW_LIVE_REPLICAS"),
      Map.entry(286, "UNSATISFIED_QUORUM_FOR_PREVIOUS_WRITE"),
      Map.entry(289, "REPLICA_IS_NOT_IN_QUORUM"),
      Map.entry(319, "UNKNOWN_STATUS_OF_INSERT"),
      Map.entry(335, "BARRIER_TIMEOUT"),
      Map.entry(364, "RECEIVED_ERROR_TOO_MANY_REQUESTS"),
      Map.entry(373, "SESSION_IS_LOCKED"),
      Map.entry(384, "PART_IS_TEMPORARILY_LOCKED"),
      Map.entry(394, "QUERY_WAS_CANCELLED"),
      Map.entry(410, "EXTERNAL_SERVER_IS_NOT_RESPONDING"),
      Map.entry(415, "ALL_REPLICAS_LOST"),
      Map.entry(425, "SYSTEM_ERROR"),
      Map.entry(439, "CANNOT_SCHEDULE_TASK"),
      Map.entry(999, "KEEPER_EXCEPTION"),
      Map.entry(1000, "POCO_EXCEPTION"));

  /** Codes after which the same insert fails again: its data, the query, the table, the user. */
  private static final Map<Integer, String> PERMANENT = Map.ofEntries(
      Map.entry(1, "UNSUPPORTED_METHOD"),
      Map.entry(3, "UNEXPECTED_END_OF_FILE"),
      Map.entry(6, "CANNOT_PARSE_TEXT"),
      Map.entry(7, "INCORRECT_NUMBER_OF_COLUMNS"),
      Map.entry(8, "THERE_IS_NO_COLUMN"),
      Map.entry(9, "SIZES_OF_COLUMNS_DOESNT_MATCH"),
      Map.entry(10, "NOT_FOUND_COLUMN_IN_BLOCK"),
      Map.entry(15, "DUPLICATE_COLUMN"),
      Map.entry(16, "NO_SUCH_COLUMN_IN_TABLE"),
      Map.entry(19, "SIZE_OF_FIXED_STRING_DOESNT_MATCH"),
      Map.entry(20, "NUMBER_OF_COLUMNS_DOESNT_MATCH"),
      Map.entry(25, "CANNOT_PARSE_ESCAPE_SEQUENCE"),
      Map.entry(26, "CANNOT_PARSE_QUOTED_STRING"),
      Map.entry(27, "CANNOT_PARSE_INPUT_ASSERTION_FAILED"),
      Map.entry(32, "ATTEMPT_TO_READ_AFTER_EOF"),
      Map.entry(33, "CANNOT_READ_ALL_DATA"),
      Map.entry(36, "BAD_ARGUMENTS"),
      Map.entry(38, "CANNOT_PARSE_DATE"),
      Map.entry(41, "CANNOT_PARSE_DATETIME"),
      Map.entry(43, "ILLEGAL_TYPE_OF_ARGUMENT"),
      Map.entry(44, "ILLEGAL_COLUMN"),
      Map.entry(46, "UNKNOWN_FUNCTION"),
      Map.entry(47, "UNKNOWN_IDENTIFIER"),
      Map.entry(48, "NOT_IMPLEMENTED"),
      Map.entry(49, "LOGICAL_ERROR"),
      Map.entry(50, "UNKNOWN_TYPE"),
      Map.entry(53, "TYPE_MISMATCH"),
      Map.entry(60, "UNKNOWN_TABLE"),
      Map.entry(62, "SYNTAX_ERROR"),
      Map.entry(69, "ARGUMENT_OUT_OF_BOUND"),
      Map.entry(70, "CANNOT_CONVERT_TYPE"),
      Map.entry(72, "CANNOT_PARSE_NUMBER"),
      Map.entry(73, "UNKNOWN_FORMAT"),
      Map.entry(81, "UNKNOWN_DATABASE"),
      Map.entry(89, "UNKNOWN_COMPRESSION_METHOD"),
      Map.entry(108, "NO_DATA_TO_INSERT"),
      Map.entry(115, "UNKNOWN_SETTING"),
      Map.entry(117, "INCORRECT_DATA"),
      Map.entry(128, "TOO_LARGE_ARRAY_SIZE"),
      Map.entry(130, "CANNOT_READ_ARRAY_FROM_TEXT"),
      Map.entry(131, "TOO_LARGE_STRING_SIZE"),
      Map.entry(169, "BAD_TYPE_OF_FIELD"),
      Map.entry(190, "SIZES_OF_ARRAYS_DOESNT_MATCH"),
      Map.entry(192, "UNKNOWN_USER"),
      Map.entry(193, "WRONG_PASSWORD"),
      Map.entry(194, "REQUIRED_PASSWORD"),
      Map.entry(195, "IP_ADDRESS_NOT_ALLOWED"),
      Map.entry(291, "DATABASE_ACCESS_DENIED"),
      Map.entry(321, "VALUE_IS_OUT_OF_RANGE_OF_DATA_TYPE"),
      Map.entry(349, "CANNOT_INSERT_NULL_IN_ORDINARY_COLUMN"),
      Map.entry(354, "ZLIB_INFLATE_FAILED"),
      Map.entry(376, "CANNOT_PARSE_UUID"),
      Map.entry(377, "ILLEGAL_SYNTAX_FOR_DATA_TYPE"),
      Map.entry(395, "FUNCTION_THROW_IF_VALUE_IS_NON_ZERO"),
      Map.entry(407, "DECIMAL_OVERFLOW"),
      Map.entry(441, "CANNOT_PARSE_DOMAIN_VALUE_FROM_STRING"),
      Map.entry(497, "ACCESS_DENIED"),
      Map.entry(516, "AUTHENTICATION_FAILED"));

  private ErrorCodes() {}

  /** Returns the name of {@code code} when this table knows it, else {@code null}. */
  public static String name(int code) {
    String name = TRANSIENT.get(code);
    return name != null ? name : PERMANENT.get(code);
  }

  /**
   * Returns whether a failure with server code {@code code} (0 when none was parsed) and HTTP
   * status {@code status} (0 when no answer came) may succeed when retried.
   */
  public static boolean isTransient(int status, int code) {
    if (TRANSIENT.containsKey(code)) {
      return true;
    }
    if (PERMANENT.containsKey(code)) {
      return false;
    }
    if (status == 408 || status == 429) {
      return true;
    }
    return status == 0 || status >= 500;
  }

  /** Returns every code classified as transient, with its name. */
  public static Map<Integer, String> transientCodes() {
    return TRANSIENT;
  }

  /** Returns every code classified as permanent, with its name. */
  public static Map<Integer, String> permanentCodes() {
    return PERMANENT;
  }
}
