package dev.handoff.clickhouse.value;

import dev.handoff.clickhouse.type.ClickHouseType;
import java.util.Objects;

/**
 * A value with the ClickHouse type it is to be written as: the explicit pick of a {@code
 * Variant}'s type (which must be one of its types) or of the type a {@code Dynamic} value (or a
 * JSON path's value) is stored with. Without it, the value's Java type picks the type (see
 * docs/formats.md, "Variant, Dynamic and JSON").
 *
 * <pre>{@code
 * row[3] = TypedValue.of("UInt64", 42L);          // a Variant(String, UInt64) column
 * row[4] = TypedValue.of("Array(UInt8)", List.of(1, 2));   // a Dynamic column
 * }</pre>
 *
 * @param type the type to write {@code value} as; not Nullable for a Variant
 * @param value the value, converted to {@code type} as a column of that type converts it;
 *     {@code null} is the Variant's or Dynamic's NULL
 */
public record TypedValue(ClickHouseType type, Object value) {

  /** Checks that {@code type} is present. */
  public TypedValue {
    Objects.requireNonNull(type, "type");
  }

  /**
   * Returns {@code value} to be written as the type {@code type} spells.
   *
   * @throws dev.handoff.clickhouse.type.TypeParseException if {@code type} is not a type
   */
  public static TypedValue of(String type, Object value) {
    return new TypedValue(ClickHouseType.parse(type), value);
  }

  /** Returns {@code value} to be written as {@code type}. */
  public static TypedValue of(ClickHouseType type, Object value) {
    return new TypedValue(type, value);
  }

  @Override
  public String toString() {
    return value + "::" + type;
  }
}
