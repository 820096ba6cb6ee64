package dev.handoff.encoders.rowbinary;

import static org.assertj.core.api.Assertions.assertThat;

import dev.handoff.api.ChunkBuffer;
import dev.handoff.api.ColumnSpec;
import dev.handoff.api.spi.RowEncoder;
import dev.handoff.api.TableSchema;
import dev.handoff.clickhouse.row.RowAccessors;
import dev.handoff.encoders.rowbinary.internal.RowBinaryEncoderProvider;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * String columns write {@code String.getBytes(UTF_8)} after its varint length, whichever path
 * the writer takes: the char loop (short strings, any CharSequence) or the bulk encoder (String
 * of 16 chars and more), across the scratch array's growth and the 128-byte varint boundary.
 */
final class StringEncodingTest {
  private final RowEncoder<Object[]> encoder = new RowBinaryEncoderProvider().create(
      new TableSchema(List.of(new ColumnSpec("s", "String"), new ColumnSpec("n", "Nullable(String)"),
          new ColumnSpec("l", "LowCardinality(String)"))),
      RowAccessors.objectArray(), Map.of());

  @Test
  void randomStrings_encodeAsTheJdkDoes() {
    SplittableRandom random = new SplittableRandom(7);
    ChunkBuffer buf = new ChunkBuffer(16);
    for (int i = 0; i < 3_000; i++) {
      int length = i < 2_000 ? random.nextInt(200) : random.nextInt(20_000);
      String a = text(random, length, i % 3);
      String b = text(random, random.nextInt(70), (i + 1) % 3);
      StringBuilder c = new StringBuilder(text(random, random.nextInt(70), (i + 2) % 3));
      buf.truncate(0);
      encoder.encode(new Object[] {a, b, c}, buf);
      ByteArrayOutputStream expected = new ByteArrayOutputStream();
      string(expected, a);
      expected.write(0); // not null
      string(expected, b);
      string(expected, c.toString());
      assertThat(buf.toByteArray()).as("row %d (lengths %d, %d, %d)", i, a.length(), b.length(),
          c.length()).isEqualTo(expected.toByteArray());
    }
  }

  @Test
  void edgeStrings_encodeAsTheJdkDoes() {
    String ascii16 = "0123456789abcdef";
    String[] samples = {
      "", "a", ascii16.substring(0, 15), ascii16, ascii16 + "\u00e9", "\u00e9" + ascii16,
      ascii16 + "\uD800", "\uDC00" + ascii16, ascii16 + "\uD83D\uDE00" + ascii16,
      ascii16 + "\uD83D", "x".repeat(42) + "\u20ac", "\u20ac".repeat(42), "\u20ac".repeat(43),
      "y".repeat(127), "y".repeat(128), "y".repeat(1 << 14), "y".repeat((1 << 14) + 1),
      "\uD800".repeat(40), "\uDBFF\uDFFF".repeat(40),
    };
    ChunkBuffer buf = new ChunkBuffer(16);
    for (String s : samples) {
      buf.truncate(0);
      encoder.encode(new Object[] {s, null, s}, buf);
      ByteArrayOutputStream expected = new ByteArrayOutputStream();
      string(expected, s);
      expected.write(1); // null
      string(expected, s);
      assertThat(buf.toByteArray()).as("%d chars", s.length()).isEqualTo(expected.toByteArray());
    }
  }

  private static void string(ByteArrayOutputStream out, String s) {
    byte[] b = s.getBytes(StandardCharsets.UTF_8);
    long v = b.length;
    while ((v & ~0x7FL) != 0) {
      out.write((int) ((v & 0x7F) | 0x80));
      v >>>= 7;
    }
    out.write((int) v);
    out.write(b, 0, b.length);
  }

  /** Mostly ASCII (mode 0), mixed widths (1), or with unpaired surrogates (2). */
  private static String text(SplittableRandom random, int length, int mode) {
    StringBuilder sb = new StringBuilder(length);
    for (int i = 0; i < length; i++) {
      int pick = random.nextInt(mode == 0 ? 40 : 6);
      switch (pick) {
        case 1 -> sb.append((char) random.nextInt(0x80, 0x800));
        case 2 -> sb.append((char) random.nextInt(0x800, 0xD800));
        case 3 -> sb.appendCodePoint(random.nextInt(0x10000, 0x110000));
        case 4 -> sb.append(mode == 2 ? (char) random.nextInt(0xD800, 0xE000) : 'q');
        default -> sb.append((char) random.nextInt(0x20, 0x7F));
      }
    }
    return sb.toString();
  }
}
