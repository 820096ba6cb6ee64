package dev.handoff.encoders.clickhouse.internal;

import dev.handoff.api.ChunkBuffer;
import dev.handoff.api.row.RowAccessor;
import dev.handoff.api.row.ValueKind;
import dev.handoff.clickhouse.type.ClickHouseType;
import dev.handoff.clickhouse.type.TypeKind;
import java.util.Arrays;

/**
 * {@code LowCardinality(T)} and {@code LowCardinality(Nullable(T))}: a per-block dictionary of
 * distinct values and one dictionary index (key) per value.
 *
 * <p><b>Layout</b> (formats doc 4.17). Prefix phase: UInt64 version 1. Data: UInt64 flags {@code
 * 0x600 | keyType}, UInt64 dictionary size, the dictionary as plain T data, UInt64 key count, the
 * keys in the width the final dictionary size needs (at most 255 entries: UInt8, at most 65535:
 * UInt16, then UInt32, UInt64). With no values at this level (every enclosing array empty) the
 * data part is empty: the short form readers expect, not what 18.16's own writer emits.
 *
 * <p><b>Dictionary form.</b> The server's: entry 0 is T's default; for Nullable, entry 0 is the
 * NULL slot (holding T's default) and entry 1 is T's default; distinct values follow in order of
 * first appearance. NULL rows get key 0, default values key 0 (key 1 for Nullable). So output
 * equals the 18.16 golden vectors byte for byte. The default entries are always present, whether
 * or not a value uses them, as on the server.
 *
 * <p><b>Lookup without allocation.</b> The dictionary is a {@link Leaf} of T: a value is
 * converted by appending it to the dictionary as a tentative new entry, whose encoded bytes are
 * then hashed and compared with the slices of the existing entries; if an equal entry exists the
 * tentative one is truncated away. The hash table is open addressing with linear probing over
 * {@code int} entry numbers, with each entry's hash cached. The hash of an entry is {@link
 * String#hashCode}'s polynomial over its bytes (for a String, the bytes after the length), so
 * that an ASCII String's entry hash is its own {@code hashCode()}, which the String caches.
 *
 * <p><b>String values first ask a cache.</b> For {@code LowCardinality(String)}, a value that
 * arrives as a {@code java.lang.String} is first looked up in a {@link StringEntryCache} (String
 * → entry, by the String's own cached hash and identity or {@code equals}), so a value seen
 * before in the block costs no encoding and no byte hashing; only a miss takes the byte lookup
 * above (for ASCII text without hashing the bytes: its hash is the String's), and then caches
 * its String. {@link #appendString} is that path for the {@code Object[]} row program. The cache
 * is cleared whenever entries are removed (see Rollback), so it never returns an entry number
 * that was given up.
 *
 * <p><b>Rollback.</b> Each entry remembers the index of the value that first used it. Entries are
 * only ever removed newest first (a row rollback removes exactly the entries its row added, which
 * are the newest), and undoing the newest insertion of a linear-probing table by emptying its
 * slot restores the table exactly, so no tombstones are needed. Rehashing reinserts entries in
 * index order, which keeps that true. Removing any entry also clears the String cache: a later
 * value may take the removed entry's number.
 */
final class LowCardinalityColumn extends Column {
  private static final long VERSION = 1;
  private static final long FLAGS = 0x200 | 0x400; // has additional keys | dictionary update

  private final Leaf dict;
  /** The dictionary when it is a String leaf, else null: then there is no String cache. */
  private final Leaves.StringColumn strings;
  private final StringEntryCache cache;
  final boolean nullable;
  /** Entries that are always there: the default, and the NULL slot before it for Nullable. */
  private final int base;
  private int[] keys = new int[64];
  private int[] firstUse = new int[64];
  private int[] hashes = new int[64];
  private int[] slotOf = new int[64];
  /** Entry number + 1 per slot; 0 is an empty slot. Length is a power of two. */
  private int[] slots = new int[128];
  private int used;

  private LowCardinalityColumn(ClickHouseType type, String column, Leaf dict, boolean nullable) {
    super(type, column);
    this.dict = dict;
    this.strings = dict instanceof Leaves.StringColumn sc ? sc : null;
    this.cache = strings != null ? new StringEntryCache() : null;
    this.nullable = nullable;
    this.base = nullable ? 2 : 1;
    dict.appendDefault(); // entry 0: the default, or the NULL slot
    firstUse[0] = -1;
    if (nullable) {
      dict.appendDefault(); // entry 1: the default
      firstUse[1] = -1;
    }
    // Only the real default is looked up; a Nullable's NULL slot is never found by value.
    insert(hash(base - 1), base - 1);
  }

