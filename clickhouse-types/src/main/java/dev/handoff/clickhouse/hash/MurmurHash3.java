package dev.handoff.clickhouse.hash;

import static dev.handoff.clickhouse.hash.CityHash.fetch64;

/**
 * MurmurHash3_x64_128 with seed 0, folded to 64 bits by XOR of its halves, as ClickHouse's
 * {@code murmurHash3_64} computes it.
 */
final class MurmurHash3 {
  private static final long C1 = 0x87c37b91114253d5L;
  private static final long C2 = 0x4cf5ad432745937fL;

  private MurmurHash3() {}

  static long hash64(byte[] s, int off, int len) {
    long h1 = 0;
    long h2 = 0;
    int blocks = len >>> 4;
    for (int i = 0; i < blocks; i++) {
      int p = off + (i << 4);
      long k1 = fetch64(s, p);
      long k2 = fetch64(s, p + 8);
      k1 *= C1; k1 = Long.rotateLeft(k1, 31); k1 *= C2; h1 ^= k1;
      h1 = Long.rotateLeft(h1, 27); h1 += h2; h1 = h1 * 5 + 0x52dce729;
      k2 *= C2; k2 = Long.rotateLeft(k2, 33); k2 *= C1; h2 ^= k2;
      h2 = Long.rotateLeft(h2, 31); h2 += h1; h2 = h2 * 5 + 0x38495ab5;
    }
    int tail = off + (blocks << 4);
    int rest = len & 15;
    long k1 = 0;
    long k2 = 0;
    for (int i = rest - 1; i >= 8; i--) {
      k2 ^= (s[tail + i] & 0xffL) << (8 * (i - 8));
    }
    if (rest > 8) {
      k2 *= C2; k2 = Long.rotateLeft(k2, 33); k2 *= C1; h2 ^= k2;
    }
    for (int i = Math.min(rest, 8) - 1; i >= 0; i--) {
      k1 ^= (s[tail + i] & 0xffL) << (8 * i);
    }
    if (rest > 0) {
      k1 *= C1; k1 = Long.rotateLeft(k1, 31); k1 *= C2; h1 ^= k1;
    }
    h1 ^= len;
    h2 ^= len;
    h1 += h2;
    h2 += h1;
    h1 = fmix(h1);
    h2 = fmix(h2);
    h1 += h2;
    h2 += h1;
    return h1 ^ h2;
  }

  private static long fmix(long k) {
    k ^= k >>> 33;
    k *= 0xff51afd7ed558ccdL;
    k ^= k >>> 33;
    k *= 0xc4ceb9fe1a85ec53L;
    k ^= k >>> 33;
    return k;
  }
}
