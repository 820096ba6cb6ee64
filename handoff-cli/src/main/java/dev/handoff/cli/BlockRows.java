package dev.handoff.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.handoff.api.ChunkBuffer;
import dev.handoff.api.row.RowAccessor;
import dev.handoff.api.row.ValueKind;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Reads the rows of a {@link ParsedBlock} for the encoder: a flat row from the block's arrays,
 * a row kept as a tree through the JSON tree accessor, so both give the values, kinds and boxed
 * objects the tree accessor gives for the same line.
 *
 * <p>The row handed to the stage is a {@link Row} cursor (block and row number) that the source
 * reuses for every push: the stage encodes a row during its push and keeps nothing of it.
 */
final class BlockRows implements RowAccessor<BlockRows.Row> {

  /** Missing field or JSON {@code null}. Zero, so a fresh block's rows start as all nulls. */
  static final byte NULL = 0;
  /** An integer that fits an {@code int} (the tree's {@code IntNode}). */
  static final byte INT = 1;
  /** An integer that fits a {@code long} (the tree's {@code LongNode}). */
  static final byte LONG = 2;
  /** A number with a fraction or exponent, as a double's bits. */
  static final byte DOUBLE = 3;
  /** A string, in {@code objects}. */
  static final byte TEXT = 4;
  /** {@code true} or {@code false}, as 1 or 0. */
  static final byte BOOLEAN = 5;
  /** An integer beyond {@code long}, a {@link BigInteger} in {@code objects}. */
  static final byte BIG_INTEGER = 6;
  /**
   * A number read as an exact decimal: a one-element {@code ArrayNode} holding the tree's own
   * node in {@code objects}, read through the tree's nested accessor.
   */
  static final byte DECIMAL = 7;
  /**
   * A string for a String or FixedString column, as its UTF-8 bytes (a {@code byte[]} in {@code
   * objects}; a String's plain text is a {@link #SLICE} instead, this holds one decoded from
   * escapes): the encoder copies them as they are, the same bytes it would make of the string's
   * {@code String}.
   */
  static final byte UTF8 = 8;
  /** A UUID read from its text on a parser thread, a {@link java.util.UUID} in {@code objects}. */
  static final byte UUID = 9;
  /**
   * A number read as an exact decimal straight from its bytes, a {@link BigDecimal} in {@code
   * objects} equal (digits and scale) to the one the tree's node holds; read as that node.
   */
  static final byte BIG_DECIMAL = 10;
  /**
   * A string for a String column, as its UTF-8 bytes where the block holds them: {@code [from,
   * from + length)} of the block's {@code bytes}, as {@code from << 32 | length} in {@code
   * values} (see {@link #slice}). The encoder copies them from there.
   */
  static final byte SLICE = 11;

  /** Returns the {@code values} entry of a {@link #SLICE}: the block's bytes {@code [from, to)}. */
  static long slice(int from, int to) {
    return (long) from << 32 | (to - from);
  }

  /** A row of a block: the cursor the source pushes (one per source, moved for each row). */
  static final class Row {
    ParsedBlock block;
    int row;
    /** The row's tree, or {@code null} for a flat row. */
    JsonNode tree;
    /** The row's first slot in the block's flat arrays. */
    int base;

    /** Points the cursor at row {@code i} of block {@code b} and returns it. */
    Row at(ParsedBlock b, int i) {
      block = b;
      row = i;
      tree = b.nodes[i];
      base = i * b.columns;
      return this;
    }
  }

  /** The value kind of each flat code but {@link #DECIMAL} (read through its node). */
  private static final ValueKind[] KINDS = {ValueKind.NULL, ValueKind.LONG, ValueKind.LONG,
      ValueKind.DOUBLE, ValueKind.TEXT, ValueKind.BOOLEAN, ValueKind.BIG_INTEGER, null,
      ValueKind.BYTES, ValueKind.UUID, ValueKind.BIG_DECIMAL, ValueKind.BYTES};

  private final RowAccessor<JsonNode> tree;
  /** Reads the one-element arrays of {@link #DECIMAL} slots as the tree reads its nodes. */
  private final RowAccessor<Object> decimals;
  private final int columns;

  /**
   * Creates the accessor.
   *
   * @param tree the accessor of rows kept as trees
   * @param columns the table's number of columns
   */
  BlockRows(RowAccessor<JsonNode> tree, int columns) {
    this.tree = tree;
    this.decimals = tree.nested(null, 0);
    this.columns = columns;
  }

  /**
   * Returns the flat slot of {@code field} of {@code r}; a field outside the row fails, as {@link
   * RowAccessor} asks, instead of reading the slot of a neighbouring row.
   */
  private int slot(Row r, int field) {
    if (field < 0 || field >= columns) {
      throw new IndexOutOfBoundsException("field " + field + " of a row of " + columns
          + " columns");
    }
    return r.base + field;
  }

  @Override
  public ValueKind kind(Row r, int field) {
    JsonNode n = r.tree;
    if (n != null) {
      return tree.kind(n, field);
    }
    int s = slot(r, field);
    byte k = r.block.kinds[s];
    return k == DECIMAL ? decimals.kind(r.block.objects[s], 0) : KINDS[k];
  }

  @Override
  public boolean isNull(Row r, int field) {
    JsonNode n = r.tree;
    if (n != null) {
      return tree.isNull(n, field);
    }
    return r.block.kinds[slot(r, field)] == NULL;
  }

