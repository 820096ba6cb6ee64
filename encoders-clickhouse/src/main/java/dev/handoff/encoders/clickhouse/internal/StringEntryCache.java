package dev.handoff.encoders.clickhouse.internal;

import java.util.Arrays;

/**
 * A memo in front of a {@code LowCardinality(String)} dictionary: String value → dictionary
 * entry. A value seen before in the block is found by its String hash (which the String caches
 * after the first use) and a reference comparison, or {@code equals} for another instance of the
 * same text, without being encoded again or its bytes hashed.
 *
 * <p><b>Only Strings.</b> A String cannot change, so its encoding, and with it the entry it
 * maps to, stays what it was when it was cached; a mutable CharSequence could change between two
 * rows and is never cached. Two Strings of different text that encode to the same bytes (an
 * unpaired surrogate and {@code '?'}) are two keys of the same entry, which is exact too.
 *
 * <p><b>Never stale.</b> Every key maps to an entry that is in the dictionary and holds the
 * key's encoding. Entries are only removed by the column's truncation (row rollback, block
 * reset), and the column {@link #clear}s the cache whenever it removes one, so the cache never
 * answers with an entry number that was given up and maybe reused.
 *
 * <p>Open addressing with linear probing over String keys with their hashes, filled at most half;
 * {@link #clear} empties only the slots in use, so a block that touches few values clears fast.
 */
final class StringEntryCache {
  private String[] keys = new String[64];
  private int[] hashes = new int[64];
  private int[] entries = new int[64];
  /** The slots in use, in the order they were filled, for {@link #clear}. */
  private int[] used = new int[32];
  private int size;

  /**
   * Returns the entry cached for {@code s}, or {@code -1 - slot} with the empty slot where it
   * would go, for {@link #put}. {@code h} is the caller's hash of {@code s}: any function of its
   * text (the column passes its spread {@code hashCode()}), the same for every call.
   */
  int find(String s, int h) {
    String[] k = keys;
    int mask = k.length - 1;
    for (int i = h & mask; ; i = (i + 1) & mask) {
      String x = k[i];
      if (x == s) {
        return entries[i]; // the common case when values come from a pool of instances
      }
      if (x == null) {
        return -1 - i;
      }
      if (hashes[i] == h && x.equals(s)) {
        return entries[i];
      }
    }
  }

  /**
   * Caches {@code s} (hash {@code h}) as entry {@code entry} in the empty slot {@code slot} that
   * {@link #find} returned for it, with no other change to the cache in between.
   */
  void put(int slot, String s, int h, int entry) {
    keys[slot] = s;
    hashes[slot] = h;
    entries[slot] = entry;
    if (size == used.length) {
      used = Arrays.copyOf(used, size * 2);
    }
    used[size++] = slot;
    if (size * 2 > keys.length) {
      grow();
    }
  }

  /** Forgets every key, keeping the arrays; drops the references to the cached Strings too. */
  void clear() {
    String[] k = keys;
    int[] u = used;
    for (int i = 0; i < size; i++) {
      k[u[i]] = null;
    }
    size = 0;
  }

  /** Returns how many Strings are cached (tests). */
  int size() {
    return size;
  }

  /** Returns the bytes the arrays hold, references counted as 4 bytes. */
  long retainedBytes() {
    return 4L * (keys.length + hashes.length + entries.length + used.length);
  }

  /** Doubles the table and puts the keys back in the order they were filled. */
  private void grow() {
    String[] oldKeys = keys;
    int[] oldHashes = hashes;
    int[] oldEntries = entries;
    int n = oldKeys.length * 2;
    keys = new String[n];
    hashes = new int[n];
    entries = new int[n];
    int mask = n - 1;
    for (int j = 0; j < size; j++) {
      int from = used[j];
      int i = oldHashes[from] & mask;
      while (keys[i] != null) {
        i = (i + 1) & mask;
      }
      keys[i] = oldKeys[from];
      hashes[i] = oldHashes[from];
      entries[i] = oldEntries[from];
      used[j] = i;
    }
  }
}
