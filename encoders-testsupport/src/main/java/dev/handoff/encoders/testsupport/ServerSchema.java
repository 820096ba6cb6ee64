package dev.handoff.encoders.testsupport;

import static java.nio.charset.StandardCharsets.UTF_8;

import dev.handoff.api.ColumnSpec;
import dev.handoff.api.TableSchema;
import dev.handoff.clickhouse.testserver.ClickHouseServer;
import java.util.ArrayList;
import java.util.List;

/** What a real server says about a table, read without text escaping. */
public final class ServerSchema {
  private ServerSchema() {}

  /**
   * Returns the table's columns as the server reports them: {@code name} and {@code type} from
   * {@code system.columns}, read in RowBinary so no text escaping is involved.
   */
  public static TableSchema of(ClickHouseServer server, String db, String table) {
    byte[] out = server.queryBytes("SELECT name, type FROM system.columns WHERE database = '"
        + db + "' AND table = '" + table + "' FORMAT RowBinary");
    List<ColumnSpec> columns = new ArrayList<>();
    int[] pos = {0};
    while (pos[0] < out.length) {
      columns.add(new ColumnSpec(readString(out, pos), readString(out, pos)));
    }
    return new TableSchema(columns);
  }

  private static String readString(byte[] b, int[] pos) {
    long len = 0;
    int shift = 0;
    while (true) {
      int c = b[pos[0]++] & 0xFF;
      len |= (long) (c & 0x7F) << shift;
      shift += 7;
      if (c < 0x80) {
        break;
      }
    }
    String s = new String(b, pos[0], (int) len, UTF_8);
    pos[0] += (int) len;
    return s;
  }
}
