package dev.handoff.clickhouse.value;

import dev.handoff.api.row.RowAccessor;
import dev.handoff.clickhouse.type.ClickHouseType;
import dev.handoff.clickhouse.type.TypeKind;
import java.util.List;

/**
 * One {@link Conversions} method as a function, so tests can run a value through any of them.
 *
 * @param <T> what the method returns (boxed); {@link #TO_IPV6} returns the 16 bytes it wrote
 */
@FunctionalInterface
interface Conv<T> {

  T apply(RowAccessor<Object[]> acc, Object[] row, int field, ClickHouseType type, String column);

  Conv<Long> TO_LONG = Conversions::toLong;
  Conv<java.math.BigInteger> TO_BIG_INTEGER = Conversions::toBigInteger;
  Conv<Double> TO_DOUBLE = Conversions::toDouble;
  Conv<Float> TO_FLOAT = Conversions::toFloat;
  Conv<Boolean> TO_BOOL = Conversions::toBool;
  Conv<Long> TO_DECIMAL_LONG = Conversions::toDecimalLong;
  Conv<java.math.BigInteger> TO_DECIMAL_BIG = Conversions::toDecimalBig;
  Conv<Integer> TO_EPOCH_DAY = Conversions::toEpochDay;
  Conv<Long> TO_EPOCH_SECOND = Conversions::toEpochSecond;
  Conv<Long> TO_DATETIME64_TICKS = Conversions::toDateTime64Ticks;
  Conv<java.util.UUID> TO_UUID = Conversions::toUuid;
  Conv<Integer> TO_IPV4 = Conversions::toIPv4;
  Conv<byte[]> TO_IPV6 = (acc, row, field, type, column) -> {
    byte[] dest = new byte[16];
    Conversions.toIPv6(acc, row, field, type, column, dest);
    return dest;
  };
  Conv<Integer> TO_ENUM = Conversions::toEnum;
  Conv<CharSequence> TO_TEXT = Conversions::toText;

  /** A method together with a type it accepts. */
  record Target(String name, Conv<?> conv, ClickHouseType type) {
    @Override
    public String toString() {
      return name + "(" + type + ")";
    }
  }

  /** Every method, each with one or more types it reads. */
  List<Target> ALL = List.of(
      new Target("toLong", TO_LONG, ClickHouseType.of(TypeKind.INT8)),
      new Target("toLong", TO_LONG, ClickHouseType.of(TypeKind.INT32)),
      new Target("toLong", TO_LONG, ClickHouseType.of(TypeKind.UINT64)),
      new Target("toBigInteger", TO_BIG_INTEGER, ClickHouseType.of(TypeKind.INT128)),
      new Target("toBigInteger", TO_BIG_INTEGER, ClickHouseType.of(TypeKind.UINT256)),
      new Target("toDouble", TO_DOUBLE, ClickHouseType.of(TypeKind.FLOAT64)),
      new Target("toFloat", TO_FLOAT, ClickHouseType.of(TypeKind.FLOAT32)),
      new Target("toBool", TO_BOOL, ClickHouseType.of(TypeKind.BOOL)),
      new Target("toDecimalLong", TO_DECIMAL_LONG, ClickHouseType.decimal(9, 2)),
      new Target("toDecimalLong", TO_DECIMAL_LONG, ClickHouseType.decimal(18, 18)),
      new Target("toDecimalBig", TO_DECIMAL_BIG, ClickHouseType.decimal(38, 4)),
      new Target("toDecimalBig", TO_DECIMAL_BIG, ClickHouseType.decimal(76, 10)),
      new Target("toEpochDay", TO_EPOCH_DAY, ClickHouseType.of(TypeKind.DATE)),
      new Target("toEpochDay", TO_EPOCH_DAY, ClickHouseType.of(TypeKind.DATE32)),
      new Target("toEpochSecond", TO_EPOCH_SECOND, ClickHouseType.of(TypeKind.DATETIME)),
      new Target("toEpochSecond", TO_EPOCH_SECOND, ClickHouseType.dateTime("Europe/Berlin")),
      new Target("toDateTime64Ticks", TO_DATETIME64_TICKS, ClickHouseType.dateTime64(3, null)),
      new Target("toDateTime64Ticks", TO_DATETIME64_TICKS, ClickHouseType.dateTime64(9, "UTC")),
      new Target("toUuid", TO_UUID, ClickHouseType.of(TypeKind.UUID)),
      new Target("toIPv4", TO_IPV4, ClickHouseType.of(TypeKind.IPV4)),
      new Target("toIPv6", TO_IPV6, ClickHouseType.of(TypeKind.IPV6)),
      new Target("toEnum", TO_ENUM, ClickHouseType.enumType(TypeKind.ENUM8,
          new String[] {"neg", "a", "ü"}, new int[] {-128, 1, 100})),
      new Target("toText", TO_TEXT, ClickHouseType.of(TypeKind.STRING)));
}
