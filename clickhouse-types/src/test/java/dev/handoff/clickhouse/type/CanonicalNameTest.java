package dev.handoff.clickhouse.type;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HexFormat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@link ClickHouseType#canonicalName()}: every spelling the model accepts, and the name a
 * ClickHouse 26.7 server gives the same type ({@code toTypeName(defaultValueOfTypeName(...))} on
 * the 26.7 engine printed each right-hand side); the types of ClickHouse 20-26 the model learnt;
 * their binary type encoding; and the messages of refused types.
 */
class CanonicalNameTest {

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource(delimiter = '|', value = {
      "Decimal32(4)                           | Decimal(9, 4)",
      "Decimal64(2)                           | Decimal(18, 2)",
      "Decimal128(10)                         | Decimal(38, 10)",
      "Decimal256(3)                          | Decimal(76, 3)",
      "Decimal(5)                             | Decimal(5, 0)",
      "Decimal( 12 ,3 )                       | Decimal(12, 3)",
      "Boolean                                | Bool",
      "Map(String,UInt64)                     | Map(String, UInt64)",
      "DateTime64(3,'UTC')                    | DateTime64(3, 'UTC')",
      "DateTime64(6)                          | DateTime64(6)",
      "DateTime('UTC')                        | DateTime('UTC')",
      "Nullable(Decimal32(2))                 | Nullable(Decimal(9, 2))",
      "Enum8('b' = 2, 'a' = 1)                | Enum8('a' = 1, 'b' = 2)",
      "Enum('a' = 1, 'b' = 2)                 | Enum8('a' = 1, 'b' = 2)",
      "Enum('a', 'b')                         | Enum8('a' = 1, 'b' = 2)",
      "Enum16('a', 'b')                       | Enum16('a' = 1, 'b' = 2)",
      "Enum('a' = 127, 'b')                   | Enum16('a' = 127, 'b' = 128)",
      "Enum('a' = -129, 'b')                  | Enum16('a' = -129, 'b' = -128)",
      "Enum('a' = 3, 'b', 'c')                | Enum8('a' = 3, 'b' = 4, 'c' = 5)",
      "Tuple(a UInt8,b String)                | Tuple(a UInt8, b String)",
      "Tuple(`a b` Int8, \"c\" Int8)          | Tuple(`a b` Int8, c Int8)",
      "Nested(a UInt8,b String)               | Nested(a UInt8, b String)",
      "Array(LowCardinality(Nullable(String)))| Array(LowCardinality(Nullable(String)))",
      "BFloat16                               | BFloat16",
      "Time                                   | Time",
      "Time64( 3 )                            | Time64(3)",
      "Nullable(Tuple(a UInt8,b String))      | Nullable(Tuple(a UInt8, b String))",
      "Nullable(Point)                        | Nullable(Point)",
      "Array(Nullable(Point))                 | Array(Nullable(Point))",
      "Map(Point, Ring)                       | Map(Point, Ring)",
      "SimpleAggregateFunction(sum,UInt64)    | SimpleAggregateFunction(sum, UInt64)",
      "SimpleAggregateFunction(anyLast, Nullable(String)) | SimpleAggregateFunction(anyLast, Nullable(String))",
      "QBit(Float32,8)                        | QBit(Float32, 8)",
      "QBit(Float32,16,8)                     | QBit(Float32, 16, 8)",
      "QBit(Int8, 24, 24)                     | QBit(Int8, 24)",
      "Array(Nullable(QBit(BFloat16, 48, 16)))| Array(Nullable(QBit(BFloat16, 48, 16)))",
      "Nullable(QBit(BFloat16, 3))            | Nullable(QBit(BFloat16, 3))",
      "LowCardinality(BFloat16)               | LowCardinality(BFloat16)",
      "LowCardinality(Nullable(Time))         | LowCardinality(Nullable(Time))",
      "MultiPolygon                           | MultiPolygon",
  })
  void printsTheServersName(String spelling, String canonical) {
    ClickHouseType t = ClickHouseType.parse(spelling);
    assertThat(t.canonicalName()).isEqualTo(canonical);
    assertThat(t).hasToString(canonical);
    assertThat(ClickHouseType.parse(canonical)).isEqualTo(t);
  }

