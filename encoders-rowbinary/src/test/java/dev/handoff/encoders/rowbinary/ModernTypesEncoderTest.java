package dev.handoff.encoders.rowbinary;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.handoff.api.ChunkBuffer;
import dev.handoff.api.ColumnSpec;
import dev.handoff.api.ErrorClass;
import dev.handoff.api.HandoffException;
import dev.handoff.api.TableSchema;
import dev.handoff.api.spi.RowEncoder;
import dev.handoff.clickhouse.row.RowAccessors;
import dev.handoff.encoders.rowbinary.internal.RowBinaryEncoderProvider;
import java.time.Duration;
import java.time.LocalTime;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The Java values the types of ClickHouse 20-26 take in RowBinary, and the errors of bad ones:
 * each a DATA error naming the column (with its path), the type, the value and the reason.
 */
final class ModernTypesEncoderTest {

  /** A Point as a record. */
  public record Pt(double x, double y) {}

  /** A named tuple as a record; the component order differs from the type's. */
  public record Ba(String b, long a) {}

  private static String hex(String type, Object value) {
    RowEncoder<Object[]> e = new RowBinaryEncoderProvider().create(
        new TableSchema(List.of(new ColumnSpec("v", type))), RowAccessors.objectArray(),
        Map.of());
    ChunkBuffer out = new ChunkBuffer(64);
    e.encode(new Object[] {value}, out);
    return HexFormat.of().formatHex(out.toByteArray());
  }

  static List<Arguments> values() {
    return List.of(
        Arguments.of("BFloat16", 1.5f, "c03f"),
        Arguments.of("BFloat16", 0.1, "cc3d"),                     // 0x3DCCCCCD truncated
        Arguments.of("BFloat16", 1.01171875, "813f"),              // halfway rounds down
        Arguments.of("BFloat16", 3.4e38, "7f7f"),                  // stays finite
        Arguments.of("BFloat16", -0.0, "0080"),
        Arguments.of("BFloat16", "inf", "807f"),
        Arguments.of("BFloat16", 3L, "4040"),
        Arguments.of("BFloat16", Float.intBitsToFloat(0x7F80_0001), "c07f"), // NaN stays NaN
        Arguments.of("Time", LocalTime.of(23, 59, 59, 999_000_000), "7f510100"),
        Arguments.of("Time", Duration.ofSeconds(-3723), "75f1ffff"),
        Arguments.of("Time", Duration.ofMillis(-1), "ffffffff"),     // floored
        Arguments.of("Time", "-999:59:59", "81 11 c9 ff"),
        Arguments.of("Time", 3599999L, "7fee3600"),
        Arguments.of("Time64(3)", "12:34:56.789", "952cb30200000000"),
        Arguments.of("Time64(3)", "-00:00:00.0001", "ffffffffffffffff"), // floored
        Arguments.of("Time64(3)", Duration.ofNanos(1_999_999), "0100000000000000"),
        Arguments.of("Time64(3)", 5L, "0500000000000000"),            // ticks
        Arguments.of("SimpleAggregateFunction(sum, UInt64)", 1L, "0100000000000000"),
        Arguments.of("Point", new Pt(1.5, -2.5), "000000000000f83f00000000000004c0"),
        Arguments.of("Point", new double[] {1.5, -2.5}, "000000000000f83f00000000000004c0"),
        Arguments.of("Ring", List.of(new Pt(0, 0)), "01" + "00".repeat(16)),
        Arguments.of("Nullable(Tuple(a UInt8, b String))", new Ba("x", 7), "00070178"),
        Arguments.of("Nullable(Tuple(a UInt8, b String))", null, "01"),
        Arguments.of("Tuple(String, UInt8)", new Ba("x", 7), "017807"), // by position
        Arguments.of("QBit(Int8, 3)", new int[] {-1, 0, 127}, "03ff007f"),
        Arguments.of("Enum('a', 'b')", "b", "02"));
  }

  @ParameterizedTest(name = "{0} <- {1}")
  @MethodSource("values")
  void writes(String type, Object value, String expectedHex) {
    assertThat(hex(type, value)).isEqualTo(expectedHex.replace(" ", ""));
  }

