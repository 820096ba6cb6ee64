package dev.handoff.simulator;

import dev.handoff.api.Frame;
import dev.handoff.api.spi.Insert;
import java.util.List;

/**
 * The simulated sink's reading of what it is given: it walks RowBinary frames row by row and
 * checks every row, and the rows of every insert, against the engine's shadow of the chunks
 * ({@code chunk-integrity}). A byte of a rolled-back row misaligns everything after it.
 */
final class RowDecoder {
  private final Engine e;
  private final short[] sourceOf;
  /** Bytes that were not a row of a pushed record, counted for the ledger's {@code unexpected}. */
  long unexpected;

  RowDecoder(Engine engine, short[] sourceOf) {
    this.e = engine;
    this.sourceOf = sourceOf;
  }

  /** Returns where the RowBinary row starting at {@code at} ends, or -1 if it runs past the end. */
  static int rowEnd(byte[] b, int at) {
    int p = at + FIXED_ROW;
    if (p > b.length) {
      return -1;
    }
    long len = 0;
    int shift = 0;
    while (true) {
      if (p >= b.length || shift > 28) {
        return -1;
      }
      int x = b[p++] & 0xFF;
      len |= (long) (x & 0x7F) << shift;
      if (x < 0x80) {
        break;
      }
      shift += 7;
    }
    long end = p + len;
    return end > b.length ? -1 : (int) end;
  }

  /** The bytes of a RowBinary row before its pad: UInt32, UInt16, UInt32, UInt64, UInt64. */
  private static final int FIXED_ROW = 4 + 2 + 4 + 8 + 8;

  /**
   * Decodes the record ids an insert carries and checks them against the shadow: the frames of
   * chunks {@code first..last} hold exactly those chunks' rows, in seal order; an insert of one
   * chunk may hold a contiguous run of its rows (a part, while isolating). Every column of every
   * row must be the record's own (a byte of a rolled-back row misaligns the rest). RowBinary is
   * decoded byte by byte; other formats are taken by the shadow's row count.
   */
  int[] decode(Life l, Insert insert) {
    OracleBook book = e.book;
    int shard = insert.shard();
    List<int[]> ids = l.sealedIds.get(shard);
    long first = insert.firstSequence();
    long last = insert.lastSequence();
    book.checks[OracleBook.CHUNK_INTEGRITY]++;
    if (last >= ids.size()) {
      book.fail(OracleBook.CHUNK_INTEGRITY, "shard " + shard + " got an insert of chunks "
          + first + ".." + last + " but the encoder sealed only " + ids.size());
      return new int[0];
    }
    IntList expect = new IntList();
    for (long q = first; q <= last; q++) {
      for (int id : ids.get((int) q)) {
        expect.add(id);
      }
    }
    int[] want = expect.toArray();
    if (!e.rowBinary) {
      if (insert.rows() != want.length) {
        book.fail(OracleBook.CHUNK_INTEGRITY, "shard " + shard + " chunks " + first + ".." + last
            + ": the insert claims " + insert.rows() + " rows but the encoder sealed "
            + want.length);
      }
      return want;
    }
    IntList got = new IntList();
    for (Frame f : insert.frames()) {
      byte[] b = f.toByteArray();
      int at = 0;
      while (at < b.length) {
        int end = rowEnd(b, at);
        int id = end < 0 ? -1 : rowId(b, at, end);
        if (id < 0) {
          book.fail(OracleBook.CHUNK_INTEGRITY, "shard " + shard + " chunks " + first + ".."
              + last + ": the bytes at offset " + at + " of a frame of " + b.length
              + " are not a row of a pushed record (after " + got.size() + " good rows)");
          unexpected++;
          return got.toArray();
        }
        got.add(id);
        at = end;
      }
    }
    int[] rows = got.toArray();
    boolean ok;
    if (first == last && rows.length < want.length) {
      ok = isRun(want, rows);
    } else {
      ok = java.util.Arrays.equals(want, rows);
    }
    if (!ok || insert.rows() != rows.length) {
      book.fail(OracleBook.CHUNK_INTEGRITY, "shard " + shard + " chunks " + first + ".." + last
          + ": the insert claims " + insert.rows() + " rows and its frames hold records "
          + describe(rows) + " but the encoder sealed " + describe(want));
    }
    return rows;
  }

  /** The record id of the row in {@code b[at, end)}, or -1 if a column is not that record's. */
  private int rowId(byte[] b, int at, int end) {
    return rowId(e.w, sourceOf, b, at, end);
  }

  /**
   * Returns the record id of the RowBinary row in {@code b[at, end)} of workload {@code w}, or -1
   * if a column is not that record's own; {@code sourceOf} maps a record id to its source. Also
   * the thread stress test's reading of what its writer is given.
   */
  static int rowId(Workload w, short[] sourceOf, byte[] b, int at, int end) {
    long id = le(b, at, 4);
    if (id >= w.records) {
      return -1;
    }
    int i = (int) id;
    int s = sourceOf[i];
    if (le(b, at + 4, 2) != s || le(b, at + 6, 4) != i - w.base[s] || le(b, at + 10, 8) != w.key[i]
        || le(b, at + 18, 8) != w.keySeq[i]) {
      return -1;
    }
    int pad = w.pad[i];
    int lenBytes = pad < 0x80 ? 1 : pad < 0x4000 ? 2 : 3;
    if (end - (at + FIXED_ROW + lenBytes) != pad) {
      return -1;
    }
    for (int p = end - pad; p < end; p++) {
      if (b[p] != (byte) (pad & 0x7F)) {
        return -1;
      }
    }
    return i;
  }

  private static long le(byte[] b, int at, int n) {
    long v = 0;
    for (int k = n - 1; k >= 0; k--) {
      v = v << 8 | (b[at + k] & 0xFF);
    }
    return v;
  }

  private static boolean isRun(int[] whole, int[] part) {
    if (part.length == 0) {
      return false;
    }
    for (int i = 0; i + part.length <= whole.length; i++) {
      if (whole[i] == part[0]) {
        return java.util.Arrays.equals(whole, i, i + part.length, part, 0, part.length);
      }
    }
    return false;
  }

  static String describe(int[] ids) {
    if (ids.length <= 8) {
      return java.util.Arrays.toString(ids);
    }
    return "[" + ids[0] + ", " + ids[1] + ", ... " + ids[ids.length - 1] + "] (" + ids.length
        + ")";
  }
}