  /** Compiles {@code LowCardinality(T)}; T must be a scalar type. */
  static LowCardinalityColumn of(ClickHouseType type, String column) {
    ClickHouseType inner = type.element();
    boolean nullable = inner.kind() == TypeKind.NULLABLE;
    ClickHouseType plain = nullable ? inner.element() : inner;
    Column dict = Column.of(plain, column);
    if (!(dict instanceof Leaf)) {
      throw new IllegalArgumentException("column " + column + ": " + type
          + " is not supported: LowCardinality needs a scalar type inside");
    }
    return new LowCardinalityColumn(type, column, (Leaf) dict, nullable);
  }

  /** Returns whether the dictionary is {@code String}, so that {@link #appendString} applies. */
  boolean hasStringDictionary() {
    return strings != null;
  }

  @Override
  <R> void append(RowAccessor<R> acc, R row, int field) {
    int key;
    if (nullable && acc.isNull(row, field)) {
      key = 0;
    } else if (strings != null && acc.kind(row, field) == ValueKind.TEXT) {
      // What StringValues.write does with TEXT, with the String cache in front.
      CharSequence text = acc.getText(row, field);
      if (text instanceof String s) {
        key = keyOf(s);
      } else {
        int d = strings.count;
        strings.data.writeUtf8WithLength(text);
        strings.push();
        key = intern(d);
      }
    } else {
      int d = dict.count;
      dict.append(acc, row, field);
      key = intern(d);
    }
    pushKey(key);
  }

  /**
   * Appends a String value of a String dictionary ({@link #hasStringDictionary}): the same
   * entry and bytes as {@link #append} with that String, which cannot fail.
   */
  void appendString(String s) {
    pushKey(keyOf(s));
  }

  /** Returns how many Strings the cache holds, 0 without one (tests). */
  int cachedStrings() {
    return cache == null ? 0 : cache.size();
  }

  /** Returns the number of dictionary entries, the default ones included (tests). */
  int entries() {
    return dict.count;
  }

  @Override
  void appendDefault() {
    pushKey(0); // NULL for Nullable, else the default entry
  }

  private void pushKey(int key) {
    if (count == keys.length) {
      keys = Arrays.copyOf(keys, count * 2);
    }
    keys[count++] = key;
  }

  /** Returns the entry of {@code s}: from the cache, or added or found by its bytes. */
  private int keyOf(String s) {
    int h = spread(s.hashCode());
    int key = cache.find(s, h);
    return key >= 0 ? key : addString(s, h, -1 - key);
  }

  /**
   * The cache miss of {@link #keyOf}, kept out of it so that the hit stays small enough to be
   * inlined into the row program: encodes {@code s}, looks its bytes up and caches the entry in
   * {@code slot}.
   */
  private int addString(String s, int h, int slot) {
    Leaves.StringColumn sc = strings;
    int d = sc.count;
    // The bytes StringValues.write gives a String: ASCII as it is, else UTF-8. ASCII chars are
    // their bytes, so the entry's hash is the String's; other text has its bytes hashed. The
    // cache keeps the String's hash either way: that is what it is looked up by.
    int entryHash = h;
    if (sc.data.writeAsciiWithLength(s)) {
      sc.push();
    } else {
      sc.data.writeUtf8WithLength(s);
      sc.push();
      entryHash = hash(d);
    }
    int key = intern(d, entryHash);
    cache.put(slot, s, h, key);
    return key;
  }

  private int intern(int d) {
    return intern(d, hash(d));
  }

  /**
   * Keeps the tentative entry {@code d} (the last one, hash {@code h}) as a new entry first used
   * by the current value, or drops it for an equal existing entry; returns the entry the value
   * maps to.
   */
  private int intern(int d, int h) {
    int key = find(h, d);
    if (key >= 0) {
      dict.truncate(d); // already there: drop the tentative entry
      return key;
    }
    if (d == firstUse.length) {
      firstUse = Arrays.copyOf(firstUse, d * 2);
    }
    firstUse[d] = count;
    insert(h, d);
    return d;
  }

  @Override
  void truncate(int n) {
    count = n;
    int d = dict.count;
    int before = d;
    while (d > base && firstUse[d - 1] >= n) {
      d--;
      slots[slotOf[d]] = 0;
      used--;
    }
    dict.truncate(d); // also drops a tentative entry whose conversion failed half-way
    if (d < before && cache != null) {
      cache.clear(); // the removed entries' numbers may be given to other values now
    }
  }

