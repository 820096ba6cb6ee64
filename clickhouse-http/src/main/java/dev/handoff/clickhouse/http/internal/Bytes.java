package dev.handoff.clickhouse.http.internal;

/** Little-endian and VarUInt reads over a byte array, with the position in a one-element array. */
final class Bytes {
  private Bytes() {}

  /**
   * Reads a VarUInt at {@code pos[0]} and advances it; returns {@code -1} when the bytes end
   * before the number does or it is longer than 10 bytes.
   */
  static long varUInt(byte[] data, int[] pos, int end) {
    long value = 0;
    for (int shift = 0; shift < 70; shift += 7) {
      if (pos[0] >= end) {
        return -1;
      }
      int b = data[pos[0]++] & 0xFF;
      value |= (long) (b & 0x7F) << shift;
      if ((b & 0x80) == 0) {
        return value;
      }
    }
    return -1;
  }

  /** Reads a little-endian UInt64 at {@code at}. */
  static long longLE(byte[] data, int at) {
    long v = 0;
    for (int i = 7; i >= 0; i--) {
      v = (v << 8) | (data[at + i] & 0xFF);
    }
    return v;
  }

  /** Reads an unsigned little-endian integer of {@code width} (1, 2, 4 or 8) bytes at {@code at}. */
  static long uintLE(byte[] data, int at, int width) {
    long v = 0;
    for (int i = width - 1; i >= 0; i--) {
      v = (v << 8) | (data[at + i] & 0xFF);
    }
    return v;
  }
}
