package dev.handoff.cli;

import dev.handoff.api.ColumnSpec;
import dev.handoff.api.TableSchema;
import dev.handoff.api.row.RowAccessor;
import dev.handoff.clickhouse.json.JsonRows;
import dev.handoff.tck.RowAccessorContract;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The TCK's accessor contract for {@link BlockRows}, the accessor the encoder reads ingest's rows
 * through: flat rows (numbers, booleans, strings left in the block's bytes, decoded strings,
 * nulls, missing fields) and a row kept as a JSON tree, all of one block, so that a field past
 * the row would read its neighbour's slot if nothing checked it.
 */
final class BlockRowsAccessorContractTest extends RowAccessorContract<BlockRows.Row> {

  static final List<String> COLUMNS = List.of("id", "name", "note", "ts", "x", "flag", "big");

  private static final String[] LINES = {
    "{\"id\":7,\"name\":\"plain\",\"note\":null,\"x\":1.5,\"flag\":true,"
        + "\"big\":18446744073709551615}",
    "{\"id\":8,\"name\":\"esc\\\"aped\",\"note\":\"\u00e9 \u00fc\",\"ts\":\"2026-12-03 08:00:00\","
        + "\"x\":2,\"flag\":false}",
    "{\"id\":9,\"name\":\"t\",\"note\":[\"a\"]}",
    "{\"name\":\"\",\"big\":-1}",
  };

  @Override
  protected RowAccessor<BlockRows.Row> accessor() {
    TableSchema schema = TableSchema.of(new ColumnSpec("id", "Int64"),
        new ColumnSpec("name", "String"), new ColumnSpec("note", "Array(String)"),
        new ColumnSpec("ts", "String"), new ColumnSpec("x", "Float64"),
        new ColumnSpec("flag", "UInt8"), new ColumnSpec("big", "Int128"));
    return new BlockRows(JsonRows.accessor(schema), COLUMNS.size());
  }

  @Override
  protected List<Sample<BlockRows.Row>> samples() {
    byte[] bytes = (String.join("\n", LINES) + "\n").getBytes(StandardCharsets.UTF_8);
    ParsedBlock b = new ParsedBlock(0, bytes.length, 0, bytes);
    new LineParser(COLUMNS, false, false, null, List.of(), Set.of(), Set.of("name", "note"))
        .parse(b);
    List<Sample<BlockRows.Row>> samples = new ArrayList<>();
    samples.add(new Sample<>("flat: numbers, a plain string, a null", new BlockRows.Row().at(b, 0),
        List.of(Expected.ofLong(7), bytes("plain"), Expected.ofNull(), Expected.ofNull(),
            Expected.ofDouble(1.5), Expected.ofBoolean(true),
            Expected.ofBigInteger(new BigInteger("18446744073709551615")))));
    samples.add(new Sample<>("flat: escaped and non-ASCII strings, text",
        new BlockRows.Row().at(b, 1),
        List.of(Expected.ofLong(8), bytes("esc\"aped"), bytes("\u00e9 \u00fc"),
            Expected.ofText("2026-12-03 08:00:00"), Expected.ofLong(2),
            Expected.ofBoolean(false), Expected.ofNull())));
    samples.add(new Sample<>("a tree: an array value", new BlockRows.Row().at(b, 2),
        List.of(Expected.ofLong(9), Expected.ofText("t"), Expected.sequence(Expected.ofText("a")),
            Expected.ofNull(), Expected.ofNull(), Expected.ofNull(), Expected.ofNull())));
    samples.add(new Sample<>("flat: an empty string, missing fields", new BlockRows.Row().at(b, 3),
        List.of(Expected.ofNull(), bytes(""), Expected.ofNull(), Expected.ofNull(),
            Expected.ofNull(), Expected.ofNull(), Expected.ofLong(-1))));
    if (b.nodes[0] != null || b.nodes[1] != null || b.nodes[3] != null || b.nodes[2] == null) {
      throw new AssertionError("the samples are not read as the test means: rows 0, 1 and 3"
          + " flat, row 2 a tree");
    }
    if (b.kinds[1] != BlockRows.SLICE) {
      throw new AssertionError("row 0's plain string is not a slice of the block: kind "
          + b.kinds[1]);
    }
    return samples;
  }

  private static Expected bytes(String s) {
    return Expected.ofBytes(s.getBytes(StandardCharsets.UTF_8));
  }
}