  @Override
  long prefixBytes() {
    return 8;
  }

  @Override
  void writePrefix(ChunkBuffer out) {
    out.writeLongLE(VERSION);
  }

  @Override
  long dataBytes() {
    if (count == 0) {
      return 0;
    }
    return 24 + dict.dataBytes() + (long) count * keyWidth(dict.count);
  }

  @Override
  void writeData(ChunkBuffer out) {
    if (count == 0) {
      return; // short form: nothing after the prefix and the enclosing offsets
    }
    int entries = dict.count;
    int width = keyWidth(entries);
    out.writeLongLE(FLAGS | Integer.numberOfTrailingZeros(width));
    out.writeLongLE(entries);
    dict.writeData(out);
    out.writeLongLE(count);
    out.ensureWritable(count * width);
    switch (width) {
      case 1:
        for (int i = 0; i < count; i++) {
          out.writeByte(keys[i]);
        }
        break;
      case 2:
        for (int i = 0; i < count; i++) {
          out.writeShortLE(keys[i]);
        }
        break;
      default:
        for (int i = 0; i < count; i++) {
          out.writeIntLE(keys[i]);
        }
    }
  }

  @Override
  long retainedBytes() {
    return dict.retainedBytes() + (cache == null ? 0 : cache.retainedBytes())
        + 4L * (keys.length + firstUse.length + hashes.length + slotOf.length + slots.length);
  }

  /** The key width for a dictionary of {@code entries} entries, as the server chooses it. */
  static int keyWidth(int entries) {
    return entries <= 0xFF ? 1 : entries <= 0xFFFF ? 2 : 4;
  }

  /* ------------------------------------------------------------------ Hash table */

  /**
   * Returns the hash of entry {@code entry}: {@link String#hashCode}'s polynomial over its
   * unsigned bytes (a String's after its VarUInt length), {@link #spread}. For ASCII text that
   * is {@code spread(text.hashCode())}, which {@link #keyOf} relies on.
   */
  private int hash(int entry) {
    ChunkBuffer b = dict.data;
    int i = dict.start(entry);
    int end = dict.end(entry);
    if (strings != null) {
      while (b.getByte(i++) < 0) {
        // a VarUInt byte with more to follow
      }
    }
    int h = 0;
    for (; i < end; i++) {
      h = 31 * h + (b.getByte(i) & 0xFF);
    }
    return spread(h);
  }

  /** Mixes a polynomial hash, whose low bits (which pick the slot) are weak. */
  static int spread(int h) {
    h ^= h >>> 16;
    h *= 0x85ebca6b;
    return h ^ (h >>> 13);
  }

  private boolean sameBytes(int a, int b) {
    int as = dict.start(a);
    int bs = dict.start(b);
    int len = dict.end(a) - as;
    if (dict.end(b) - bs != len) {
      return false;
    }
    ChunkBuffer d = dict.data;
    for (int i = 0; i < len; i++) {
      if (d.getByte(as + i) != d.getByte(bs + i)) {
        return false;
      }
    }
    return true;
  }

  /** Returns the entry equal to entry {@code d} (hash {@code h}), or -1. */
  private int find(int h, int d) {
    int mask = slots.length - 1;
    for (int s = h & mask; slots[s] != 0; s = (s + 1) & mask) {
      int e = slots[s] - 1;
      if (hashes[e] == h && sameBytes(e, d)) {
        return e;
      }
    }
    return -1;
  }

  private void insert(int h, int entry) {
    if (entry >= hashes.length) {
      hashes = Arrays.copyOf(hashes, hashes.length * 2);
      slotOf = Arrays.copyOf(slotOf, slotOf.length * 2);
    }
    hashes[entry] = h;
    if ((used + 1) * 2 > slots.length) {
      rehash(slots.length * 2, entry);
    }
    place(entry);
    used++;
  }

  private void place(int entry) {
    int mask = slots.length - 1;
    int s = hashes[entry] & mask;
    while (slots[s] != 0) {
      s = (s + 1) & mask;
    }
    slots[s] = entry + 1;
    slotOf[entry] = s;
  }

  /** Grows the table and reinserts the entries before {@code upTo} in index order. */
  private void rehash(int size, int upTo) {
    slots = new int[size];
    for (int e = base - 1; e < upTo; e++) {
      place(e);
    }
  }
}
