package dev.handoff.api;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.lang.reflect.Field;
import java.nio.ByteOrder;

/**
 * How {@link ChunkBuffer} copies ASCII text: {@link #copyIfAscii}, and the probe behind it, which
 * tells whether a {@code String} stores one byte per char (the JDK's compact "Latin-1" form, in
 * which every char is at most {@code 0xFF}), so that {@link ChunkBuffer} can copy it with {@code
 * String.getBytes(int, int, byte[], int)} (a bulk copy of that form) and check the copied bytes 8
 * at a time for ASCII, instead of reading every char through {@code charAt} first.
 *
 * <p><b>Why {@code sun.misc.Unsafe}.</b> The JDK has no public way to ask a String for its form,
 * and the per-char check was a quarter of the time of encoding a narrow row. The probe reads the
 * String's {@code coder} field (0 for Latin-1) with {@code Unsafe.getByte}, as JCTools and Netty
 * read JDK internals, and only where that is quiet and safe:
 *
 * <ul>
 *   <li>Java 17 to 23 only: from Java 24 on the memory-access methods of {@code Unsafe} print a
 *       warning (JEP 498), so the probe stays off there;
 *   <li>{@code jdk.unsupported} readable (this module {@code requires static} it: always so on the
 *       class path; on the module path when another module requires it, or with {@code
 *       --add-modules jdk.unsupported});
 *   <li>a self-check at class initialization: the field exists, is a {@code byte}, and reads 0
 *       for a new Latin-1 String and 1 for a String with a char above {@code 0xFF} (so with
 *       {@code -XX:-CompactStrings}, or on a JVM that lays Strings out otherwise, it stays off);
 *   <li>not turned off with the system property {@code handoff.noUnsafe=true}.
 * </ul>
 *
 * <p>Off, {@link #isLatin1} is never called and every String takes the per-char check: the bytes
 * written are the same either way ({@code ChunkBufferTest} runs both).
 */
final class Latin1Strings {
  private Latin1Strings() {}

  /** Whether {@link #isLatin1} may be called: the probe passed its self-check. */
  static final boolean ENABLED;

  private static final VarHandle LONG_LE =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

  private static final sun.misc.Unsafe UNSAFE;
  private static final long CODER_OFFSET;

  static {
    sun.misc.Unsafe unsafe = null;
    long offset = -1;
    boolean enabled = false;
    if (Runtime.version().feature() < 24 && !Boolean.getBoolean("handoff.noUnsafe")) {
      try {
        Field theUnsafe = sun.misc.Unsafe.class.getDeclaredField("theUnsafe");
        theUnsafe.setAccessible(true);
        unsafe = (sun.misc.Unsafe) theUnsafe.get(null);
        Field coder = String.class.getDeclaredField("coder");
        if (coder.getType() == byte.class) {
          offset = unsafe.objectFieldOffset(coder);
          String latin1 = new String(new char[] {'a', '\u00E9'});
          String utf16 = new String(new char[] {'a', '\u0100'});
          enabled = unsafe.getByte(latin1, offset) == 0 && unsafe.getByte(utf16, offset) == 1;
        }
      } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
        // No jdk.unsupported, no such field, or access refused: the per-char check it is.
        enabled = false;
      }
    }
    ENABLED = enabled;
    UNSAFE = enabled ? unsafe : null;
    CODER_OFFSET = offset;
  }

  /**
   * Whether {@code s} stores one byte per char, every char at most {@code 0xFF}. Call only when
   * {@link #ENABLED}. False says nothing about the chars (a String of the other form may, in
   * principle, hold only such chars).
   */
  static boolean isLatin1(String s) {
    return UNSAFE.getByte(s, CODER_OFFSET) == 0;
  }

  /**
   * Copies the {@code n} chars of {@code text} to {@code b} from {@code at} and returns true if
   * they are all ASCII; otherwise returns false, having written at most {@code n} bytes there
   * (past the buffer's length, so nothing the buffer holds). With {@code probe} a String stored
   * one byte per char is copied first and its copy checked 8 bytes at a time (see {@link
   * #isLatin1}), any other String refused at once (the caller's UTF-8 path writes it, ASCII
   * or not); without it the chars are checked before the copy. Both give the same bytes and the
   * same answer for every String that is not refused at once.
   */
  @SuppressWarnings("deprecation") // getBytes(int, int, byte[], int): exact for chars <= 0xFF
  static boolean copyIfAscii(String text, int n, byte[] b, int at, boolean probe) {
    if (probe) {
      if (!isLatin1(text)) {
        return false;
      }
      text.getBytes(0, n, b, at);
      return asciiBytes(b, at, n);
    }
    if (!isAscii(text, n)) {
      return false;
    }
    text.getBytes(0, n, b, at);
    return true;
  }

  /** Whether bytes {@code at..at+n-1} of {@code b} are all below 0x80: 8 at a time past 8. */
  private static boolean asciiBytes(byte[] b, int at, int n) {
    if (n < 8) {
      int or = 0;
      for (int i = at; i < at + n; i++) {
        or |= b[i];
      }
      return or >= 0;
    }
    long or = 0;
    int last = at + n - 8;
    for (int i = at; i < last; i += 8) {
      or |= (long) LONG_LE.get(b, i);
    }
    or |= (long) LONG_LE.get(b, last);
    return (or & 0x8080808080808080L) == 0;
  }

  /**
   * Whether the first {@code n} chars of {@code s} are all below 0x80. Strings of 8 chars or more
   * are read in blocks of 8, the last block overlapping the one before: an OR of 8 charAt calls
   * is straight-line code whose coder and bounds checks C2 shares, and the loop runs n / 8 times
   * instead of n, so the exit branch that strings of varying lengths mispredict comes 8 times
   * less often. On rows of mixed strings (10-14 and 40-46 chars) this took about 0.8x the time of
   * a one-char loop (JDK 17); a benchmark that repeats one string hides that difference.
   */
  private static boolean isAscii(String s, int n) {
    int or = 0;
    if (n >= 8) {
      for (int i = 0; i < n - 8; i += 8) {
        or |= or8(s, i);
      }
      or |= or8(s, n - 8);
    } else {
      for (int i = 0; i < n; i++) {
        or |= s.charAt(i);
      }
    }
    return or < 0x80;
  }

  /** The OR of chars {@code i..i+7} of {@code s}. */
  private static int or8(String s, int i) {
    return s.charAt(i) | s.charAt(i + 1) | s.charAt(i + 2) | s.charAt(i + 3)
        | s.charAt(i + 4) | s.charAt(i + 5) | s.charAt(i + 6) | s.charAt(i + 7);
  }
}
