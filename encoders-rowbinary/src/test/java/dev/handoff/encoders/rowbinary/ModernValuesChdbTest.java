package dev.handoff.encoders.rowbinary;

import static org.assertj.core.api.Assertions.assertThat;

import dev.handoff.api.ChunkBuffer;
import dev.handoff.api.ColumnSpec;
import dev.handoff.api.HandoffException;
import dev.handoff.api.TableSchema;
import dev.handoff.api.spi.RowEncoder;
import dev.handoff.clickhouse.row.RowAccessors;
import dev.handoff.clickhouse.testserver.Chdb;
import dev.handoff.clickhouse.testserver.ChdbSession;
import dev.handoff.encoders.rowbinary.internal.RowBinaryEncoderProvider;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The values of BFloat16, Time and Time64 against a ClickHouse 26.7 engine's own conversions:
 * our BFloat16 of a float or double equals the engine's {@code CAST(x AS BFloat16)} (round to
 * Float32, then truncate), our Time64 of a {@link Duration} prints as the engine prints it, and
 * our Time64 of a time text equals the engine's {@code CAST(text AS Time64(P))}. Seeded sweeps;
 * a mismatch names the seed and the first differing value.
 */
final class ModernValuesChdbTest {
  private static final long SEED = Long.getLong("handoff.seed", 20261204L);
  private static final int N = 20_000;
  private static ChdbSession engine;

  @BeforeAll
  static void open() {
    engine = Chdb.builder().experimentalTypes().open();
  }

  @AfterAll
  static void close() {
    if (engine != null) {
      engine.close();
    }
  }

  private static RowEncoder<Object[]> encoder(String type) {
    return new RowBinaryEncoderProvider().create(
        new TableSchema(List.of(new ColumnSpec("v", type))), RowAccessors.objectArray(),
        Map.of());
  }

  /** Encodes each value alone; refused values are dropped from {@code values}. */
  private static byte[] encodeAccepted(String type, List<Object> values, int width) {
    RowEncoder<Object[]> e = encoder(type);
    ChunkBuffer out = new ChunkBuffer(1 << 16);
    List<Object> accepted = new ArrayList<>();
    for (Object v : values) {
      int before = out.length();
      try {
        e.encode(new Object[] {v}, out);
        accepted.add(v);
      } catch (HandoffException refused) {
        out.truncate(before);
      }
    }
    values.retainAll(accepted);
    return out.toByteArray();
  }

  private static void assertSame(String what, byte[] ours, byte[] engines, int width,
      List<?> values) {
    for (int i = 0; i < Math.min(ours.length, engines.length) / width; i++) {
      if (values.get(i) instanceof Number n && Double.isNaN(n.doubleValue())) {
        // A NaN stays a NaN with its payload where it fits; the engine's CAST quiets a double's
        // and turns a float's whose payload is all in the low half into an infinity.
        int bits = (ours[i * 2] & 0xFF) | (ours[i * 2 + 1] & 0xFF) << 8;
        assertThat((bits & 0x7F80) == 0x7F80 && (bits & 0x7F) != 0)
            .as("%s, seed %d: value %d (NaN) gives a NaN, not %04x", what, SEED, i, bits)
            .isTrue();
        continue;
      }
      for (int b = 0; b < width; b++) {
        if (ours[i * width + b] != engines[i * width + b]) {
          throw new AssertionError(what + ", seed " + SEED + ": value " + i + " ("
              + values.get(i) + ") differs: ours " + hex(ours, i * width, width) + ", engine's "
              + hex(engines, i * width, width));
        }
      }
    }
    assertThat(ours.length).as(what + " sizes, seed " + SEED).isEqualTo(engines.length);
  }

  private static String hex(byte[] b, int from, int n) {
    return java.util.HexFormat.of().formatHex(b, from, from + n);
  }

  @Test
  void bfloat16OfFloats_isTheEnginesCast() {
    SplittableRandom r = new SplittableRandom(SEED);
    ChunkBuffer bits = new ChunkBuffer(4 * N);
    List<Object> values = new ArrayList<>();
    for (int i = 0; i < N; i++) {
      int x = i < 8 ? new int[] {0, 0x8000_0000, 0x7F7F_FFFF, 0xFF7F_FFFF, 0x3DCC_CCCD,
          0x7F80_0000, 0x7FC0_0000, 0x0001_0000}[i] : r.nextInt();
      values.add(Float.intBitsToFloat(x));
    }
    byte[] ours = encodeAccepted("BFloat16", values, 2);
    for (Object v : values) {
      bits.writeIntLE(Float.floatToRawIntBits((Float) v));
    }
    assertThat(values.size()).as("accepted floats").isGreaterThan(N * 9 / 10);
    Path file = engine.writeFile("f32.bin", bits.toByteArray());
    byte[] engines = engine.query("SELECT CAST(reinterpretAsFloat32(b) AS BFloat16) FROM file("
        + Chdb.literal(file.toString()) + ", 'RowBinary', 'b UInt32')", "RowBinary");
    assertSame("BFloat16 of Float32", ours, engines, 2, values);
  }

