package dev.handoff.encoders.rowbinary;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.handoff.api.ChunkBuffer;
import dev.handoff.api.HandoffException;
import dev.handoff.api.row.RowAccessor;
import dev.handoff.api.row.ValueKind;
import dev.handoff.api.ColumnSpec;
import dev.handoff.api.spi.RowEncoder;
import dev.handoff.api.TableSchema;
import dev.handoff.clickhouse.row.RowAccessors;
import dev.handoff.clickhouse.type.ClickHouseType;
import dev.handoff.clickhouse.value.Conversions;
import dev.handoff.encoders.rowbinary.internal.RowBinaryEncoderProvider;
import java.math.BigInteger;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The integer and Float64 writers read a LONG (DOUBLE) straight from the accessor when it is in
 * the type's range, and leave everything else to {@link Conversions}: both paths write the same
 * bytes, and every rejected value gets exactly the error Conversions gives.
 */
final class DirectPathTest {

  private static RowEncoder<Object[]> encoder(String type) {
    return new RowBinaryEncoderProvider().create(
        new TableSchema(List.of(new ColumnSpec("v", type))), RowAccessors.objectArray(), Map.of());
  }

  private static byte[] encode(String type, Object value) {
    ChunkBuffer buf = new ChunkBuffer(16);
    encoder(type).encode(new Object[] {value}, buf);
    return buf.toByteArray();
  }

  /** Little-endian bytes of v's low {@code width} bytes. */
  private static byte[] le(long v, int width) {
    byte[] b = new byte[width];
    for (int i = 0; i < width; i++) {
      b[i] = (byte) (v >>> (8 * i));
    }
    return b;
  }

  @Test
  void integerTypes_edgesInRange_andJustOutside() {
    record Range(String type, int width, long min, long max) {}
    List<Range> ranges = List.of(
        new Range("Int8", 1, Byte.MIN_VALUE, Byte.MAX_VALUE),
        new Range("UInt8", 1, 0, 255),
        new Range("Int16", 2, Short.MIN_VALUE, Short.MAX_VALUE),
        new Range("UInt16", 2, 0, 65535),
        new Range("Int32", 4, Integer.MIN_VALUE, Integer.MAX_VALUE),
        new Range("UInt32", 4, 0, 0xFFFF_FFFFL),
        new Range("Int64", 8, Long.MIN_VALUE, Long.MAX_VALUE),
        new Range("UInt64", 8, 0, Long.MAX_VALUE));
    for (Range r : ranges) {
      for (long v : new long[] {r.min(), r.max(), 0, 1, r.min() / 2, r.max() / 2}) {
        assertThat(encode(r.type(), v)).as("%s %d", r.type(), v).isEqualTo(le(v, r.width()));
      }
      if (r.min() != Long.MIN_VALUE) {
        assertSameError(r.type(), r.min() - 1);
        if (r.min() - 1 >= Integer.MIN_VALUE) {
          assertSameError(r.type(), (int) (r.min() - 1)); // an Integer, also kind LONG
        }
      }
      if (r.max() != Long.MAX_VALUE) {
        assertSameError(r.type(), r.max() + 1);
      }
    }
    // Not LONG: still Conversions' result (a UInt64 beyond Long.MAX_VALUE, integral doubles).
    assertThat(encode("UInt64", BigInteger.TWO.pow(64).subtract(BigInteger.ONE)))
        .isEqualTo(le(-1, 8));
    assertThat(encode("Int32", 7.0)).isEqualTo(le(7, 4));
    assertThat(encode("UInt8", true)).isEqualTo(le(1, 1));
    assertThat(encode("Int16", (short) -3)).isEqualTo(le(-3, 2));
    assertSameError("Int32", 0.5);
    assertSameError("Int64", "x");
    assertSameError("UInt64", null);
  }

  @Test
  void float64_takesDoublesAsTheyAre_andTheRestThroughConversions() {
    long nanBits = 0x7ff8_0000_dead_beefL;
    assertThat(encode("Float64", Double.longBitsToDouble(nanBits))).isEqualTo(le(nanBits, 8));
    assertThat(encode("Float64", -0.0)).isEqualTo(le(Double.doubleToRawLongBits(-0.0), 8));
    assertThat(encode("Float64", 3L)).isEqualTo(le(Double.doubleToRawLongBits(3.0), 8));
    assertThat(encode("Float64", 0.25f)).isEqualTo(le(Double.doubleToRawLongBits(0.25), 8));
    assertSameError("Float64", (1L << 53) + 1);
    assertSameError("Float64", "one");
  }

  @Test
  void anAdapterThatFails_getsConversionsError() {
    RowAccessor<Object[]> broken = new RowAccessor<>() {
      @Override
      public ValueKind kind(Object[] row, int field) {
        return ValueKind.LONG;
      }

      @Override
      public Object getObject(Object[] row, int field) {
        throw new IllegalStateException("adapter broke");
      }
    };
    for (String type : new String[] {"Int32", "Float64"}) {
      RowEncoder<Object[]> e = new RowBinaryEncoderProvider().create(
          new TableSchema(List.of(new ColumnSpec("v", type))), broken, Map.of());
      String expected = errorOf(() -> {
        if (type.equals("Int32")) {
          Conversions.toLong(broken, new Object[1], 0, ClickHouseType.parse(type), "v");
        } else {
          Conversions.toDouble(broken, new Object[1], 0, ClickHouseType.parse(type), "v");
        }
      });
      assertThatThrownBy(() -> e.encode(new Object[1], new ChunkBuffer(8)))
          .isInstanceOf(HandoffException.class).hasMessage(expected);
    }
  }

  private static void assertSameError(String type, Object value) {
    RowAccessor<Object[]> acc = RowAccessors.objectArray();
    Object[] row = {value};
    ClickHouseType t = ClickHouseType.parse(type);
    String expected = errorOf(() -> {
      if (type.equals("Float64")) {
        Conversions.toDouble(acc, row, 0, t, "v");
      } else {
        Conversions.toLong(acc, row, 0, t, "v");
      }
    });
    assertThatThrownBy(() -> encoder(type).encode(row, new ChunkBuffer(8)))
        .as("%s %s", type, value).isInstanceOf(HandoffException.class).hasMessage(expected);
  }

  private static String errorOf(Runnable conversion) {
    try {
      conversion.run();
    } catch (HandoffException e) {
      return e.getMessage();
    }
    throw new AssertionError("Conversions accepted the value");
  }
}
