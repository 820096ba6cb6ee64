package dev.handoff.clickhouse.hash;

import dev.handoff.clickhouse.testserver.ClickHouseServer;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.List;

/** Asks a real server for hashes of many inputs at once, through a Memory table. */
final class ServerHashes {
  private ServerHashes() {}

  /** Returns {@code function(s)} for every input, in order, computed by the server. */
  static List<Long> ofStrings(ClickHouseServer server, String function, List<byte[]> inputs) {
    String db = server.uniqueDatabase("hash");
    server.execute("CREATE TABLE " + db + ".t (i UInt32, s String) ENGINE = Memory");
    server.query("INSERT INTO " + db + ".t FORMAT RowBinary", stringRows(inputs));
    String text = server.query(
        "SELECT " + function + "(s) FROM " + db + ".t ORDER BY i FORMAT TabSeparated");
    server.execute("DROP DATABASE " + db);
    return parseUnsigned(text);
  }

  /** RowBinary rows {@code (i UInt32, s String)}, {@code i} counting from 0. */
  static byte[] stringRows(List<byte[]> strings) {
    ByteArrayOutputStream body = new ByteArrayOutputStream();
    for (int i = 0; i < strings.size(); i++) {
      writeLong(body, i, 4);
      writeVarUInt(body, strings.get(i).length);
      body.writeBytes(strings.get(i));
    }
    return body.toByteArray();
  }

  static List<Long> parseUnsigned(String text) {
    List<Long> values = new ArrayList<>();
    for (String line : text.split("\n")) {
      if (!line.isEmpty()) {
        values.add(Long.parseUnsignedLong(line));
      }
    }
    return values;
  }

  static void writeLong(ByteArrayOutputStream out, long value, int bytes) {
    for (int i = 0; i < bytes; i++) {
      out.write((int) (value >>> (8 * i)));
    }
  }

  static void writeVarUInt(ByteArrayOutputStream out, long value) {
    while ((value & ~0x7fL) != 0) {
      out.write((int) (value & 0x7f) | 0x80);
      value >>>= 7;
    }
    out.write((int) value);
  }
}
