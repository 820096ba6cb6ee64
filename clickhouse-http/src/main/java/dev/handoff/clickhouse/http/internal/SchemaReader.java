package dev.handoff.clickhouse.http.internal;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.util.ArrayList;
import java.util.List;

/** Reads a {@code FORMAT RowBinary} result whose columns are all {@code String}. */
public final class SchemaReader {
  private SchemaReader() {}

  /**
   * Returns the rows of {@code data}, {@code width} strings each.
   *
   * @throws IllegalStateException if the bytes end inside a row
   */
  public static List<String[]> strings(byte[] data, int width) {
    List<String[]> rows = new ArrayList<>();
    int[] pos = {0};
    while (pos[0] < data.length) {
      String[] row = new String[width];
      for (int i = 0; i < width; i++) {
        long len = Bytes.varUInt(data, pos, data.length);
        if (len < 0 || len > data.length - pos[0]) {
          throw new IllegalStateException("truncated RowBinary result at byte " + pos[0]);
        }
        row[i] = new String(data, pos[0], (int) len, UTF_8);
        pos[0] += (int) len;
      }
      rows.add(row);
    }
    return rows;
  }
}
