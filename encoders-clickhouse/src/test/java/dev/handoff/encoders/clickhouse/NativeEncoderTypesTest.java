package dev.handoff.encoders.clickhouse;

import static dev.handoff.encoders.clickhouse.NativeTesting.block;
import static dev.handoff.encoders.clickhouse.NativeTesting.hex;
import static dev.handoff.encoders.clickhouse.NativeTesting.hexOf;
import static dev.handoff.encoders.clickhouse.NativeTesting.oneColumn;
import static dev.handoff.encoders.clickhouse.NativeTesting.schema;
import static dev.handoff.encoders.clickhouse.NativeTesting.u64;
import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/*
 * Every type's Native bytes against the hand-computed examples of clickhouse-formats.md
 * (sections 2 and 4): one column "c", the block header, then the column data.
 */
class NativeEncoderTypesTest {

  /** Encodes one column of {@code type} with the given values and checks the data bytes. */
  private static void check(String type, String dataHex, Object... values) {
    List<Object[]> rows = new ArrayList<>();
    for (Object v : values) {
      rows.add(new Object[] {v});
    }
    byte[] got = block(schema("c", type), rows);
    byte[] want = oneColumn(type, values.length, dataHex);
    assertThat(hexOf(got)).as(type).isEqualTo(hexOf(want));
  }

  @Test
  void twoColumnExampleOfSection21() {
    byte[] got = block(schema("a", "Int8", "s", "String"),
        List.<Object[]>of(new Object[] {-1, "x"}));
    assertThat(hexOf(got)).isEqualTo(hexOf(hex(
        "02 01 01 61 04 49 6E 74 38 FF 01 73 06 53 74 72 69 6E 67 01 78")));
  }

  @Test
  void integers() {
    check("Int8", "80 7f", -128, 127);
    check("UInt8", "ff", 255);
    check("Int16", "00 80", -32768);
    check("Int32", "00 00 00 80", Integer.MIN_VALUE);
    check("Int64", "00 00 00 00 00 00 00 80", Long.MIN_VALUE);
    check("UInt64", "ff ff ff ff ff ff ff ff", new BigInteger("18446744073709551615"));
    check("Int128", "ff".repeat(16), -1);
    check("UInt128", "00".repeat(8) + "01" + "00".repeat(7), BigInteger.ONE.shiftLeft(64));
    check("UInt256", "64" + "00".repeat(31), 100);
    check("Int128", "00".repeat(15) + "80", BigInteger.ONE.shiftLeft(127).negate());
  }

  @Test
  void floatsBoolDecimals() {
    check("Float32", "00 00 00 80 00 00 C0 3F", -0.0f, 1.5f);
    check("Float64", "9A 99 99 99 99 99 B9 3F", 0.1);
    check("Bool", "01 00", true, false);
    check("Decimal(9, 2)", "6A FF FF FF FF C9 9A 3B", new BigDecimal("-1.50"),
        new BigDecimal("9999999.99"));
    check("Decimal(18, 18)", "FF FF 63 A7 B3 B6 E0 0D", new BigDecimal("0.999999999999999999"));
    check("Decimal(76, 10)", "00 2A EE 81 FC" + "FF".repeat(27), new BigDecimal("-1.5"));
    check("Decimal(38, 0)", "01" + "00".repeat(15), 1);
  }

  @Test
  void strings() {
    check("String", "09 E6 97 A5 E6 9C AC E8 AA 9E 03 61 00 62 00", "日本語", "a\0b", "");
    check("String", "02 01 02", new byte[] {1, 2});
    String longText = "x".repeat(300);
    check("String", "AC 02" + "78".repeat(300), longText);
    check("FixedString(4)", "00 00 00 00 61 00 00 00 68 C3 A9 00 61 00 62 00", "", "a", "hé",
        "a\0b");
  }

  @Test
  void datesUuidIpEnum() {
    check("Date", "00 00 08 2B", "1970-01-01", "2000-02-29");
    check("Date32", "21 9C FF FF", "1900-01-01");
    check("DateTime", "68 5B F4 65", "2024-03-15T14:30:00Z");
    check("DateTime64(3)", "BB 0E 85 42 8E 01 00 00", "2024-03-15T14:30:00.123Z");
    check("UUID", "77 66 55 44 33 22 11 00 FF EE DD CC BB AA 99 88",
        UUID.fromString("00112233-4455-6677-8899-aabbccddeeff"));
    check("IPv4", "0A 01 A8 C0", "192.168.1.10");
    check("IPv6", "20 01 0D B8" + "00".repeat(11) + "01", "2001:db8::1");
    check("Enum8('neg' = -128, 'a' = 1)", "80 01", "neg", "a");
    check("Enum16('lo' = -32768, 'ü' = 1000)", "00 80 E8 03", "lo", "ü");
  }

  @Test
  void nullable() {
    check("Nullable(Int32)", "01 00 01 00 01 00000000 01000000 00000000 FDFFFFFF 00000000",
        null, 1, null, -3, null);
    check("Nullable(String)", "01 00 00 01 61", null, "a");
    check("Nullable(FixedString(2))", "01 00 0000 6162", null, "ab");
    check("Nullable(UUID)", "01" + "00".repeat(16), (Object) null);
  }

