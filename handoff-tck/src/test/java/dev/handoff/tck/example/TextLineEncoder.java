package dev.handoff.tck.example;

import dev.handoff.api.ChunkBuffer;
import dev.handoff.api.HandoffException;
import dev.handoff.api.spi.RowEncoder;
import java.util.List;

/**
 * A minimal row encoder: each {@code Object[]} row becomes one line of text, its values'
 * {@code toString()} separated by tabs. A null value, or one whose text holds a tab or a line
 * break, is a bad record.
 */
public final class TextLineEncoder implements RowEncoder<Object[]> {
  private final List<String> columns;

  /** Creates an encoder for rows with these columns, in order. */
  public TextLineEncoder(List<String> columns) {
    this.columns = List.copyOf(columns);
  }

  @Override
  public void encode(Object[] row, ChunkBuffer buffer) {
    if (row.length != columns.size()) {
      throw HandoffException.data("text-line: the row has " + row.length + " values, "
          + columns + " needs " + columns.size());
    }
    for (int i = 0; i < row.length; i++) {
      String text = String.valueOf(row[i]);
      if (row[i] == null || text.indexOf('\t') >= 0 || text.indexOf('\n') >= 0) {
        // Part of the row may be in the buffer already: the stage truncates it away.
        throw HandoffException.data("text-line: column " + columns.get(i) + ": value " + text
            + (row[i] == null ? ": the format has no null" : ": a tab or line break in a value"));
      }
      if (i > 0) {
        buffer.writeByte('\t');
      }
      buffer.writeUtf8(text);
    }
    buffer.writeByte('\n');
  }

  @Override
  public RowEncoder<Object[]> newInstance() {
    return new TextLineEncoder(columns);
  }
}
