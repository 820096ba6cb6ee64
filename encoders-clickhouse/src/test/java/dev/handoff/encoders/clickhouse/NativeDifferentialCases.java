package dev.handoff.encoders.clickhouse;

import static dev.handoff.encoders.testsupport.DiffComposites.arrayV;
import static dev.handoff.encoders.testsupport.DiffComposites.value;
import static dev.handoff.encoders.testsupport.DiffModel.LIST_ROWS;
import static dev.handoff.encoders.testsupport.DiffModel.isBad;
import static dev.handoff.encoders.testsupport.DiffTypes.SCALARS;
import static dev.handoff.encoders.testsupport.DiffTypes.mixesIpv6;
import static dev.handoff.encoders.testsupport.DiffTypes.scalar;
import static dev.handoff.encoders.testsupport.DiffTypes.type;

import dev.handoff.clickhouse.type.ClickHouseType;
import dev.handoff.clickhouse.type.TypeKind;
import dev.handoff.encoders.testsupport.DiffBad;
import dev.handoff.encoders.testsupport.DiffModel.Case;
import dev.handoff.encoders.testsupport.DiffModel.Column;
import dev.handoff.encoders.testsupport.DiffModel.Framing;
import dev.handoff.encoders.testsupport.DiffModel.V;
import dev.handoff.encoders.testsupport.DiffTypes;
import dev.handoff.encoders.testsupport.DiffTypes.CaseFormat;
import dev.handoff.encoders.testsupport.DiffTypes.Place;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * What {@link NativeDifferentialProperties} adds to the shared case generator of {@code
 * encoders-testsupport} ({@link DiffTypes}): only the types client-v2's Native reader decodes
 * ({@link #nativeReadable}), Array columns of one length per block, about one row in four with a
 * bad value the encoder must refuse, and the rows cut into one to three blocks ({@link Blocks}).
 */
final class NativeDifferentialCases {
  private NativeDifferentialCases() {}

  /** The number of Native blocks the case's rows are encoded in (nearly equal runs). */
  record Blocks(int count) implements Framing {
    @Override
    public String describe() {
      return " in " + count + " block(s)";
    }
  }

  /** The Native rules (see the class comment). */
  static final CaseFormat FORMAT = new CaseFormat() {
    @Override
    public ClickHouseType columnType(SplittableRandom r, ClickHouseType drawn) {
      ClickHouseType t = drawn;
      // Only the types client-v2's Native reader decodes (see nativeReadable): redraw the others.
      for (int tries = 0; !nativeReadable(t); tries++) {
        t = tries < 30 ? type(r, 0, Place.COLUMN) : scalar(r, SCALARS[r.nextInt(SCALARS.length)]);
      }
      return t;
    }

    @Override
    public void adjustRows(SplittableRandom r, List<Column> columns, List<List<V>> rows) {
      equalizeArrays(r, columns, rows);
      // About one row in four carries one bad value at a random column (see DiffBad.badValue).
      for (List<V> row : rows) {
        if (r.nextInt(4) == 0) {
          int at = r.nextInt(columns.size());
          row.set(at, DiffBad.badValue(r, columns.get(at).type()));
        }
      }
    }

    @Override
    public Framing framing(SplittableRandom r) {
      return new Blocks(1 + r.nextInt(3));
    }

    @Override
    public String limitation(Case c) {
      return nativeLimitation(c);
    }
  };

  /** The case of {@code seed}. */
  static Case generate(long seed) {
    return DiffTypes.generate(seed, FORMAT);
  }

  /** A case of {@code rows} in {@code blocks} blocks, given as Lists. */
  static Case listCase(List<Column> columns, List<List<V>> rows, int blocks) {
    return new Case(columns, rows, LIST_ROWS, new Blocks(blocks));
  }

  /** The number of blocks of {@code c}. */
  static int blockCount(Case c) {
    return ((Blocks) c.framing()).count();
  }

  /**
   * Returns why client-v2 0.10.0 cannot decode {@code c} although the bytes are right, or {@code
   * null}: a type its Native reader cannot decode, or an Array column whose lengths differ (or
   * are all zero) in a block (see {@link #nativeReadable}), then the limits every format shares
   * ({@link DiffTypes#clientV2Limitation}).
   */
  static String clientV2Limitation(Case c) {
    return DiffTypes.clientV2Limitation(c, FORMAT);
  }

  private static String nativeLimitation(Case c) {
    for (int i = 0; i < c.columns().size(); i++) {
      if (!nativeReadable(c.columns().get(i).type())) {
        return c.columns().get(i) + ": client-v2's Native reader cannot decode this type";
      }
    }
    for (List<List<V>> block : blocks(c)) {
      for (int i = 0; i < c.columns().size(); i++) {
        if (c.columns().get(i).type().kind() != TypeKind.ARRAY) {
          continue;
        }
        Set<Integer> lengths = new HashSet<>();
        for (List<V> row : block) {
          if (!isBad(row)) {
            lengths.add(row.get(i).parts().size());
          }
        }
        if (lengths.equals(Set.of(0))) {
          // client-v2 fails with an EOFException on a block whose arrays are all empty, as on
          // the server's own (proof: clientV2MisreadsServerNativeBlocks, array_empty_only)
          return c.columns().get(i) + ": a block whose arrays are all empty, which client-v2's"
              + " Native reader cannot decode";
        }
        if (lengths.size() > 1) {
          return c.columns().get(i) + ": arrays of different lengths in one block " + lengths
              + ", which client-v2's Native reader cannot decode";
        }
      }
    }
    return null;
  }

  /**
   * Whether client-v2 0.10.0's {@code NativeFormatReader} decodes a column of type {@code t}.
   * It does not decode the Native layout column by column: for a non-Array column it calls
   * {@code BinaryStreamReader.readValue} once per row, which reads the RowBinary encoding of one
   * value, and for an Array column it reads one UInt64 per row as a <em>size</em> (the format has
   * cumulative offsets) and then, for every row, {@code readArrayItem(element, sizes[0])}, the
   * RowBinary encoding of the first row's number of elements. So its result is right exactly when
   * the column's Native bytes equal the RowBinary bytes of its values: for every scalar type
   * (fixed-width values, String, FixedString), and for Array of a scalar when every row of the
   * block has the same number of elements (the offsets are then L, 2L, ...). Nullable (null map
   * first), LowCardinality (dictionary and indexes), Tuple (one column per element), Map and
   * Nested (offsets, then columns), Array of anything but a scalar, and an Array whose lengths
   * differ in one block are misread. Proof, on server-produced bytes: {@link
   * NativeDifferentialProperties#clientV2MisreadsServerNativeBlocks}.
   */
  static boolean nativeReadable(ClickHouseType t) {
    if (t.kind() == TypeKind.ARRAY) {
      return Arrays.asList(SCALARS).contains(t.element().kind());
    }
    return Arrays.asList(SCALARS).contains(t.kind());
  }

  /**
   * Gives every Array column the same number of elements in every row (the first row's), by
   * dropping or adding elements, so that client-v2's Native reader can judge it (see {@link
   * #nativeReadable}).
   */
  static void equalizeArrays(SplittableRandom r, List<Column> columns, List<List<V>> rows) {
    for (int i = 0; i < columns.size(); i++) {
      ClickHouseType t = columns.get(i).type();
      if (t.kind() != TypeKind.ARRAY || rows.isEmpty()) {
        continue;
      }
      int n = rows.get(0).get(i).parts().size();
      if (n == 0) {
        n = 1 + r.nextInt(3); // all empty: see clientV2Limitation
      }
      for (int k = 0; k < rows.size(); k++) {
        List<V> parts = new ArrayList<>(rows.get(k).get(i).parts());
        if (parts.size() == n) {
          continue;
        }
        while (parts.size() > n) {
          parts.remove(parts.size() - 1);
        }
        while (parts.size() < n) {
          V v = value(r, t.element(), false);
          V first = parts.isEmpty() ? v : parts.get(0);
          if (!mixesIpv6(t, first, v)) {
            parts.add(v);
          }
        }
        rows.get(k).set(i, arrayV(parts, r.nextInt(4)));
      }
    }
  }

  /** The rows of {@code c} as its encoder's blocks: {@link Blocks} nearly equal runs. */
  static List<List<List<V>>> blocks(Case c) {
    List<List<List<V>>> out = new ArrayList<>();
    int n = c.rows().size();
    int blocks = blockCount(c);
    for (int b = 0; b < blocks; b++) {
      out.add(c.rows().subList(n * b / blocks, n * (b + 1) / blocks));
    }
    return out;
  }
}
