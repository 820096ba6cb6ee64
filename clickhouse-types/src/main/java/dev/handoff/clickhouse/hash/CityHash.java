package dev.handoff.clickhouse.hash;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Objects;

/**
 * CityHash version 1.0.2, the version ClickHouse bundles for {@code cityHash64} and for the
 * checksums of its compressed blocks.
 *
 * <p>Later CityHash releases (1.0.3 and on) changed the algorithm, so their values differ from
 * the ones here and from the server's. Every method reads bytes little-endian, as the server does
 * on x86-64 and ARM, allocates nothing and is safe to call from any thread.
 */
public final class CityHash {
  private static final VarHandle LONGS =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  private static final VarHandle INTS =
      MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);

  private static final long K0 = 0xc3a5c85c97cb3127L;
  private static final long K1 = 0xb492b66fbe98f273L;
  private static final long K2 = 0x9ae16a3b2f90404fL;
  private static final long K3 = 0xc949d7c7509e6557L;
  private static final long K_MUL = 0x9ddfea08eb382d69L;

  private CityHash() {}

  /**
   * Returns CityHash64 (v1.0.2) of all of {@code bytes}: what {@code cityHash64(s)} returns on the
   * server for a {@code String} with these bytes, as a signed {@code long}.
   */
  public static long hash64(byte[] bytes) {
    return hash64(bytes, 0, bytes.length);
  }

  /**
   * Returns CityHash64 (v1.0.2) of {@code length} bytes of {@code bytes} from {@code offset}.
   *
   * @throws IndexOutOfBoundsException if the range is not within {@code bytes}
   */
  public static long hash64(byte[] bytes, int offset, int length) {
    Objects.checkFromIndexSize(offset, length, bytes.length);
    byte[] s = bytes;
    int len = length;
    if (len <= 32) {
      return len <= 16 ? hashLen0to16(s, offset, len) : hashLen17to32(s, offset, len);
    } else if (len <= 64) {
      return hashLen33to64(s, offset, len);
    }
    int end = offset + len;
    long x = fetch64(s, offset);
    long y = fetch64(s, end - 16) ^ K1;
    long z = fetch64(s, end - 56) ^ K0;
    // v and w, the two 128-bit halves of the state, are kept as four longs.
    int p = end - 64;
    long a = len + fetch64(s, p);
    long b = Long.rotateRight(y + a + fetch64(s, p + 24), 21);
    long c = a;
    a += fetch64(s, p + 8) + fetch64(s, p + 16);
    b += Long.rotateRight(a, 44);
    long v1 = a + fetch64(s, p + 24);
    long v2 = b + c;
    p = end - 32;
    a = len * K1 + fetch64(s, p);
    b = Long.rotateRight(K0 + a + fetch64(s, p + 24), 21);
    c = a;
    a += fetch64(s, p + 8) + fetch64(s, p + 16);
    b += Long.rotateRight(a, 44);
    long w1 = a + fetch64(s, p + 24);
    long w2 = b + c;
    z += shiftMix(v2) * K1;
    x = Long.rotateRight(z + x, 39) * K1;
    y = Long.rotateRight(y, 33) * K1;

    p = offset;
    int remaining = (len - 1) & ~63;
    do {
      x = Long.rotateRight(x + y + v1 + fetch64(s, p + 16), 37) * K1;
      y = Long.rotateRight(y + v2 + fetch64(s, p + 48), 42) * K1;
      x ^= w2;
      y ^= v1;
      z = Long.rotateRight(z ^ w1, 33);
      a = v2 * K1 + fetch64(s, p);
      b = Long.rotateRight(x + w1 + a + fetch64(s, p + 24), 21);
      c = a;
      a += fetch64(s, p + 8) + fetch64(s, p + 16);
      b += Long.rotateRight(a, 44);
      v1 = a + fetch64(s, p + 24);
      v2 = b + c;
      a = z + w2 + fetch64(s, p + 32);
      b = Long.rotateRight(y + a + fetch64(s, p + 56), 21);
      c = a;
      a += fetch64(s, p + 40) + fetch64(s, p + 48);
      b += Long.rotateRight(a, 44);
      w1 = a + fetch64(s, p + 56);
      w2 = b + c;
      long swap = z;
      z = x;
      x = swap;
      p += 64;
      remaining -= 64;
    } while (remaining != 0);
    return hashLen16(hashLen16(v1, w1) + shiftMix(y) * K1 + z, hashLen16(v2, w2) + x);
  }

  /**
   * Returns CityHash128 (v1.0.2) of {@code length} bytes of {@code bytes} from {@code offset}, as
   * ClickHouse computes the checksum of a compressed block.
   *
   * @throws IndexOutOfBoundsException if the range is not within {@code bytes}
   */
  public static Hash128 hash128(byte[] bytes, int offset, int length) {
    byte[] out = new byte[16];
    hash128(bytes, offset, length, out, 0);
    return new Hash128((long) LONGS.get(out, 0), (long) LONGS.get(out, 8));
  }

  /**
   * Writes CityHash128 (v1.0.2) of {@code length} bytes of {@code bytes} from {@code offset} to
   * {@code target} at {@code targetOffset} the way ClickHouse lays out a compressed block's
   * checksum: the low 64 bits, then the high 64 bits, each little-endian, 16 bytes in all.
   * Allocates nothing. The target may overlap the input only after the whole input is read, that
   * is, the method reads every input byte before it writes the first target byte.
   *
   * @throws IndexOutOfBoundsException if either range is not within its array
   */
  public static void hash128(
      byte[] bytes, int offset, int length, byte[] target, int targetOffset) {
    Objects.checkFromIndexSize(offset, length, bytes.length);
    Objects.checkFromIndexSize(targetOffset, 16, target.length);
    if (length >= 16) {
      withSeed(bytes, offset + 16, length - 16,
          fetch64(bytes, offset) ^ K3, fetch64(bytes, offset + 8), target, targetOffset);
    } else if (length >= 8) {
      withSeed(bytes, offset, 0, fetch64(bytes, offset) ^ (length * K0),
          fetch64(bytes, offset + length - 8) ^ K1, target, targetOffset);
    } else {
      withSeed(bytes, offset, length, K0, K1, target, targetOffset);
    }
  }

  /**
   * Returns {@code Hash128to64} of CityHash, the 128-to-64-bit mix ClickHouse's {@code cityHash64}
   * uses to combine the hashes of several arguments.
   */
  public static long hash128to64(long low, long high) {
    long a = (low ^ high) * K_MUL;
    a ^= a >>> 47;
    long b = (high ^ a) * K_MUL;
    b ^= b >>> 47;
    return b * K_MUL;
  }

  /* ---------------- CityHash64 by length ---------------- */

  private static long hashLen16(long u, long v) {
    return hash128to64(u, v);
  }

  private static long shiftMix(long value) {
    return value ^ (value >>> 47);
  }

  private static long hashLen0to16(byte[] s, int off, int len) {
    if (len > 8) {
      long a = fetch64(s, off);
      long b = fetch64(s, off + len - 8);
      // RotateByAtLeast1(b + len, len): len is 9..16, so the rotation is a plain one.
      return hashLen16(a, Long.rotateRight(b + len, len)) ^ b;
    }
    if (len >= 4) {
      long a = fetch32(s, off);
      return hashLen16(len + (a << 3), fetch32(s, off + len - 4));
    }
    if (len > 0) {
      int a = s[off] & 0xff;
      int b = s[off + (len >>> 1)] & 0xff;
      int c = s[off + len - 1] & 0xff;
      int y = a + (b << 8);
      int z = len + (c << 2);
      // uint32 operands widen to uint64 before the multiplications by k2 and k3.
      return shiftMix((y & 0xffffffffL) * K2 ^ (z & 0xffffffffL) * K3) * K2;
    }
    return K2;
  }

  private static long hashLen17to32(byte[] s, int off, int len) {
    long a = fetch64(s, off) * K1;
    long b = fetch64(s, off + 8);
    long c = fetch64(s, off + len - 8) * K2;
    long d = fetch64(s, off + len - 16) * K0;
    return hashLen16(Long.rotateRight(a - b, 43) + Long.rotateRight(c, 30) + d,
        a + Long.rotateRight(b ^ K3, 20) - c + len);
  }

  private static long hashLen33to64(byte[] s, int off, int len) {
    int end = off + len;
    long z = fetch64(s, off + 24);
    long a = fetch64(s, off) + (len + fetch64(s, end - 16)) * K0;
    long b = Long.rotateRight(a + z, 52);
    long c = Long.rotateRight(a, 37);
    a += fetch64(s, off + 8);
    c += Long.rotateRight(a, 7);
    a += fetch64(s, off + 16);
    long vf = a + z;
    long vs = b + Long.rotateRight(a, 31) + c;
    a = fetch64(s, off + 16) + fetch64(s, end - 32);
    z = fetch64(s, end - 8);
    b = Long.rotateRight(a + z, 52);
    c = Long.rotateRight(a, 37);
    a += fetch64(s, end - 24);
    c += Long.rotateRight(a, 7);
    a += fetch64(s, end - 16);
    long wf = a + z;
    long ws = b + Long.rotateRight(a, 31) + c;
    long r = shiftMix((vf + ws) * K2 + (wf + vs) * K0);
    return shiftMix(r * K0 + vs) * K2;
  }

  /* ---------------- CityHash128 ---------------- */

  /** CityHash128WithSeed: writes low, then high, little-endian to {@code t} at {@code to}. */
  private static void withSeed(
      byte[] s, int off, int len, long seedLow, long seedHigh, byte[] t, int to) {
    if (len < 128) {
      cityMurmur(s, off, len, seedLow, seedHigh, t, to);
      return;
    }
    long x = seedLow;
    long y = seedHigh;
    long z = len * K1;
    long v1 = Long.rotateRight(y ^ K1, 49) * K1 + fetch64(s, off);
    long v2 = Long.rotateRight(v1, 42) * K1 + fetch64(s, off + 8);
    long w1 = Long.rotateRight(y + z, 35) * K1 + x;
    long w2 = Long.rotateRight(x + fetch64(s, off + 88), 53) * K1;
    int p = off;
    int remaining = len;
    do {
      for (int half = 0; half < 2; half++) {
        x = Long.rotateRight(x + y + v1 + fetch64(s, p + 16), 37) * K1;
        y = Long.rotateRight(y + v2 + fetch64(s, p + 48), 42) * K1;
        x ^= w2;
        y ^= v1;
        z = Long.rotateRight(z ^ w1, 33);
        long a = v2 * K1 + fetch64(s, p);
        long b = Long.rotateRight(x + w1 + a + fetch64(s, p + 24), 21);
        long c = a;
        a += fetch64(s, p + 8) + fetch64(s, p + 16);
        b += Long.rotateRight(a, 44);
        v1 = a + fetch64(s, p + 24);
        v2 = b + c;
        a = z + w2 + fetch64(s, p + 32);
        b = Long.rotateRight(y + a + fetch64(s, p + 56), 21);
        c = a;
        a += fetch64(s, p + 40) + fetch64(s, p + 48);
        b += Long.rotateRight(a, 44);
        w1 = a + fetch64(s, p + 56);
        w2 = b + c;
        long swap = z;
        z = x;
        x = swap;
        p += 64;
      }
      remaining -= 128;
    } while (remaining >= 128);
    y += Long.rotateRight(w1, 37) * K0 + z;
    x += Long.rotateRight(v1 + z, 49) * K0;
    // Up to four 32-byte chunks from the end of what is left.
    for (int tailDone = 0; tailDone < remaining; ) {
      tailDone += 32;
      int q = p + remaining - tailDone;
      y = Long.rotateRight(y - x, 42) * K0 + v2;
      w1 += fetch64(s, q + 16);
      x = Long.rotateRight(x, 49) * K0 + w1;
      w1 += v1;
      long a = v1 + fetch64(s, q);
      long b = Long.rotateRight(v2 + a + fetch64(s, q + 24), 21);
      long c = a;
      a += fetch64(s, q + 8) + fetch64(s, q + 16);
      b += Long.rotateRight(a, 44);
      v1 = a + fetch64(s, q + 24);
      v2 = b + c;
    }
    x = hashLen16(x, v1);
    y = hashLen16(y, w1);
    LONGS.set(t, to, hashLen16(x + v2, w2) + y);
    LONGS.set(t, to + 8, hashLen16(x + w2, y + v2));
  }

  /** CityMurmur, for inputs shorter than 128 bytes. */
  private static void cityMurmur(
      byte[] s, int off, int len, long seedLow, long seedHigh, byte[] t, int to) {
    long a = seedLow;
    long b = seedHigh;
    long c;
    long d;
    int l = len - 16;
    if (l <= 0) {
      a = shiftMix(a * K1) * K1;
      c = b * K1 + hashLen0to16(s, off, len);
      d = shiftMix(a + (len >= 8 ? fetch64(s, off) : c));
    } else {
      c = hashLen16(fetch64(s, off + len - 8) + K1, a);
      d = hashLen16(b + len, c + fetch64(s, off + len - 16));
      a += d;
      int p = off;
      do {
        a ^= shiftMix(fetch64(s, p) * K1) * K1;
        a *= K1;
        b ^= a;
        c ^= shiftMix(fetch64(s, p + 8) * K1) * K1;
        c *= K1;
        d ^= c;
        p += 16;
        l -= 16;
      } while (l > 0);
    }
    a = hashLen16(a, c);
    b = hashLen16(d, b);
    LONGS.set(t, to, a ^ b);
    LONGS.set(t, to + 8, hashLen16(b, a));
  }

  static long fetch64(byte[] s, int index) {
    return (long) LONGS.get(s, index);
  }

  static long fetch32(byte[] s, int index) {
    return (int) INTS.get(s, index) & 0xffffffffL;
  }
}
