package dev.handoff.clickhouse.hash;

import static dev.handoff.clickhouse.hash.CityHash.fetch32;
import static dev.handoff.clickhouse.hash.CityHash.fetch64;

/** xxHash64 with seed 0, as ClickHouse's {@code xxHash64} computes it. */
final class XxHash64 {
  private static final long P1 = 0x9E3779B185EBCA87L;
  private static final long P2 = 0xC2B2AE3D27D4EB4FL;
  private static final long P3 = 0x165667B19E3779F9L;
  private static final long P4 = 0x85EBCA77C2B2AE63L;
  private static final long P5 = 0x27D4EB2F165667C5L;

  private XxHash64() {}

  static long hash64(byte[] s, int off, int len) {
    int end = off + len;
    int p = off;
    long h;
    if (len >= 32) {
      long v1 = P1 + P2;
      long v2 = P2;
      long v3 = 0;
      long v4 = -P1;
      do {
        v1 = round(v1, fetch64(s, p));
        v2 = round(v2, fetch64(s, p + 8));
        v3 = round(v3, fetch64(s, p + 16));
        v4 = round(v4, fetch64(s, p + 24));
        p += 32;
      } while (p + 32 <= end);
      h = Long.rotateLeft(v1, 1) + Long.rotateLeft(v2, 7) + Long.rotateLeft(v3, 12)
          + Long.rotateLeft(v4, 18);
      h = merge(h, v1);
      h = merge(h, v2);
      h = merge(h, v3);
      h = merge(h, v4);
    } else {
      h = P5;
    }
    h += len;
    for (; p + 8 <= end; p += 8) {
      h ^= round(0, fetch64(s, p));
      h = Long.rotateLeft(h, 27) * P1 + P4;
    }
    if (p + 4 <= end) {
      h ^= fetch32(s, p) * P1;
      h = Long.rotateLeft(h, 23) * P2 + P3;
      p += 4;
    }
    for (; p < end; p++) {
      h ^= (s[p] & 0xffL) * P5;
      h = Long.rotateLeft(h, 11) * P1;
    }
    h ^= h >>> 33;
    h *= P2;
    h ^= h >>> 29;
    h *= P3;
    h ^= h >>> 32;
    return h;
  }

  private static long round(long acc, long input) {
    acc += input * P2;
    acc = Long.rotateLeft(acc, 31);
    return acc * P1;
  }

  private static long merge(long acc, long value) {
    acc ^= round(0, value);
    return acc * P1 + P4;
  }
}
