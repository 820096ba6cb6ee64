package dev.handoff.clickhouse.value;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.handoff.api.ChunkBuffer;
import dev.handoff.api.HandoffException;
import dev.handoff.api.row.RowAccessor;
import dev.handoff.api.row.ValueKind;
import dev.handoff.clickhouse.row.RowAccessors;
import dev.handoff.clickhouse.type.ClickHouseType;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@link StringValues} writes a String as its VarUInt length and its UTF-8 bytes on all three
 * paths (short, bulk, char loop above the bulk limit), a FixedString padded, and {@link
 * Containers} fails with the messages both encoders give.
 */
final class StringValuesTest {
  private static final RowAccessor<Object[]> ROWS = RowAccessors.objectArray();
  private static final ClickHouseType STRING = ClickHouseType.parse("String");

  private static byte[] expected(byte[] utf8) {
    ChunkBuffer b = new ChunkBuffer(16);
    b.writeVarUInt(utf8.length);
    b.writeBytes(utf8);
    return b.toByteArray();
  }

  private static byte[] written(StringValues strings, Object value) {
    ChunkBuffer out = new ChunkBuffer(16);
    strings.write(ROWS, new Object[] {value}, 0, STRING, "s", out);
    return out.toByteArray();
  }

  @Test
  void stringsOfEveryLengthAreTheirLengthAndUtf8Bytes() {
    StringValues strings = new StringValues(); // one instance: the scratch grows and is reused
    for (String unit : List.of("a", "é", "日", "😀", "\uD800")) { // the last one is unpaired
      for (int n : new int[] {0, 1, 15, 16, 42, 43, 127, 128, 1000, StringValues.BULK_MAX_CHARS,
          StringValues.BULK_MAX_CHARS + 1}) {
        String s = unit.repeat(n + 1).substring(0, n);
        assertThat(written(strings, s)).as("%d chars of %s", n, unit)
            .isEqualTo(expected(s.getBytes(UTF_8)));
        assertThat(written(strings, new StringBuilder(s))).as("a StringBuilder")
            .isEqualTo(expected(s.getBytes(UTF_8)));
      }
    }
    byte[] raw = {0, (byte) 0xFF, 'x'};
    assertThat(written(strings, raw)).isEqualTo(expected(raw));
    assertThat(written(strings, 42L)).isEqualTo(expected("42".getBytes(UTF_8)));
  }

  @Test
  void oneNonAsciiCharAnywhereInAsciiTextIsStillEncodedAsUtf8() {
    // The ASCII fast path copies chars as bytes after one check: a char it missed would be
    // written as one wrong byte. U+0141 has the low byte of 'A', U+00E9 is Latin-1.
    StringValues strings = new StringValues();
    for (char odd : new char[] {'\u00e9', '\u0141', '\u65e5', '\ud800', '\u0080', '\u007f'}) {
      for (int n : new int[] {1, 2, 15, 16, 17, 40, 127, 128, 129}) {
        for (int at = 0; at < n; at++) {
          char[] chars = "x".repeat(n).toCharArray();
          chars[at] = odd;
          String s = new String(chars);
          assertThat(written(strings, s))
              .as("%d chars, U+%04X at %d", n, (int) odd, at)
              .isEqualTo(expected(s.getBytes(UTF_8)));
        }
      }
    }
  }

  @Test
  void fixedStringsArePaddedAndTooLongOnesRefused() {
    ClickHouseType fixed = ClickHouseType.parse("FixedString(4)");
    ChunkBuffer out = new ChunkBuffer(16);
    StringValues.writeFixed(ROWS, new Object[] {"é"}, 0, fixed, "f", 4, out);
    StringValues.writeFixed(ROWS, new Object[] {new byte[] {1, 2, 3, 4}}, 0, fixed, "f", 4, out);
    assertThat(out.toByteArray())
        .containsExactly((byte) 0xC3, (byte) 0xA9, 0, 0, 1, 2, 3, 4);
    assertThatThrownBy(() -> StringValues.writeFixed(ROWS, new Object[] {"ééé"}, 0, fixed, "f",
        4, out)).isInstanceOf(HandoffException.class)
        .hasMessageContaining("its 6 UTF-8 bytes do not fit FixedString(4)");
    assertThatThrownBy(() -> StringValues.writeFixed(ROWS, new Object[] {new byte[5]}, 0, fixed,
        "f", 4, out)).isInstanceOf(HandoffException.class)
        .hasMessageContaining("5 bytes do not fit FixedString(4)");
    assertThat(out.length()).as("nothing written by a refused value").isEqualTo(8);
  }

  @Test
  void containerChecksFailWithTheEncodersMessages() {
    ClickHouseType tuple = ClickHouseType.parse("Tuple(a Int8, b String)");
    Object[] row = {Map.of("a", 1)};
    assertThatThrownBy(() -> Containers.requireKind(ROWS, new Object[] {null}, 0, tuple, "t",
        ValueKind.SEQUENCE)).isInstanceOf(HandoffException.class)
        .hasMessageContaining("null into a non-Nullable column");
    assertThatThrownBy(() -> Containers.requireKind(ROWS, row, 0, tuple, "t",
        ValueKind.SEQUENCE))
        .hasMessageContaining("expected a list or an array but the value is MAP");
    assertThatThrownBy(() -> Containers.requireTupleSize(ROWS, row, 0, tuple, "t", 2, 1))
        .hasMessageContaining("a tuple of 2 elements needs 2 values, not 1");
    assertThatThrownBy(() -> Containers.requireNamedTupleSize(ROWS, row, 0, tuple, "t", 2, 2))
        .hasMessageContaining("a tuple of 2 elements needs 2 named values, not 1");
    RowAccessor<Object> nested = ROWS.nested(row, 0);
    Object map = ROWS.getObject(row, 0);
    assertThat(Containers.namedValueIndex(ROWS, row, 0, tuple, "t", nested, map, 2, "a"))
        .isEqualTo(1);
    assertThatThrownBy(() -> Containers.namedValueIndex(ROWS, row, 0, tuple, "t", nested, map, 2,
        "b")).hasMessageContaining("has no value for element 'b'");
    Map<Object, Object> nullKey = new HashMap<>(Map.of("k", 1));
    nullKey.put(null, 2);
    Object[] withNullKey = {nullKey};
    RowAccessor<Object> entries = ROWS.nested(withNullKey, 0);
    Object container = ROWS.getObject(withNullKey, 0);
    int fields = entries.size(container);
    int nullKeyAt = entries.isNull(container, 0) ? 0 : 2;
    assertThatThrownBy(() -> Containers.requireMapKey(ROWS, withNullKey, 0,
        ClickHouseType.parse("Map(String, Int8)"), "m", entries, container, nullKeyAt))
        .hasMessageContaining("a map key is null");
    assertThat(fields).isEqualTo(4);
    Containers.requireMapKey(ROWS, withNullKey, 0, ClickHouseType.parse("Map(String, Int8)"),
        "m", entries, container, 2 - nullKeyAt);
  }
}