  @Override
  public Object getObject(Row r, int field) {
    JsonNode n = r.tree;
    if (n != null) {
      return tree.getObject(n, field);
    }
    int s = slot(r, field);
    ParsedBlock b = r.block;
    switch (b.kinds[s]) {
      case INT:
        return (int) b.values[s];
      case LONG:
        return b.values[s];
      case DOUBLE:
        return Double.longBitsToDouble(b.values[s]);
      case BOOLEAN:
        return b.values[s] != 0;
      case TEXT:
      case BIG_INTEGER:
      case UUID:
      case BIG_DECIMAL:
        return b.objects[s];
      case DECIMAL:
        return decimals.getObject(b.objects[s], 0);
      case UTF8:
        return new String((byte[]) b.objects[s], StandardCharsets.UTF_8);
      case SLICE:
        return sliceText(b, s);
      default:
        return null;
    }
  }

  @Override
  public boolean getBoolean(Row r, int field) {
    JsonNode n = r.tree;
    if (n != null) {
      return tree.getBoolean(n, field);
    }
    int s = slot(r, field);
    return viaNode(r.block.kinds[s]) ? decimals.getBoolean(node(r.block, s), 0)
        : r.block.values[s] != 0;
  }

  @Override
  public long getLong(Row r, int field) {
    JsonNode n = r.tree;
    if (n != null) {
      return tree.getLong(n, field);
    }
    int s = slot(r, field);
    return viaNode(r.block.kinds[s]) ? decimals.getLong(node(r.block, s), 0)
        : r.block.values[s];
  }

  @Override
  public double getDouble(Row r, int field) {
    JsonNode n = r.tree;
    if (n != null) {
      return tree.getDouble(n, field);
    }
    int s = slot(r, field);
    return viaNode(r.block.kinds[s]) ? decimals.getDouble(node(r.block, s), 0)
        : Double.longBitsToDouble(r.block.values[s]);
  }

  @Override
  public BigInteger getBigInteger(Row r, int field) {
    JsonNode n = r.tree;
    if (n != null) {
      return tree.getBigInteger(n, field);
    }
    int s = slot(r, field);
    return viaNode(r.block.kinds[s]) ? decimals.getBigInteger(node(r.block, s), 0)
        : (BigInteger) r.block.objects[s];
  }

  @Override
  public BigDecimal getBigDecimal(Row r, int field) {
    JsonNode n = r.tree;
    if (n != null) {
      return tree.getBigDecimal(n, field);
    }
    int s = slot(r, field);
    if (r.block.kinds[s] == BIG_DECIMAL) {
      return (BigDecimal) r.block.objects[s];
    }
    if (r.block.kinds[s] == DECIMAL) {
      return decimals.getBigDecimal(r.block.objects[s], 0);
    }
    // Other flat slots: as the tree reads a missing node (its error words the mismatch).
    return tree.getBigDecimal(null, field);
  }

  @Override
  public CharSequence getText(Row r, int field) {
    JsonNode n = r.tree;
    if (n != null) {
      return tree.getText(n, field);
    }
    int s = slot(r, field);
    switch (r.block.kinds[s]) {
      case DECIMAL:
      case BIG_DECIMAL:
      case UUID:
        return decimals.getText(node(r.block, s), 0);
      case UTF8:
        return new String((byte[]) r.block.objects[s], StandardCharsets.UTF_8);
      case SLICE:
        return sliceText(r.block, s);
      default:
        return (CharSequence) r.block.objects[s];
    }
  }

  /**
   * The one-element array holding slot {@code s}'s tree node: a {@link #DECIMAL}'s own, or for
   * the other kinds read through it ({@link #BIG_DECIMAL}, and the {@link #UUID} and others
   * past it) a node made here, on the rare getters the encoders do not call for them.
   */
  private static Object node(ParsedBlock b, int s) {
    Object o = b.objects[s];
    if (b.kinds[s] == DECIMAL) {
      return o;
    }
    com.fasterxml.jackson.databind.node.JsonNodeFactory f =
        com.fasterxml.jackson.databind.node.JsonNodeFactory.instance;
    return f.arrayNode().add(o instanceof BigDecimal d
        ? com.fasterxml.jackson.databind.node.DecimalNode.valueOf(d) : f.pojoNode(o));
  }

  /** Whether a slot of kind {@code k} is read through {@link #node} by the number getters. */
  private static boolean viaNode(byte k) {
    return k == DECIMAL || k == BIG_DECIMAL || k == UUID;
  }

  @Override
  public byte[] getBytes(Row r, int field) {
    JsonNode n = r.tree;
    if (n == null) {
      int s = slot(r, field);
      byte k = r.block.kinds[s];
      if (k == UTF8) {
        return (byte[]) r.block.objects[s];
      }
      if (k == SLICE) {
        long v = r.block.values[s];
        int from = (int) (v >>> 32);
        return Arrays.copyOfRange(r.block.bytes, from, from + (int) v);
      }
    }
    // Otherwise JSON has no bytes: only a tree built in code could hold them.
    return tree.getBytes(n, field);
  }

  @Override
  public void writeBytesWithLength(Row r, int field, ChunkBuffer out) {
    if (r.tree == null) {
      int s = slot(r, field);
      ParsedBlock b = r.block;
      if (b.kinds[s] == SLICE) {
        // Straight from the input block: no array per string.
        long v = b.values[s];
        int length = (int) v;
        out.writeVarUInt(length);
        out.writeBytes(b.bytes, (int) (v >>> 32), length);
        return;
      }
    }
    RowAccessor.super.writeBytesWithLength(r, field, out);
  }

  private static String sliceText(ParsedBlock b, int s) {
    long v = b.values[s];
    return new String(b.bytes, (int) (v >>> 32), (int) v, StandardCharsets.UTF_8);
  }

  @Override
  public RowAccessor<Object> nested(Row r, int field) {
    // Flat rows hold no containers: only a tree row has nested values.
    return tree.nested(r.tree, field);
  }

  @Override
  public int size(Row r) {
    return columns;
  }
}
