package dev.handoff.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

final class ChunkBufferTest {

  @Test
  void constructor_rejectsNonPositiveCapacity() {
    assertThatThrownBy(() -> new ChunkBuffer(0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("0");
    assertThatThrownBy(() -> new ChunkBuffer(-5))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("-5");
  }

  @Test
  void newBuffer_isEmptyWithRequestedCapacity() {
    ChunkBuffer buf = new ChunkBuffer(16);
    assertThat(buf.length()).isZero();
    assertThat(buf.capacity()).isEqualTo(16);
    assertThat(buf.toByteArray()).isEmpty();
  }

  @Test
  void littleEndianWrites_matchByteBufferLittleEndianEncoding() {
    short[] shorts = {0, 1, -1, Short.MIN_VALUE, Short.MAX_VALUE, 0x1234};
    int[] ints = {0, 1, -1, Integer.MIN_VALUE, Integer.MAX_VALUE, 0x12345678};
    long[] longs = {0L, 1L, -1L, Long.MIN_VALUE, Long.MAX_VALUE, 0x0102030405060708L};
    float[] floats = {0f, -0f, 1.5f, Float.MIN_VALUE, Float.MAX_VALUE, Float.NaN,
        Float.NEGATIVE_INFINITY};
    double[] doubles = {0d, -0d, Math.PI, Double.MIN_VALUE, Double.MAX_VALUE, Double.NaN,
        Double.POSITIVE_INFINITY};

    ChunkBuffer buf = new ChunkBuffer(8);
    ByteBuffer expected = ByteBuffer.allocate(1024).order(ByteOrder.LITTLE_ENDIAN);
    for (short v : shorts) {
      buf.writeShortLE(v);
      expected.putShort(v);
    }
    for (int v : ints) {
      buf.writeIntLE(v);
      expected.putInt(v);
    }
    for (long v : longs) {
      buf.writeLongLE(v);
      expected.putLong(v);
    }
    for (float v : floats) {
      buf.writeFloatLE(v);
      expected.putFloat(v);
    }
    for (double v : doubles) {
      buf.writeDoubleLE(v);
      expected.putDouble(v);
    }
    assertThat(buf.toByteArray()).isEqualTo(copyWritten(expected));
  }

  @Test
  void writeShortLE_keepsOnlyTheLow16Bits() {
    ChunkBuffer buf = new ChunkBuffer(4);
    buf.writeShortLE(0xABCD1234);
    assertThat(buf.toByteArray()).containsExactly(0x34, 0x12);
  }

  @Test
  void floatAndDoubleWrites_preserveNaNPayloadBits() {
    // A NaN with a non-canonical payload must reach the wire bit for bit.
    int floatBits = 0x7FC0_1234;
    long doubleBits = 0x7FF8_0000_0000_ABCDL;
    ChunkBuffer buf = new ChunkBuffer(16);
    buf.writeFloatLE(Float.intBitsToFloat(floatBits));
    buf.writeDoubleLE(Double.longBitsToDouble(doubleBits));

    ByteBuffer expected = ByteBuffer.allocate(12).order(ByteOrder.LITTLE_ENDIAN);
    expected.putInt(floatBits).putLong(doubleBits);
    assertThat(buf.toByteArray()).isEqualTo(expected.array());
  }

  @Test
  void writeVarUInt_matchesKnownLeb128Vectors() {
    assertVarUInt(0L, 0x00);
    assertVarUInt(1L, 0x01);
    assertVarUInt(127L, 0x7F);
    assertVarUInt(128L, 0x80, 0x01);
    assertVarUInt(300L, 0xAC, 0x02);
    assertVarUInt(16_383L, 0xFF, 0x7F);
    assertVarUInt(16_384L, 0x80, 0x80, 0x01);
    assertVarUInt(Long.MAX_VALUE, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x7F);
    assertVarUInt(-1L, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01);
    assertVarUInt(Long.MIN_VALUE, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01);
  }

  @Test
  void varUIntSize_agreesWithWriteVarUIntForBoundariesAndRandomValues() {
    List<Long> values = new ArrayList<>(List.of(0L, -1L, Long.MIN_VALUE, Long.MAX_VALUE));
    for (int bits = 1; bits < 64; bits++) {
      long power = 1L << bits;
      values.add(power - 1);
      values.add(power);
      values.add(power + 1);
    }
    SplittableRandom random = new SplittableRandom(20_261_201L);
    for (int i = 0; i < 10_000; i++) {
      // Shift by a random amount so short encodings are as common as long ones.
      values.add(random.nextLong() >>> random.nextInt(64));
    }

    ChunkBuffer buf = new ChunkBuffer(16);
    for (long v : values) {
      buf.truncate(0);
      buf.writeVarUInt(v);
      assertThat(ChunkBuffer.varUIntSize(v)).as("size of %d", v).isEqualTo(buf.length());
      assertThat(decodeVarUInt(buf.toByteArray())).as("round trip of %d", v).isEqualTo(v);
    }
  }

  @Test
  void varUIntSize_isOneToTenBytes() {
    assertThat(ChunkBuffer.varUIntSize(0L)).isEqualTo(1);
    assertThat(ChunkBuffer.varUIntSize(127L)).isEqualTo(1);
    assertThat(ChunkBuffer.varUIntSize(128L)).isEqualTo(2);
    assertThat(ChunkBuffer.varUIntSize(Long.MAX_VALUE)).isEqualTo(9);
    assertThat(ChunkBuffer.varUIntSize(-1L)).isEqualTo(10);
  }

  @Test
  void writeUtf8_andUtf8Length_agreeWithStringGetBytesForFixedSamples() {
    String[] samples = {
      "",
      "hello, world",
      "\u0000\u007F",
      "\u0080 caf\u00E9 \u00DF \u07FF", // 2-byte
      "\u0800 \u20AC \uFFFD \uFFFF", // 3-byte
      "\uD83D\uDE00 \uD800\uDC00 \uDBFF\uDFFF", // 4-byte (surrogate pairs)
      "\uD800", // lone high surrogate
      "\uDC00", // lone low surrogate
      "a\uD800b", // high surrogate followed by a non-surrogate
      "\uDC00\uD800", // reversed pair
      "\uD800\uD800\uDC00", // high surrogate followed by a valid pair
      "end\uD83D", // high surrogate at the end
    };
    for (String s : samples) {
      assertUtf8MatchesJdk(s);
    }
  }

  @Test
  void writeUtf8_andUtf8Length_agreeWithStringGetBytesForRandomStrings() {
    SplittableRandom random = new SplittableRandom(42L);
    for (int i = 0; i < 2_000; i++) {
      assertUtf8MatchesJdk(randomText(random, random.nextInt(40)));
    }
  }

  @Test
  void writeUtf8_switchesFromItsAsciiLoopAtAnyPosition() {
    // The ASCII run is written by a loop of its own; the first other char, wherever it stands,
    // hands over to the general loop with the right offsets.
    String[] tails = {"\u00E9", "\u20AC", "\uD83D\uDE00", "\uD800", "\u0080x", "\u07FFyz"};
    for (int prefix = 0; prefix <= 20; prefix++) {
      for (String tail : tails) {
        String ascii = "abcdefghijklmnopqrstuvwxyz".substring(0, prefix);
        assertUtf8MatchesJdk(ascii + tail);
        assertUtf8MatchesJdk(ascii + tail + ascii);
      }
      ChunkBuffer buf = new ChunkBuffer(1);
      buf.writeByte(0x7F);
      String ascii = "0123456789abcdefghijk".substring(0, prefix);
      assertThat(buf.writeUtf8(ascii)).isEqualTo(prefix);
      assertThat(buf.length()).isEqualTo(1 + prefix);
      assertThat(buf.getByte(0)).isEqualTo((byte) 0x7F);
    }
  }

  @Test
  void writeAscii_writesAsciiTextAsItsUtf8AndRefusesAnyOtherCharWherever() {
    // Non-ASCII chars at every position of every length, across the 8-char blocks of the check:
    // Latin-1 (0x80..0xFF), a char whose low byte is ASCII (0x0141), a surrogate.
    char[] others = {'\u0080', '\u00E9', '\u00FF', '\u0141', '\u20AC', '\uD83D'};
    for (int n = 0; n <= 35; n++) {
      String ascii = "0123456789abcdefghijklmnopqrstuvwxyz\u007F".substring(36 - n, 37);
      ChunkBuffer buf = new ChunkBuffer(1);
      buf.writeByte(0x11);
      assertThat(buf.writeAscii(ascii)).isTrue();
      byte[] expected = new byte[1 + ascii.length()];
      expected[0] = 0x11;
      System.arraycopy(ascii.getBytes(StandardCharsets.UTF_8), 0, expected, 1, ascii.length());
      assertThat(buf.toByteArray()).isEqualTo(expected);
      for (int at = 0; at < ascii.length(); at++) {
        for (char c : others) {
          String text = ascii.substring(0, at) + c + ascii.substring(at + 1);
          ChunkBuffer b = new ChunkBuffer(1);
          b.writeByte(0x11);
          assertThat(b.writeAscii(text)).as("%s at %d", Integer.toHexString(c), at).isFalse();
          assertThat(b.toByteArray()).isEqualTo(new byte[] {0x11});
        }
      }
    }
  }

  @Test
  void latin1Probe_isOnForTheJdksItServesAndAgreesWithEveryChar() {
    // The tests run on Java 17 (CI) with jdk.unsupported readable: the fast copy is what they test.
    if (Runtime.version().feature() < 24 && !Boolean.getBoolean("handoff.noUnsafe")) {
      assertThat(Latin1Strings.ENABLED).as("Latin1Strings.ENABLED").isTrue();
    }
    if (!Latin1Strings.ENABLED) {
      return;
    }
    assertThat(Latin1Strings.isLatin1("")).isTrue();
    assertThat(Latin1Strings.isLatin1(new String(new char[] {'x', '\u00FF'}))).isTrue();
    assertThat(Latin1Strings.isLatin1(new String(new char[] {'x', '\u0100'}))).isFalse();
    assertThat(Latin1Strings.isLatin1("a\uD83D\uDE00")).isFalse();
  }

  @Test
  void copyIfAscii_givesTheSameAnswerAndBytesWithAndWithoutTheProbe() {
    // Every length to 40, one odd char at every position or none: Latin-1 above 0x7F, chars whose
    // low byte is ASCII (0x0141, 0x2041), a surrogate. A String the probe refuses at once is one
    // with a char above 0xFF: refused either way.
    char[] others = {'\u0080', '\u00E9', '\u00FF', '\u0141', '\u2041', '\uD83D'};
    boolean[] probes = Latin1Strings.ENABLED ? new boolean[] {false, true} : new boolean[] {false};
    for (int n = 0; n <= 40; n++) {
      String ascii = "abcdefghijklmnopqrstuvwxyz0123456789ABCDE\u007F".substring(41 - n, 41);
      for (int at = -1; at < n; at++) {
        for (char c : others) {
          String text = at < 0 ? ascii : ascii.substring(0, at) + c + ascii.substring(at + 1);
          boolean expected = text.chars().allMatch(ch -> ch < 0x80);
          for (boolean probe : probes) {
            byte[] b = new byte[n + 4];
            b[0] = 0x11;
            assertThat(Latin1Strings.copyIfAscii(text, n, b, 1, probe))
                .as("%s at %d, probe %s", Integer.toHexString(c), at, probe).isEqualTo(expected);
            if (expected) {
              assertThat(Arrays.copyOfRange(b, 1, 1 + n))
                  .isEqualTo(text.getBytes(StandardCharsets.UTF_8));
            }
            assertThat(b[0]).isEqualTo((byte) 0x11);
            assertThat(b[n + 1]).isZero();
          }
          if (at < 0) {
            break;
          }
        }
      }
    }
  }

  @Test
  void writeUtf8WithLength_ofLatin1Text_widensEveryHighByteAtEveryPosition() {
    // Latin-1 Strings below 128 chars are copied in bulk and widened in place: every mix of one-
    // and two-byte chars, with byte counts on both sides of the one-byte count (up to 254).
    SplittableRandom random = new SplittableRandom(7);
    for (int i = 0; i < 3_000; i++) {
      int n = random.nextInt(128);
      double wide = random.nextDouble();
      char[] c = new char[n];
      for (int j = 0; j < n; j++) {
        c[j] = random.nextDouble() < wide ? (char) random.nextInt(0x80, 0x100)
            : (char) random.nextInt(0x80);
      }
      String text = new String(c);
      ChunkBuffer buf = new ChunkBuffer(1 + random.nextInt(300));
      buf.writeByte(0x11);
      byte[] utf8 = text.getBytes(StandardCharsets.UTF_8);
      assertThat(buf.writeUtf8WithLength(text)).as(text).isEqualTo(utf8.length);
      ChunkBuffer expected = new ChunkBuffer(1);
      expected.writeByte(0x11);
      expected.writeVarUInt(utf8.length);
      expected.writeBytes(utf8);
      assertThat(buf.toByteArray()).as(text).isEqualTo(expected.toByteArray());
    }
  }

  @Test
  void writeAsciiWithLength_writesTheVarintLengthThenTheCharsOfShortAsciiOnly() {
    String[] accepted = {"", "a", "0123456789abcdef", "x".repeat(127)};
    for (String text : accepted) {
      // Capacity 1 with a byte written: every accepted text makes the buffer grow.
      ChunkBuffer buf = new ChunkBuffer(1);
      buf.writeByte(0x11);
      assertThat(buf.writeAsciiWithLength(text)).as(text).isTrue();
      ChunkBuffer expected = new ChunkBuffer(1);
      expected.writeByte(0x11);
      expected.writeVarUInt(text.length());
      expected.writeUtf8(text);
      assertThat(buf.toByteArray()).as(text).isEqualTo(expected.toByteArray());
    }
    String[] refused = {"x".repeat(128), "caf\u00E9", "\u0141odz", "0123456789abcde\u0080"};
    for (String text : refused) {
      ChunkBuffer buf = new ChunkBuffer(4);
      buf.writeByte(0x11);
      assertThat(buf.writeAsciiWithLength(text)).as(text).isFalse();
      assertThat(buf.toByteArray()).as(text).isEqualTo(new byte[] {0x11});
    }
  }

  @Test
  void writeUtf8WithLength_isTheVarintByteCountThenTheUtf8AcrossTheOneByteCountLimit() {
    // 1-, 2-, 3- and 4-byte chars in texts whose byte counts fall on both sides of 128 while
    // their char counts stay below 128 (the count is patched or the text moved one byte on).
    String[] units = {"a", "\u00E9", "\u20AC", "\uD83D\uDE00", "\uD800"};
    SplittableRandom r = new SplittableRandom(11);
    for (int i = 0; i < 3_000; i++) {
      StringBuilder sb = new StringBuilder();
      int target = r.nextInt(200);
      while (sb.length() < target) {
        sb.append(units[r.nextInt(units.length)]);
      }
      String text = sb.toString();
      byte[] utf8 = text.getBytes(StandardCharsets.UTF_8);
      ChunkBuffer expected = new ChunkBuffer(1);
      expected.writeByte(0x11);
      expected.writeVarUInt(utf8.length);
      expected.writeBytes(utf8);
      ChunkBuffer buf = new ChunkBuffer(1);
      buf.writeByte(0x11);
      assertThat(buf.writeUtf8WithLength(text)).as(text).isEqualTo(utf8.length);
      assertThat(buf.toByteArray()).as(text).isEqualTo(expected.toByteArray());
    }
  }

  @Test
  void writeUtf8_acceptsAnyCharSequence() {
    StringBuilder sb = new StringBuilder("x\u00E9\uD83D\uDE00\uD800");
    ChunkBuffer buf = new ChunkBuffer(1);
    int written = buf.writeUtf8(sb);
    byte[] expected = sb.toString().getBytes(StandardCharsets.UTF_8);
    assertThat(written).isEqualTo(expected.length);
    assertThat(buf.toByteArray()).isEqualTo(expected);
  }

  @Test
  void writeUtf8_appendsAfterExistingBytes() {
    ChunkBuffer buf = new ChunkBuffer(2);
    buf.writeByte(0x11);
    int written = buf.writeUtf8("\u20AC");
    assertThat(written).isEqualTo(3);
    assertThat(buf.toByteArray()).containsExactly(0x11, 0xE2, 0x82, 0xAC);
  }

  @Test
  void truncate_rollsBackAndLaterWritesOverwrite() {
    ChunkBuffer buf = new ChunkBuffer(16);
    buf.writeIntLE(0x04030201);
    int rowStart = buf.length();
    buf.writeLongLE(-1L);
    buf.truncate(rowStart);
    assertThat(buf.length()).isEqualTo(4);
    buf.writeByte(9);
    assertThat(buf.toByteArray()).containsExactly(1, 2, 3, 4, 9);
  }

  @Test
  void truncate_toCurrentLengthOrZeroIsAllowed() {
    ChunkBuffer buf = new ChunkBuffer(4);
    buf.writeShortLE(7);
    buf.truncate(2);
    assertThat(buf.length()).isEqualTo(2);
    buf.truncate(0);
    assertThat(buf.length()).isZero();
  }

  @Test
  void truncate_rejectsNegativeAndBeyondLength() {
    ChunkBuffer buf = new ChunkBuffer(4);
    buf.writeShortLE(7);
    assertThatThrownBy(() -> buf.truncate(-1))
        .isInstanceOf(IndexOutOfBoundsException.class)
        .hasMessageContaining("-1");
    assertThatThrownBy(() -> buf.truncate(3))
        .isInstanceOf(IndexOutOfBoundsException.class)
        .hasMessageContaining("3");
    assertThat(buf.length()).isEqualTo(2);
  }

  @Test
  void split_handsBytesToFrameAndStartsFreshTargetSizedArray() {
    ChunkBuffer buf = new ChunkBuffer(4);
    for (int i = 0; i < 10; i++) {
      buf.writeByte(i);
    }
    assertThat(buf.capacity()).isGreaterThan(4);

    Frame frame = buf.split();

    assertThat(frame.length()).isEqualTo(10);
    assertThat(frame.toByteArray()).containsExactly(0, 1, 2, 3, 4, 5, 6, 7, 8, 9);
    assertThat(buf.length()).isZero();
    assertThat(buf.capacity()).isEqualTo(4);
  }

  @Test
  void split_laterWritesAndSetsDoNotAffectTheFrame() {
    ChunkBuffer buf = new ChunkBuffer(8);
    buf.writeLongLE(0x0807060504030201L);
    Frame frame = buf.split();

    buf.writeLongLE(-1L);
    buf.setByte(0, 0x55);
    buf.truncate(0);
    buf.writeZeros(8);

    assertThat(frame.toByteArray()).containsExactly(1, 2, 3, 4, 5, 6, 7, 8);
  }

  @Test
  void split_ofEmptyBufferReturnsEmptyFrame() {
    ChunkBuffer buf = new ChunkBuffer(8);
    Frame frame = buf.split();
    assertThat(frame).isSameAs(Frame.empty());
    assertThat(frame.length()).isZero();
    assertThat(buf.capacity()).isEqualTo(8);
  }

  @Test
  void writes_growBeyondInitialCapacityAndKeepEarlierBytes() {
    ChunkBuffer buf = new ChunkBuffer(1);
    byte[] expected = new byte[10_000];
    for (int i = 0; i < expected.length; i++) {
      expected[i] = (byte) (i * 31);
      buf.writeByte(expected[i]);
    }
    assertThat(buf.length()).isEqualTo(expected.length);
    assertThat(buf.capacity()).isGreaterThanOrEqualTo(expected.length);
    assertThat(buf.toByteArray()).isEqualTo(expected);
  }

  @Test
  void writeBytes_growsByMoreThanDoublingWhenOneWriteNeedsIt() {
    ChunkBuffer buf = new ChunkBuffer(2);
    byte[] big = new byte[100];
    big[99] = 42;
    buf.writeBytes(big);
    assertThat(buf.capacity()).isGreaterThanOrEqualTo(100);
    assertThat(buf.toByteArray()).isEqualTo(big);
  }

  @Test
  void ensureWritable_rejectsSizesBeyondTheLargestArray() {
    ChunkBuffer buf = new ChunkBuffer(4);
    assertThatThrownBy(() -> buf.ensureWritable(Integer.MAX_VALUE))
        .isInstanceOf(IllegalStateException.class);
    buf.writeByte(1);
    // length + extra overflows int; it must be reported, not wrap around.
    assertThatThrownBy(() -> buf.ensureWritable(Integer.MAX_VALUE))
        .isInstanceOf(IllegalStateException.class);
    assertThat(buf.toByteArray()).containsExactly(1);
  }

  @Test
  void ensureWritable_withinCapacityDoesNotReallocate() {
    ChunkBuffer buf = new ChunkBuffer(16);
    buf.writeIntLE(1);
    buf.ensureWritable(12);
    assertThat(buf.capacity()).isEqualTo(16);
    buf.ensureWritable(13);
    assertThat(buf.capacity()).isGreaterThanOrEqualTo(17);
  }

  @Test
  void writeBytes_withOffsetWriteZerosWriteBufferAndWriteFrame_appendInOrder() {
    ChunkBuffer other = new ChunkBuffer(4);
    other.writeByte(7);
    other.writeByte(8);

    ChunkBuffer buf = new ChunkBuffer(2);
    buf.writeBytes(new byte[] {1, 2, 3, 4}, 1, 2);
    buf.writeZeros(3);
    buf.writeBuffer(other);
    buf.writeFrame(Frame.copyOf(new byte[] {9, 10}));
    buf.writeFrame(Frame.empty());

    assertThat(buf.toByteArray()).containsExactly(2, 3, 0, 0, 0, 7, 8, 9, 10);
    assertThat(other.toByteArray()).containsExactly(7, 8);
  }

  @Test
  void writeBuffer_ofItselfDuplicatesTheContent() {
    ChunkBuffer buf = new ChunkBuffer(3);
    buf.writeByte(1);
    buf.writeByte(2);
    buf.writeBuffer(buf);
    assertThat(buf.toByteArray()).containsExactly(1, 2, 1, 2);
  }

  @Test
  void setAndGet_overwriteInPlaceLittleEndian() {
    ChunkBuffer buf = new ChunkBuffer(16);
    buf.writeZeros(13);
    buf.setByte(0, 0xAB);
    buf.setIntLE(1, 0x04030201);
    buf.setLongLE(5, 0x0C0B0A0908070605L);

    assertThat(buf.length()).isEqualTo(13);
    assertThat(buf.getByte(0)).isEqualTo((byte) 0xAB);
    assertThat(buf.toByteArray())
        .containsExactly(0xAB, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12);
  }

  @Test
  void setAndGet_rejectIndexesOutsideTheWrittenBytes() {
    ChunkBuffer buf = new ChunkBuffer(64);
    buf.writeZeros(8);

    assertThatThrownBy(() -> buf.getByte(-1)).isInstanceOf(IndexOutOfBoundsException.class);
    assertThatThrownBy(() -> buf.getByte(8)).isInstanceOf(IndexOutOfBoundsException.class);
    assertThatThrownBy(() -> buf.setByte(-1, 0)).isInstanceOf(IndexOutOfBoundsException.class);
    assertThatThrownBy(() -> buf.setByte(8, 0)).isInstanceOf(IndexOutOfBoundsException.class);
    assertThatThrownBy(() -> buf.setIntLE(-1, 0)).isInstanceOf(IndexOutOfBoundsException.class);
    assertThatThrownBy(() -> buf.setIntLE(5, 0)).isInstanceOf(IndexOutOfBoundsException.class);
    assertThatThrownBy(() -> buf.setLongLE(-1, 0)).isInstanceOf(IndexOutOfBoundsException.class);
    assertThatThrownBy(() -> buf.setLongLE(1, 0)).isInstanceOf(IndexOutOfBoundsException.class);

    // The last in-range positions work, and the capacity behind length is never reachable.
    buf.setIntLE(4, -1);
    buf.setLongLE(0, 0L);
    buf.setByte(7, 1);
    assertThat(buf.length()).isEqualTo(8);
    assertThat(buf.toByteArray()).containsExactly(0, 0, 0, 0, 0, 0, 0, 1);
  }

  @Test
  void toString_reportsLengthAndCapacity() {
    ChunkBuffer buf = new ChunkBuffer(8);
    buf.writeByte(1);
    assertThat(buf.toString()).contains("length=1").contains("capacity=8");
  }

  private static void assertVarUInt(long value, int... expected) {
    ChunkBuffer buf = new ChunkBuffer(1);
    buf.writeVarUInt(value);
    byte[] bytes = new byte[expected.length];
    for (int i = 0; i < expected.length; i++) {
      bytes[i] = (byte) expected[i];
    }
    assertThat(buf.toByteArray()).as("varint of %d", value).isEqualTo(bytes);
    assertThat(ChunkBuffer.varUIntSize(value)).isEqualTo(expected.length);
  }

  /** Decodes an unsigned LEB128 value independently of the code under test. */
  private static long decodeVarUInt(byte[] bytes) {
    long value = 0;
    for (int i = 0; i < bytes.length; i++) {
      value |= (long) (bytes[i] & 0x7F) << (7 * i);
      boolean last = (bytes[i] & 0x80) == 0;
      assertThat(last).as("continuation bit of byte %d of %d", i, bytes.length)
          .isEqualTo(i == bytes.length - 1);
    }
    return value;
  }

  private static void assertUtf8MatchesJdk(String s) {
    byte[] expected = s.getBytes(StandardCharsets.UTF_8);
    ChunkBuffer buf = new ChunkBuffer(1);
    int written = buf.writeUtf8(s);
    assertThat(buf.toByteArray()).as("bytes of %s", escape(s)).isEqualTo(expected);
    assertThat(written).as("returned length of %s", escape(s)).isEqualTo(expected.length);
    assertThat(ChunkBuffer.utf8Length(s)).as("utf8Length of %s", escape(s))
        .isEqualTo(expected.length);
  }

  /** Returns text that mixes every UTF-8 width, valid pairs and unpaired surrogates. */
  static String randomText(SplittableRandom random, int length) {
    StringBuilder sb = new StringBuilder(length);
    for (int i = 0; i < length; i++) {
      switch (random.nextInt(6)) {
        case 0 -> sb.append((char) random.nextInt(0x80));
        case 1 -> sb.append((char) random.nextInt(0x80, 0x800));
        case 2 -> sb.append((char) random.nextInt(0x800, 0xD800));
        case 3 -> sb.appendCodePoint(random.nextInt(0x10000, 0x110000));
        case 4 -> sb.append((char) random.nextInt(0xD800, 0xE000)); // likely unpaired
        default -> sb.append((char) random.nextInt(0x10000));
      }
    }
    return sb.toString();
  }

  private static String escape(String s) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < s.length(); i++) {
      sb.append("\\u").append(String.format(Locale.ROOT, "%04X", (int) s.charAt(i)));
    }
    return sb.toString();
  }

  private static byte[] copyWritten(ByteBuffer bb) {
    byte[] out = new byte[bb.position()];
    bb.flip();
    bb.get(out);
    return out;
  }

  @Test
  void split_ofEmptyBufferAfterRolledBackLargeRow_dropsTheGrownArray() {
    ChunkBuffer buf = new ChunkBuffer(16);
    buf.writeZeros(1000);
    buf.truncate(0);
    assertThat(buf.split().length()).isZero();
    assertThat(buf.capacity()).isEqualTo(16);
  }

  @Test
  void ensureWritable_rejectsNegativeExtraWhateverTheLength() {
    ChunkBuffer buf = new ChunkBuffer(16);
    buf.writeByte(1);
    assertThatThrownBy(() -> buf.ensureWritable(-1))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("-1");
  }

  @Test
  void writeUtf8_ofLongAsciiText_growsOnlyToItsEncodedLength() {
    ChunkBuffer buf = new ChunkBuffer(16);
    String text = "a".repeat(100_000);
    assertThat(buf.writeUtf8(text)).isEqualTo(100_000);
    assertThat(buf.capacity()).isLessThan(200_000);
    assertThat(buf.toByteArray()).isEqualTo(text.getBytes(StandardCharsets.UTF_8));
  }
}
