package dev.handoff.clickhouse.hash;

import static dev.handoff.clickhouse.hash.CityHash.fetch64;

/** SipHash-2-4 with the zero key, as ClickHouse's {@code sipHash64} computes it. */
final class SipHash {
  private SipHash() {}

  static long hash64(byte[] s, int off, int len) {
    long v0 = 0x736f6d6570736575L;
    long v1 = 0x646f72616e646f6dL;
    long v2 = 0x6c7967656e657261L;
    long v3 = 0x7465646279746573L;
    int end = off + len;
    int p = off;
    for (; p + 8 <= end; p += 8) {
      long m = fetch64(s, p);
      v3 ^= m;
      for (int i = 0; i < 2; i++) {
        v0 += v1; v1 = Long.rotateLeft(v1, 13); v1 ^= v0; v0 = Long.rotateLeft(v0, 32);
        v2 += v3; v3 = Long.rotateLeft(v3, 16); v3 ^= v2;
        v0 += v3; v3 = Long.rotateLeft(v3, 21); v3 ^= v0;
        v2 += v1; v1 = Long.rotateLeft(v1, 17); v1 ^= v2; v2 = Long.rotateLeft(v2, 32);
      }
      v0 ^= m;
    }
    // The last word: the remaining bytes, and the length's low byte in the top byte.
    long last = (long) len << 56;
    for (int i = 0; p + i < end; i++) {
      last |= (s[p + i] & 0xffL) << (8 * i);
    }
    v3 ^= last;
    for (int i = 0; i < 2; i++) {
      v0 += v1; v1 = Long.rotateLeft(v1, 13); v1 ^= v0; v0 = Long.rotateLeft(v0, 32);
      v2 += v3; v3 = Long.rotateLeft(v3, 16); v3 ^= v2;
      v0 += v3; v3 = Long.rotateLeft(v3, 21); v3 ^= v0;
      v2 += v1; v1 = Long.rotateLeft(v1, 17); v1 ^= v2; v2 = Long.rotateLeft(v2, 32);
    }
    v0 ^= last;
    v2 ^= 0xff;
    for (int i = 0; i < 4; i++) {
      v0 += v1; v1 = Long.rotateLeft(v1, 13); v1 ^= v0; v0 = Long.rotateLeft(v0, 32);
      v2 += v3; v3 = Long.rotateLeft(v3, 16); v3 ^= v2;
      v0 += v3; v3 = Long.rotateLeft(v3, 21); v3 ^= v0;
      v2 += v1; v1 = Long.rotateLeft(v1, 17); v1 ^= v2; v2 = Long.rotateLeft(v2, 32);
    }
    return v0 ^ v1 ^ v2 ^ v3;
  }
}
