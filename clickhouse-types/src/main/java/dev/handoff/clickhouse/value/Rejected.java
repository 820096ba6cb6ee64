package dev.handoff.clickhouse.value;

/**
 * Why a value cannot go into a column, thrown by this package's helpers and turned into a {@code
 * DATA} error by the conversion method of the type family that caught it (the one behind each
 * public {@link Conversions} method); that method knows the column, the type and the value, the
 * helpers only the reason.
 *
 * <p>It records no stack trace: it never leaves the package and is only made for bad input.
 */
final class Rejected extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** Creates one; {@code reason} as {@link Conversions#error} takes it. */
  Rejected(String reason) {
    super(reason, null, false, false);
  }
}
