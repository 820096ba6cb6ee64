package dev.handoff.clickhouse.value;

import dev.handoff.api.ChunkBuffer;
import dev.handoff.api.HandoffException;
import dev.handoff.api.row.RowAccessor;
import dev.handoff.api.row.ValueKind;
import dev.handoff.clickhouse.type.ClickHouseType;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetEncoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * Writes String and FixedString values the way RowBinary and Native both carry them: a String as
 * its VarUInt byte length and its bytes, a FixedString as its bytes padded with zero bytes. Byte
 * arrays are written as they are, text as UTF-8 (an unpaired surrogate as {@code '?'}, as {@link
 * ChunkBuffer#writeUtf8} and {@link String#getBytes(java.nio.charset.Charset)} do), other values
 * as {@link Conversions#toText}.
 *
 * <p>An instance holds scratch space for encoding long strings in bulk, so it belongs to one
 * writer or column and is never shared between threads.
 */
public final class StringValues {
  /**
   * From this many chars on, a String is encoded in bulk: {@code getChars} and the JDK's UTF-8
   * encoder, both vectorized for ASCII (about 18 ns per string whatever its length, where the
   * char loop costs about 0.5 ns per char). Shorter strings go through the char loop.
   */
  public static final int BULK_MIN_CHARS = 16;
  /** Longer strings take the char loop too, so the scratch arrays stay small. */
  public static final int BULK_MAX_CHARS = 1 << 14;

  /** Scratch for the bulk path, grown on demand. */
  private char[] chars = new char[64];
  private byte[] utf8 = new byte[3 * 64];
  private CharBuffer charView = CharBuffer.wrap(chars);
  private ByteBuffer utf8View = ByteBuffer.wrap(utf8);
  /** Unpaired surrogates become {@code '?'}, the encoder's default replacement. */
  private final CharsetEncoder encoder = StandardCharsets.UTF_8.newEncoder()
      .onMalformedInput(CodingErrorAction.REPLACE)
      .onUnmappableCharacter(CodingErrorAction.REPLACE);

  /** Makes a writer with small scratch arrays. */
  public StringValues() {}

  /**
   * Writes field {@code field} of {@code row} as a String value of column {@code column} (of
   * type {@code type}, for errors) to {@code out}.
   *
   * @throws HandoffException of class {@code DATA} when the value has no text form
   */
  public <R> void write(RowAccessor<R> acc, R row, int field, ClickHouseType type, String column,
      ChunkBuffer out) {
    ValueKind kind = acc.kind(row, field);
    if (kind == ValueKind.BYTES) {
      acc.writeBytesWithLength(row, field, out);
      return;
    }
    CharSequence text = kind == ValueKind.TEXT ? acc.getText(row, field)
        : Conversions.toText(acc, row, field, type, column);
    int n = text.length();
    if (text instanceof String s) {
      if (n < 128) {
        // ASCII text (the common case) is its own UTF-8: its length fits one varint byte and
        // the chars are copied in bulk after one check. Other text takes the paths below.
        if (out.writeAsciiWithLength(s)) {
          return;
        }
      }
      if (n >= BULK_MIN_CHARS && n <= BULK_MAX_CHARS && writeBulk(s, n, out)) {
        return;
      }
    }
    out.writeUtf8WithLength(text);
  }

  /**
   * Encodes {@code s} into the scratch array and writes it with its length; returns false (and
   * writes nothing) in the case that cannot happen, the encoder needing more than 3 bytes per
   * char.
   */
  private boolean writeBulk(String s, int n, ChunkBuffer out) {
    if (n > chars.length) {
      int size = Math.max(n, Math.min(2 * chars.length, BULK_MAX_CHARS));
      chars = new char[size];
      utf8 = new byte[3 * size];
      charView = CharBuffer.wrap(chars);
      utf8View = ByteBuffer.wrap(utf8);
    }
    s.getChars(0, n, chars, 0);
    CharBuffer in = charView;
    in.clear();
    in.limit(n);
    ByteBuffer dst = utf8View;
    dst.clear();
    CharsetEncoder e = encoder;
    e.reset();
    if (!e.encode(in, dst, true).isUnderflow() || !e.flush(dst).isUnderflow()) {
      return false;
    }
    int len = dst.position();
    out.writeVarUInt(len);
    out.writeBytes(utf8, 0, len);
    return true;
  }

  /**
   * Writes field {@code field} of {@code row} as a FixedString({@code width}) value of column
   * {@code column} to {@code out}: its bytes, then zero bytes up to {@code width}.
   *
   * @throws HandoffException of class {@code DATA} when the bytes do not fit ({@code <n> bytes
   *     do not fit FixedString(<width>)}, {@code its <n> UTF-8 bytes do not fit ...}) or the value
   *     has no text form
   */
  public static <R> void writeFixed(RowAccessor<R> acc, R row, int field, ClickHouseType type,
      String column, int width, ChunkBuffer out) {
    ValueKind kind = acc.kind(row, field);
    if (kind == ValueKind.BYTES) {
      byte[] b = acc.getBytes(row, field);
      if (b.length > width) {
        throw Conversions.error(acc, row, field, type, column,
            b.length + " bytes do not fit FixedString(" + width + ")");
      }
      out.writeBytes(b);
      out.writeZeros(width - b.length);
      return;
    }
    CharSequence text = kind == ValueKind.TEXT ? acc.getText(row, field)
        : Conversions.toText(acc, row, field, type, column);
    int len = ChunkBuffer.utf8Length(text);
    if (len > width) {
      throw Conversions.error(acc, row, field, type, column,
          "its " + len + " UTF-8 bytes do not fit FixedString(" + width + ")");
    }
    out.writeUtf8(text);
    out.writeZeros(width - len);
  }
}
