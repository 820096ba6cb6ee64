package dev.handoff.api.row;

import dev.handoff.api.ChunkBuffer;
import java.math.BigDecimal;
import java.math.BigInteger;

/**
 * Reads the fields of a payload for an encoder, by position.
 *
 * <p>For a top-level row, field {@code i} is table column {@code i} (adapters that read by name
 * resolve names to positions once, when they are created). For a nested container, the fields
 * are its elements (see {@link ValueKind#SEQUENCE} and {@link ValueKind#MAP}).
 *
 * <p>Encoders call {@link #kind} first and then the getter that matches it, so an adapter never
 * has to convert: primitives come out of {@link #getLong}, {@link #getDouble} and {@link
 * #getBoolean} without boxing. Only {@link #kind} and {@link #getObject} are abstract; the
 * typed getters have defaults built on {@code getObject} that fast adapters override.
 *
 * <p>A field index outside the row (negative, or not below its number of fields) is the caller's
 * error: {@link #kind} and {@link #getObject} throw {@link IndexOutOfBoundsException} rather than
 * read something. A row that holds fewer values than the table has columns is not such an error
 * when the adapter documents how it reads the missing ones (as null, say).
 *
 * <p><b>Threading:</b> implementations are stateless or immutable and may be shared by every
 * shard; each call is independent.
 *
 * @param <T> the payload (or container) type
 */
public interface RowAccessor<T> {

  /** Returns the kind of field {@code field} of {@code row}. */
  ValueKind kind(T row, int field);

  /**
   * Returns field {@code field} as an object: the boxed or original value, {@code null} for
   * {@link ValueKind#NULL}, the container for {@link ValueKind#SEQUENCE} and {@link
   * ValueKind#MAP}.
   */
  Object getObject(T row, int field);

  /** Returns whether field {@code field} of {@code row} is null. */
  default boolean isNull(T row, int field) {
    return kind(row, field) == ValueKind.NULL;
  }

  /** Returns a {@link ValueKind#BOOLEAN} field. */
  default boolean getBoolean(T row, int field) {
    return (Boolean) getObject(row, field);
  }

  /** Returns a {@link ValueKind#LONG} field. */
  default long getLong(T row, int field) {
    return ((Number) getObject(row, field)).longValue();
  }

  /** Returns a {@link ValueKind#DOUBLE} field. */
  default double getDouble(T row, int field) {
    return ((Number) getObject(row, field)).doubleValue();
  }

  /** Returns a {@link ValueKind#BIG_INTEGER} field. */
  default BigInteger getBigInteger(T row, int field) {
    return (BigInteger) getObject(row, field);
  }

  /** Returns a {@link ValueKind#BIG_DECIMAL} field. */
  default BigDecimal getBigDecimal(T row, int field) {
    return (BigDecimal) getObject(row, field);
  }

  /** Returns a {@link ValueKind#TEXT} field. */
  default CharSequence getText(T row, int field) {
    return (CharSequence) getObject(row, field);
  }

  /** Returns a {@link ValueKind#BYTES} field. The encoder does not modify or keep the array. */
  default byte[] getBytes(T row, int field) {
    return (byte[]) getObject(row, field);
  }

  /**
   * Writes a {@link ValueKind#BYTES} field to {@code out} after its length, as {@link
   * ChunkBuffer#writeUtf8WithLength} writes text: the byte count as a VarUInt, then the bytes,
   * those of {@link #getBytes}. An adapter that holds the bytes inside a larger array (an input
   * buffer) overrides this to copy them from there, so that reading a String makes no array.
   */
  default void writeBytesWithLength(T row, int field, ChunkBuffer out) {
    byte[] b = getBytes(row, field);
    out.writeVarUInt(b.length);
    out.writeBytes(b);
  }

  /**
   * Returns the accessor for the container in field {@code field} (of kind {@link
   * ValueKind#SEQUENCE} or {@link ValueKind#MAP}); the container itself is {@link #getObject}.
   * Adapters return shared accessors, so this allocates nothing.
   *
   * @throws UnsupportedOperationException if this accessor has no nested values
   */
  default RowAccessor<Object> nested(T row, int field) {
    throw new UnsupportedOperationException(
        getClass().getName() + " does not read nested values");
  }

  /**
   * Returns the number of fields of a container read by this accessor (elements of a sequence,
   * twice the entries of a map). Top-level rows may return the column count or {@code -1}.
   */
  default int size(T row) {
    return -1;
  }
}
