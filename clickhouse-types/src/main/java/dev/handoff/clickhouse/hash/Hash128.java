package dev.handoff.clickhouse.hash;

/**
 * A 128-bit hash as two 64-bit halves, in the order CityHash's {@code uint128} holds them.
 *
 * @param low the low 64 bits ({@code Uint128Low64}, written first in a compressed block's checksum)
 * @param high the high 64 bits ({@code Uint128High64}, written second)
 */
public record Hash128(long low, long high) {
  /** Returns the halves as 32 hexadecimal digits, the high half first. */
  @Override
  public String toString() {
    return String.format("%016x%016x", high, low);
  }
}