  @Test
  void geoTypesAreTheirUnderlyingTypes() {
    ClickHouseType point = ClickHouseType.parse("Point");
    assertThat(point.kind()).isEqualTo(TypeKind.POINT);
    assertThat(point.elements()).extracting(ClickHouseType::kind)
        .containsExactly(TypeKind.FLOAT64, TypeKind.FLOAT64);
    ClickHouseType multi = ClickHouseType.parse("MultiPolygon");
    assertThat(multi.element().kind()).isEqualTo(TypeKind.POLYGON);
    assertThat(multi.element().element().kind()).isEqualTo(TypeKind.RING);
    assertThat(multi.element().element().element()).isEqualTo(point);
    assertThat(ClickHouseType.parse("MultiLineString").element().element())
        .isEqualTo(point);
    assertThat(ClickHouseType.of(TypeKind.LINE_STRING)).isEqualTo(
        ClickHouseType.parse("LineString"));
  }

  @Test
  void modernParameters() {
    ClickHouseType q = ClickHouseType.parse("QBit(Int8, 10)");
    assertThat(q.length()).isEqualTo(10);
    assertThat(q.element().kind()).isEqualTo(TypeKind.INT8);
    assertThat(q.stride()).isEqualTo(10);
    ClickHouseType strided = ClickHouseType.parse("QBit(Float64, 32, 16)");
    assertThat(strided.length()).isEqualTo(32);
    assertThat(strided.stride()).isEqualTo(16);
    assertThat(strided.scale()).isZero();
    assertThat(strided).isEqualTo(ClickHouseType.qbit(ClickHouseType.of(TypeKind.FLOAT64), 32, 16));
    assertThat(ClickHouseType.parse("QBit(Float64, 32, 32)")).isEqualTo(
        ClickHouseType.qbit(ClickHouseType.of(TypeKind.FLOAT64), 32));
    assertThat(ClickHouseType.parse("UInt8").stride()).isZero();
    assertThatThrownBy(() -> ClickHouseType.qbit(ClickHouseType.of(TypeKind.INT8), 12, 4))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("the stride of QBit must be a multiple of 8 when it is less than the"
            + " dimension, not 4");
    ClickHouseType s = ClickHouseType.parse("SimpleAggregateFunction(max, Time64(6))");
    assertThat(s.function()).isEqualTo("max");
    assertThat(s.element()).isEqualTo(ClickHouseType.time64(6));
    assertThat(s.fixedWidth()).isEqualTo(8);
    assertThat(ClickHouseType.parse("BFloat16").fixedWidth()).isEqualTo(2);
    assertThat(ClickHouseType.parse("Time").fixedWidth()).isEqualTo(4);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', value = {
      "Time64(3, 'UTC')                  | 8  | Time64 takes no time zone",
      "Time64(10)                        | 7  | Time64 precision must be between 0 and 9",
      "QBit(String, 3)                   | 5  | the elements of QBit must be BFloat16, Float32, Float64 or Int8",
      "QBit(Float32, 0)                  | 14 | the dimension of QBit must be a positive integer",
      "QBit(Float32, 8, 4)               | 17 | the stride of QBit must be a multiple of 8 when it is less",
      "QBit(Float32, 9, 4)               | 17 | the stride of QBit must be a positive divisor of the dimension 9",
      "QBit(Float32, 16, 32)             | 18 | the stride of QBit must be a positive divisor of the dimension 16",
      "QBit(Float32, 16, 0)              | 18 | the stride of QBit must be a positive integer",
      "QBit(Float32, 16, 8, 2)           | 19 | expected ')'",
      "SimpleAggregateFunction(uniq, UInt8) | 24 | does not allow the function 'uniq'",
      "SimpleAggregateFunction(quantile(0.5), UInt8) | 32 | takes no function parameters",
      "Nullable(Ring)                    | 9  | Ring cannot be inside Nullable",
      "Nullable(Nullable(Tuple(UInt8)))  | 9  | cannot be inside Nullable",
      "LowCardinality(Time64(3))         | 15 | LowCardinality is supported only for",
      "Enum('a' = 1, 'b', 'c' = 7)       | 25 | an enum value after elements without one",
      "Enum('a' = 1, 'b' = 2, 'c')       | 26 | write every enum value, or only the first",
      "Enum('a' = 1, 'b' = 1)            | 20 | duplicate enum value 1",
      "Enum8('a' = 127, 'b')             | 20 | enum value 128 out of range for Enum8",
  })
  void refusesWhatTheServerRefuses(String type, int position, String message) {
    assertThatThrownBy(() -> ClickHouseType.parse(type))
        .isInstanceOf(TypeParseException.class)
        .hasMessageContaining(message)
        .hasMessageContaining("at position " + position)
        .extracting(e -> ((TypeParseException) e).position()).isEqualTo(position);
  }

  @Test
  void refusedTypesSaySoAndNameTheWholeType() {
    assertThatThrownBy(() -> ClickHouseType.parse("Array(Object('json'))"))
        .hasMessageStartingWith("unsupported type 'Object('json')': handoff does not write"
            + " Object (a type of ClickHouse 22.3 and later)")
        .hasMessageEndingWith("(in \"Array(Object('json'))\" at position 6)")
        .hasMessageNotContaining("cannot parse");
    assertThatThrownBy(() -> ClickHouseType.parse("Map(String, AggregateFunction(uniq, UInt8))"))
        .hasMessageStartingWith("unsupported type 'AggregateFunction(uniq, UInt8)': handoff"
            + " does not write AggregateFunction (in ");
    assertThatThrownBy(() -> ClickHouseType.parse("Tuple(MultiPoint)"))
        .hasMessageStartingWith("unsupported type 'MultiPoint'")
        .hasMessageContaining("ClickHouse 26.8");
    assertThatThrownBy(() -> ClickHouseType.parse("Nullable(Float16)"))
        .hasMessageStartingWith("unknown type 'Float16'")
        .hasMessageNotContaining("cannot parse");
    assertThatThrownBy(() -> ClickHouseType.parse("Array(point)"))
        .hasMessageStartingWith("unknown type 'point'")
        .hasMessageContaining("case-sensitive");
  }

  /** The header bytes of the 26.7 golden {@code rbnt-binary-types} files, after name "v". */
  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', value = {
      "BFloat16                                  | 31",
      "Time                                      | 32",
      "Time64(3)                                 | 3403",
      "Bool                                      | 2d",
      "Date32                                    | 10",
      "DateTime64(3, 'Asia/Kolkata')             | 14030c417369612f4b6f6c6b617461",
      "Decimal(76, 10)                           | 1c4c0a",
      "Enum8('a' = 1, 'b' = 2)                   | 170201610101620 2",
      "Tuple(Int128, UInt128, Int256, UInt256)   | 1f040b050c06",
      "Tuple(IPv4, IPv6)                         | 1f022829",
      "Point                                     | 2c05506f696e74",
      "MultiLineString                           | 2c0f4d756c74694c696e65537472696e67",
      "Map(LowCardinality(String), Array(Nullable(Int32))) | 2726151e2309",
      "LowCardinality(Nullable(String))          | 262315",
      "Nested(a UInt8, b String)                 | 2f020161010162 15",
      "Nullable(Tuple(a UInt8, b String))        | 232002016101016215",
      "SimpleAggregateFunction(sum, UInt64)      | 2e0373756d000104",
      "SimpleAggregateFunction(anyLast, Nullable(String)) | 2e07616e794c61737400012315",
      "QBit(Float32, 8)                          | 360d08",
      "QBit(Float32, 16, 8)                      | 370d1008",
      "QBit(Int8, 24, 24)                        | 360718",
      "Tuple(id UInt64, name Nullable(String), tags Array(LowCardinality(String))) | 2003026964040 46e616d652315047461677 31e2615",
      "UUID                                      | 1d",
  })
  void binaryEncodingMatchesTheServers(String type, String hex) {
    assertThat(HexFormat.of().formatHex(BinaryTypes.encode(ClickHouseType.parse(type))))
        .isEqualTo(hex.replace(" ", ""));
  }
}