  @Test
  void arrays() {
    check("Array(Int32)", u64(0) + u64(1) + u64(4) + u64(4) + u64(5)
            + "01000000 01000000 02000000 03000000 FFFFFFFF",
        List.of(), List.of(1), List.of(1, 2, 3), List.of(), List.of(-1));
    check("Array(Array(Int32))", u64(2) + u64(2) + u64(4) + u64(5)
            + u64(2) + u64(2) + u64(3) + u64(6) + u64(6)
            + "01000000 02000000 03000000 04000000 05000000 06000000",
        List.of(List.of(1, 2), List.of()), List.of(), List.of(List.of(3), List.of(4, 5, 6)),
        List.of(List.of()));
    check("Array(Nullable(String))", u64(3) + "00 01 00" + "01 61 00 01 62",
        Arrays.asList("a", null, "b"));
    check("Array(String)", u64(0) + u64(0), List.of(), List.of());
  }

  @Test
  void tupleMapNested() {
    check("Tuple(Int8, String)", "01 FF 7F 01 61 00 03 78 79 7A", List.of(1, "a"),
        List.of(-1, ""), List.of(127, "xyz"));
    Map<String, Object> named = new LinkedHashMap<>();
    named.put("b", "q");
    named.put("a", 5);
    check("Tuple(a Int8, b String)", "05 01 71", named);
    Map<String, Object> m1 = new LinkedHashMap<>();
    m1.put("a", 1);
    m1.put("b", 2);
    check("Map(String, UInt64)", u64(2) + u64(2) + u64(3) + "01 61 01 62 01 63"
        + u64(1) + u64(2) + u64(3), m1, Map.of(), Map.of("c", 3));
    check("Nested(a UInt8, b String)", u64(2) + "01 02 01 78 00", List.of(List.of(1, "x"),
        List.of(2, "")));
  }

  @Test
  void lowCardinality() {
    check("LowCardinality(String)", u64(1) + u64(0x600) + u64(4) + "00 01 61 01 62 01 63"
        + u64(5) + "01 02 01 00 03", "a", "b", "a", "", "c");
    check("LowCardinality(Nullable(String))", u64(1) + u64(0x600) + u64(4) + "00 00 01 61 01 62"
        + u64(6) + "00 02 00 01 03 00", null, "a", null, "", "b", null);
    check("Array(LowCardinality(String))", u64(1) + u64(3) + u64(3) + u64(4) + u64(0x600)
        + u64(4) + "00 01 61 01 62 01 63" + u64(4) + "01 02 01 03",
        List.of("a", "b", "a"), List.of(), List.of("c"));
    // Zero values at the nested level: prefix and offsets only.
    check("Array(LowCardinality(String))", u64(1) + u64(0) + u64(0), List.of(), List.of());
    check("Map(LowCardinality(String), LowCardinality(String))", u64(1) + u64(1) + u64(0),
        Map.of());
    check("LowCardinality(Int32)", u64(1) + u64(0x600) + u64(2) + "00000000 07000000" + u64(3)
        + "01 00 01", 7, 0, 7);
  }

  @Test
  void lowCardinalityKeyWidthGrowsAt256Entries() {
    Object[] v255 = new Object[254]; // + default = 255 entries: UInt8 keys
    Object[] v256 = new Object[255]; // + default = 256 entries: UInt16 keys
    for (int i = 0; i < v256.length; i++) {
      v256[i] = "v" + i;
      if (i < v255.length) {
        v255[i] = "v" + i;
      }
    }
    byte[] b255 = block(schema("c", "LowCardinality(String)"), rowsOf(v255));
    byte[] b256 = block(schema("c", "LowCardinality(String)"), rowsOf(v256));
    // 1 byte column count, 2 bytes row count, name and type, 8 bytes version.
    int flagsAt = 3 + NativeTesting.nameType("c", "LowCardinality(String)").length + 8;
    assertThat(b255[flagsAt]).isEqualTo((byte) 0x00);
    assertThat(b255[flagsAt + 1]).isEqualTo((byte) 0x06);
    assertThat(b256[flagsAt]).isEqualTo((byte) 0x01);
    assertThat(b256[flagsAt + 8]).isEqualTo((byte) 0x00); // dictionary size 256 = 00 01 ...
    assertThat(b256[flagsAt + 9]).isEqualTo((byte) 0x01);
    // One more entry ("v254": 5 bytes), and 255 two-byte keys instead of 254 one-byte keys.
    assertThat(b256.length - b255.length).isEqualTo(5 + (510 - 254));
    assertThat(b256[b256.length - 2]).isEqualTo((byte) 255); // last key 255, UInt16 LE
    assertThat(b256[b256.length - 1]).isEqualTo((byte) 0);
  }

  private static List<Object[]> rowsOf(Object[] values) {
    List<Object[]> rows = new ArrayList<>();
    for (Object v : values) {
      rows.add(new Object[] {v});
    }
    return rows;
  }
}
