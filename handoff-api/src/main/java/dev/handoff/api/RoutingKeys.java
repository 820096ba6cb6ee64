package dev.handoff.api;

/**
 * Turns text and bytes into 64-bit routing keys that are the same in every run and every JVM
 * (unlike identity hash codes), so a key always lands on the same shard.
 *
 * <p>The hash is 64-bit FNV-1a over the UTF-8 bytes, finished with a 64-bit avalanche mix, so
 * similar keys spread across shards.
 */
public final class RoutingKeys {
  private static final long FNV_OFFSET = 0xcbf29ce484222325L;
  private static final long FNV_PRIME = 0x100000001b3L;

  private RoutingKeys() {}

  /** Returns the routing key of {@code bytes}. */
  public static long of(byte[] bytes) {
    long h = FNV_OFFSET;
    for (byte b : bytes) {
      h = (h ^ (b & 0xFF)) * FNV_PRIME;
    }
    return mix(h);
  }

  /** Returns the routing key of {@code text}, hashed as its UTF-8 bytes without encoding it. */
  public static long of(CharSequence text) {
    long h = FNV_OFFSET;
    int n = text.length();
    for (int i = 0; i < n; i++) {
      char c = text.charAt(i);
      if (c < 0x80) {
        h = (h ^ c) * FNV_PRIME;
      } else if (c < 0x800) {
        h = (h ^ (0xC0 | (c >> 6))) * FNV_PRIME;
        h = (h ^ (0x80 | (c & 0x3F))) * FNV_PRIME;
      } else if (Character.isHighSurrogate(c) && i + 1 < n
          && Character.isLowSurrogate(text.charAt(i + 1))) {
        int cp = Character.toCodePoint(c, text.charAt(++i));
        h = (h ^ (0xF0 | (cp >> 18))) * FNV_PRIME;
        h = (h ^ (0x80 | ((cp >> 12) & 0x3F))) * FNV_PRIME;
        h = (h ^ (0x80 | ((cp >> 6) & 0x3F))) * FNV_PRIME;
        h = (h ^ (0x80 | (cp & 0x3F))) * FNV_PRIME;
      } else if (Character.isSurrogate(c)) {
        h = (h ^ '?') * FNV_PRIME;
      } else {
        h = (h ^ (0xE0 | (c >> 12))) * FNV_PRIME;
        h = (h ^ (0x80 | ((c >> 6) & 0x3F))) * FNV_PRIME;
        h = (h ^ (0x80 | (c & 0x3F))) * FNV_PRIME;
      }
    }
    return mix(h);
  }

  /** Returns the routing key of a number (an id, say), mixed so that neighbours spread. */
  public static long of(long value) {
    return mix(value);
  }

  /** The 64-bit finalizer of MurmurHash3: every input bit affects every output bit. */
  static long mix(long z) {
    z = (z ^ (z >>> 33)) * 0xff51afd7ed558ccdL;
    z = (z ^ (z >>> 33)) * 0xc4ceb9fe1a85ec53L;
    return z ^ (z >>> 33);
  }
}