  static List<Arguments> errors() {
    return List.of(
        Arguments.of("BFloat16", 1e-46, "column \"v\" (BFloat16): value 1.0E-46 (DOUBLE) is too"
            + " small for a Float32 (it would become 0)"),
        Arguments.of("BFloat16", 1e-41, "column \"v\" (BFloat16): value 1.0E-41 (DOUBLE) is too"
            + " small for a BFloat16 (it would become 0)"),
        Arguments.of("BFloat16", "x", "column \"v\" (BFloat16): value \"x\" (TEXT) is not a"
            + " number"),
        Arguments.of("Time", Duration.ofHours(1000), "column \"v\" (Time): value PT1000H (OTHER)"
            + " is out of range -999:59:59..999:59:59"),
        Arguments.of("Time64(3)", "12:60:00", "column \"v\" (Time64(3)): value \"12:60:00\""
            + " (TEXT) is not a time ([-]H:MM:SS[.fraction], up to 999 hours)"),
        Arguments.of("Time64(3)", 3_600_000_000L, "column \"v\" (Time64(3)): value 3600000000"
            + " (LONG) is out of range -999:59:59.999..999:59:59.999"),
        Arguments.of("Time64(9)", Duration.ofSeconds(Long.MIN_VALUE), "(OTHER) is out of range"
            + " -999:59:59.999999999..999:59:59.999999999"),
        Arguments.of("Time64(9)", Duration.ofSeconds(Long.MAX_VALUE, 999_999_999), "(OTHER) is"
            + " out of range -999:59:59.999999999..999:59:59.999999999"),
        Arguments.of("Time", java.time.Instant.EPOCH, "column \"v\" (Time): value"
            + " 1970-01-01T00:00:00Z (TEMPORAL): cannot convert TEMPORAL to Time"),
        Arguments.of("QBit(Float32, 3)", List.of(1.0, 2.0), "column \"v\" (QBit(Float32, 3)):"
            + " value [1.0, 2.0] (SEQUENCE) has 2 elements, but QBit(Float32, 3) holds exactly 3"),
        Arguments.of("QBit(Int8, 2)", List.of(1L, 300L), "column \"v[]\" (Int8): value 300"
            + " (LONG) is out of range -128..127"),
        Arguments.of("Point", List.of(1.0), "column \"v\" (Point): value [1.0] (SEQUENCE)"),
        Arguments.of("Ring", List.of(new Pt(0, 0), List.of("x", 1.0)), "column \"v[].1\""
            + " (Float64): value \"x\" (TEXT)"),
        Arguments.of("Point", new Ba("x", 1), "column \"v.1\" (Float64): value \"x\" (TEXT)"),
        Arguments.of("SimpleAggregateFunction(max, Int32)", 1L << 31, "column \"v\" (Int32):"
            + " value 2147483648 (LONG) is out of range -2147483648..2147483647"),
        Arguments.of("Nullable(Tuple(a UInt8, b String))", Map.of("a", 1L), "column \"v\""
            + " (Tuple(a UInt8, b String)): value"));
  }

  @ParameterizedTest(name = "{0} <- {1}")
  @MethodSource("errors")
  void refusesWithColumnValueAndReason(String type, Object value, String message) {
    assertThatThrownBy(() -> hex(type, value))
        .isInstanceOf(HandoffException.class)
        .hasMessageContaining(message)
        .satisfies(e -> assertThat(((HandoffException) e).errorClass())
            .isEqualTo(ErrorClass.DATA));
  }

  @Test
  void aRecordOfAnInaccessibleClass_isADataErrorThatSaysWhy() {
    record Hidden(double x, double y) {}
    // A local record is not public: its accessors cannot be invoked from another module unless
    // the package is open to it (the test classes are patched into this module, not opened).
    try {
      String h = hex("Point", new Hidden(1, 2));
      assertThat(h).isEqualTo("000000000000f03f0000000000000040"); // open after all
    } catch (HandoffException e) {
      assertThat(e.errorClass()).isEqualTo(ErrorClass.DATA);
      assertThat(e.getMessage()).contains("column \"v\" (Point)").contains("not accessible");
    }
  }
}
