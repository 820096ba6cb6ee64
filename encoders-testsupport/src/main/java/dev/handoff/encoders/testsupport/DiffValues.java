package dev.handoff.encoders.testsupport;

import static dev.handoff.encoders.testsupport.DiffShow.hex;
import static dev.handoff.encoders.testsupport.DiffShow.quote;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The canonical values of the differential properties that have no fitting Java type of their
 * own ({@link F32}, {@link F64}, {@link Ip}, {@link Bytes}), and the IP address helpers.
 */
public final class DiffValues {
  private DiffValues() {}

  /* ================================================================== Canonical values */

  /**
   * A Float32 value; records compare it like {@link Float#compare}: -0.0 != 0.0, NaN == NaN.
   *
   * @param v the value
   */
  public record F32(float v) {
    /** Returns the value with an {@code f} suffix. */
    @Override
    public String toString() {
      return v + "f";
    }
  }

  /**
   * A Float64 value; record equality compares like {@link Double#compare}.
   *
   * @param v the value
   */
  public record F64(double v) {
    /** Returns the value with a {@code d} suffix. */
    @Override
    public String toString() {
      return v + "d";
    }
  }

  /**
   * An IP address as text: dotted quad for IPv4, eight hex groups for IPv6.
   *
   * @param text the address as text
   */
  public record Ip(String text) {
    /** Returns the text. */
    @Override
    public String toString() {
      return text;
    }
  }

  /** The bytes of a String or FixedString value. */
  public static final class Bytes {
    final byte[] b;

    /** Holds {@code b} (not copied). */
    public Bytes(byte[] b) {
      this.b = b;
    }

    /** Returns whether {@code o} holds the same bytes. */
    @Override
    public boolean equals(Object o) {
      return o instanceof Bytes other && Arrays.equals(b, other.b);
    }

    /** Returns a hash of the bytes. */
    @Override
    public int hashCode() {
      return Arrays.hashCode(b);
    }

    /** Returns the bytes as quoted text when they are short valid UTF-8, else as hex. */
    @Override
    public String toString() {
      String text = utf8(b);
      if (text != null && b.length <= 120) {
        return quote(text, 120);
      }
      return hex(b, 48);
    }
  }

  /** Returns the text of valid UTF-8 bytes, else {@code null}. */
  public static String utf8(byte[] b) {
    try {
      return StandardCharsets.UTF_8.newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(b)).toString();
    } catch (CharacterCodingException e) {
      return null;
    }
  }

  /** Returns the canonical form of an address. */
  public static Ip ip(InetAddress a) {
    return ip(a.getAddress());
  }

  /** Returns the canonical form of a 4- or 16-byte address. */
  public static Ip ip(byte[] a) {
    if (a.length == 4) {
      return new Ip((a[0] & 0xFF) + "." + (a[1] & 0xFF) + "." + (a[2] & 0xFF) + "."
          + (a[3] & 0xFF));
    }
    StringBuilder sb = new StringBuilder();
    for (int g = 0; g < 8; g++) {
      sb.append(g == 0 ? "" : ":")
          .append(Integer.toHexString((a[2 * g] & 0xFF) << 8 | (a[2 * g + 1] & 0xFF)));
    }
    return new Ip(sb.toString());
  }

  /** Returns the IPv4-mapped IPv6 address ({@code ::ffff:a.b.c.d}) of an IPv4 address. */
  public static byte[] mapped(byte[] v4) {
    byte[] a = new byte[16];
    a[10] = (byte) 0xFF;
    a[11] = (byte) 0xFF;
    System.arraycopy(v4, 0, a, 12, 4);
    return a;
  }

  /** Returns whether {@code ip} is an IPv4-mapped IPv6 address. */
  public static boolean isMapped(Ip ip) {
    return ip.text().startsWith("0:0:0:0:0:ffff:");
  }

  /** Returns whether a 16-byte address is IPv4-mapped ({@code ::ffff:a.b.c.d}). */
  public static boolean isMapped(byte[] a) {
    for (int i = 0; i < 10; i++) {
      if (a[i] != 0) {
        return false;
      }
    }
    return a[10] == (byte) 0xFF && a[11] == (byte) 0xFF;
  }

  /** Returns an IPv6 literal with the longest run of zero groups written as {@code ::}. */
  public static String compressed(byte[] a) {
    int[] g = new int[8];
    for (int i = 0; i < 8; i++) {
      g[i] = (a[2 * i] & 0xFF) << 8 | (a[2 * i + 1] & 0xFF);
    }
    int bestAt = -1;
    int bestLen = 0;
    for (int i = 0; i < 8; ) {
      int j = i;
      while (j < 8 && g[j] == 0) {
        j++;
      }
      if (j - i > bestLen) {
        bestAt = i;
        bestLen = j - i;
      }
      i = Math.max(j, i + 1);
    }
    if (bestLen < 2) {
      return ip(a).text();
    }
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < bestAt; i++) {
      sb.append(i == 0 ? "" : ":").append(Integer.toHexString(g[i]));
    }
    sb.append("::");
    for (int i = bestAt + bestLen; i < 8; i++) {
      sb.append(i == bestAt + bestLen ? "" : ":").append(Integer.toHexString(g[i]));
    }
    return sb.toString();
  }

  /** Returns the address of 4 or 16 bytes, without a lookup. */
  public static InetAddress address(byte[] a) {
    try {
      return InetAddress.getByAddress(a); // no lookup: the address is given
    } catch (UnknownHostException e) {
      throw new IllegalArgumentException(e);
    }
  }
}
