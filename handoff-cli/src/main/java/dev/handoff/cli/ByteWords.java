package dev.handoff.cli;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * Reads of a {@code byte[]} 8 bytes at a time, for the scanners of the parser threads: under C1
 * (the launcher's compiler for {@code ingest}) a byte-by-byte loop costs about 0.7-0.85 ns a byte,
 * one word read 0.29 ns for 8 (docs/benchmarks.md, issue 16, "How it got here").
 *
 * <p>The tests mark bytes in the high bit of each byte of a word: a zero byte of {@code x ^ c}
 * marks a byte {@code c} ({@code (y - ONES) & ~y & HIGHS}), and a borrow only ever marks bytes
 * above a marked one, so the lowest mark is the first such byte ({@link #firstMarked}).
 */
final class ByteWords {
  private ByteWords() {}

  /** Reads 8 bytes of a {@code byte[]} as a little-endian long. */
  static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class,
      ByteOrder.LITTLE_ENDIAN);
  /** 0x01 in every byte. */
  static final long ONES = 0x0101010101010101L;
  /** 0x80 in every byte. */
  static final long HIGHS = 0x8080808080808080L;

  /**
   * The index (0 to 7) of the lowest byte of {@code marks} (non-zero, only high bits set) that is
   * marked: {@code marks & -marks} is {@code 0x80 << 8k}, and {@code 1 << 8k} times a constant
   * whose byte {@code 7 - k} is {@code k} has {@code k} in its top byte (C1 does not make {@code
   * numberOfTrailingZeros} one instruction).
   */
  static int firstMarked(long marks) {
    return (int) ((((marks & -marks) >>> 7) * 0x0001020304050607L) >>> 56);
  }

  /** The first {@code b} in {@code buf[from, to)}, or -1. */
  static int indexOf(byte[] buf, byte b, int from, int to) {
    long pattern = (b & 0xFFL) * ONES;
    int i = from;
    while (i + 8 <= to) {
      long x = (long) LONGS.get(buf, i) ^ pattern;
      long t = (x - ONES) & ~x & HIGHS;
      if (t != 0) {
        return i + firstMarked(t);
      }
      i += 8;
    }
    for (; i < to; i++) {
      if (buf[i] == b) {
        return i;
      }
    }
    return -1;
  }
}