  @Test
  void bfloat16OfDoubles_isTheEnginesCast() {
    SplittableRandom r = new SplittableRandom(SEED + 1);
    List<Object> values = new ArrayList<>();
    for (int i = 0; i < N; i++) {
      double d = switch (i % 4) {
        case 0 -> r.nextGaussian() * Math.pow(10, r.nextInt(-30, 30));
        case 1 -> 1 + r.nextInt(256) / 128.0 + (r.nextBoolean() ? -1 : 1) * Math.pow(2, -30);
        case 2 -> (double) Float.intBitsToFloat(r.nextInt()) + r.nextDouble() * 1e-9;
        default -> Double.longBitsToDouble(r.nextLong());
      };
      values.add(d);
    }
    byte[] ours = encodeAccepted("BFloat16", values, 2);
    ChunkBuffer bits = new ChunkBuffer(8 * N);
    for (Object v : values) {
      bits.writeLongLE(Double.doubleToRawLongBits((Double) v));
    }
    Path file = engine.writeFile("f64.bin", bits.toByteArray());
    byte[] engines = engine.query("SELECT CAST(reinterpretAsFloat64(b) AS BFloat16) FROM file("
        + Chdb.literal(file.toString()) + ", 'RowBinary', 'b UInt64')", "RowBinary");
    assertSame("BFloat16 of Float64", ours, engines, 2, values);
  }

  /** The engine's text of a Time64(p) value: [-]HH:MM:SS[.fraction], hours at least 2 digits. */
  private static String text(long ticks, int p) {
    long perSecond = (long) Math.pow(10, p);
    long abs = Math.abs(ticks);
    long s = abs / perSecond;
    String t = String.format("%s%02d:%02d:%02d", ticks < 0 ? "-" : "", s / 3600, s / 60 % 60,
        s % 60);
    return p == 0 ? t : t + "." + String.format("%0" + p + "d", abs % perSecond);
  }

  @Test
  void time64OfDurations_printsAsTheEngine_andTextParsesAsTheEngine() {
    for (int p : new int[] {0, 3, 6, 9}) {
      SplittableRandom r = new SplittableRandom(SEED + p);
      String type = p == 0 ? "Time" : "Time64(" + p + ")";
      long perSecond = (long) Math.pow(10, p);
      long max = 3_599_999L * perSecond + perSecond - 1;
      List<Object> durations = new ArrayList<>();
      List<String> expected = new ArrayList<>();
      ChunkBuffer texts = new ChunkBuffer(1 << 16);
      for (int i = 0; i < 2_000; i++) {
        long ticks = i < 2 ? (i == 0 ? max : -max) : r.nextLong(-max, max + 1);
        long nanosPerTick = 1_000_000_000L / perSecond;
        durations.add(Duration.ofSeconds(Math.floorDiv(ticks, perSecond),
            Math.floorMod(ticks, perSecond) * nanosPerTick));
        expected.add(text(ticks, p));
        byte[] s = text(ticks, p).getBytes(java.nio.charset.StandardCharsets.UTF_8);
        texts.writeVarUInt(s.length);
        texts.writeBytes(s);
      }
      int width = p == 0 ? 4 : 8;
      byte[] ours = encodeAccepted(type, durations, width);
      assertThat(durations).hasSize(expected.size());
      Path file = engine.writeFile("t" + p + ".bin", ours);
      String printed = engine.queryText("SELECT toString(v) FROM file("
          + Chdb.literal(file.toString()) + ", 'RowBinary', 'v " + type + "')");
      assertThat(printed.split("\n")).as(type + " printed by the engine, seed " + (SEED + p))
          .containsExactlyElementsOf(expected);

      List<Object> textValues = new ArrayList<>(expected);
      byte[] oursOfText = encodeAccepted(type, textValues, width);
      assertThat(textValues).hasSize(expected.size());
      Path textFile = engine.writeFile("s" + p + ".bin", texts.toByteArray());
      byte[] engines = engine.query("SELECT CAST(s AS " + type + ") FROM file("
          + Chdb.literal(textFile.toString()) + ", 'RowBinary', 's String')", "RowBinary");
      assertSame(type + " of text", oursOfText, engines, width, textValues);
    }
  }
}
