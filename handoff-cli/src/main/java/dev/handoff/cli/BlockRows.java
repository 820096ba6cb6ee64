package dev.handoff.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.handoff.api.row.RowAccessor;
import dev.handoff.api.row.ValueKind;
import java.math.BigDecimal;
import java.math.BigInteger;

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

  /** A row of a block: the cursor the source pushes (one per source, moved for each row). */
  static final class Row {
    ParsedBlock block;
    int row;

    /** Points the cursor at row {@code i} of block {@code b} and returns it. */
    Row at(ParsedBlock b, int i) {
      block = b;
      row = i;
      return this;
    }
  }

  private final RowAccessor<JsonNode> tree;
  private final int columns;

  /**
   * Creates the accessor.
   *
   * @param tree the accessor of rows kept as trees
   * @param columns the table's number of columns
   */
  BlockRows(RowAccessor<JsonNode> tree, int columns) {
    this.tree = tree;
    this.columns = columns;
  }

  private static int slot(Row r, int field) {
    return r.row * r.block.columns + field;
  }

  @Override
  public ValueKind kind(Row r, int field) {
    JsonNode n = r.block.nodes[r.row];
    if (n != null) {
      return tree.kind(n, field);
    }
    switch (r.block.kinds[slot(r, field)]) {
      case INT:
      case LONG:
        return ValueKind.LONG;
      case DOUBLE:
        return ValueKind.DOUBLE;
      case TEXT:
        return ValueKind.TEXT;
      case BOOLEAN:
        return ValueKind.BOOLEAN;
      case BIG_INTEGER:
        return ValueKind.BIG_INTEGER;
      default:
        return ValueKind.NULL;
    }
  }

  @Override
  public boolean isNull(Row r, int field) {
    JsonNode n = r.block.nodes[r.row];
    if (n != null) {
      return tree.isNull(n, field);
    }
    return r.block.kinds[slot(r, field)] == NULL;
  }

  @Override
  public Object getObject(Row r, int field) {
    JsonNode n = r.block.nodes[r.row];
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
        return b.objects[s];
      default:
        return null;
    }
  }

  @Override
  public boolean getBoolean(Row r, int field) {
    JsonNode n = r.block.nodes[r.row];
    return n != null ? tree.getBoolean(n, field) : r.block.values[slot(r, field)] != 0;
  }

  @Override
  public long getLong(Row r, int field) {
    JsonNode n = r.block.nodes[r.row];
    return n != null ? tree.getLong(n, field) : r.block.values[slot(r, field)];
  }

  @Override
  public double getDouble(Row r, int field) {
    JsonNode n = r.block.nodes[r.row];
    return n != null ? tree.getDouble(n, field)
        : Double.longBitsToDouble(r.block.values[slot(r, field)]);
  }

  @Override
  public BigInteger getBigInteger(Row r, int field) {
    JsonNode n = r.block.nodes[r.row];
    return n != null ? tree.getBigInteger(n, field) : (BigInteger) r.block.objects[slot(r, field)];
  }

  @Override
  public BigDecimal getBigDecimal(Row r, int field) {
    // Flat rows hold no decimals (exact decimals are read as trees).
    return tree.getBigDecimal(r.block.nodes[r.row], field);
  }

  @Override
  public CharSequence getText(Row r, int field) {
    JsonNode n = r.block.nodes[r.row];
    return n != null ? tree.getText(n, field) : (CharSequence) r.block.objects[slot(r, field)];
  }

  @Override
  public byte[] getBytes(Row r, int field) {
    // JSON has no bytes: only a tree built in code could hold them.
    return tree.getBytes(r.block.nodes[r.row], field);
  }

  @Override
  public RowAccessor<Object> nested(Row r, int field) {
    // Flat rows hold no containers: only a tree row has nested values.
    return tree.nested(r.block.nodes[r.row], field);
  }

  @Override
  public int size(Row r) {
    return columns;
  }
}
