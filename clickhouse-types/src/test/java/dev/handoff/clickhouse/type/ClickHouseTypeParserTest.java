package dev.handoff.clickhouse.type;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Unit tests of {@link ClickHouseType#parse}: every type family, its spellings and its errors. */
class ClickHouseTypeParserTest {

  private static ClickHouseType parse(String s) {
    return ClickHouseType.parse(s);
  }

  /** Asserts that {@code s} fails at {@code position} with a message containing {@code what}. */
  private static void assertFails(String s, int position, String what) {
    TypeParseException e = assertThrows(TypeParseException.class, () -> parse(s));
    assertThat(e.position()).as("position of the error in %s: %s", s, e.getMessage())
        .isEqualTo(position);
    assertThat(e.getMessage()).contains(what).contains("at position " + position);
    assertThat(e.typeString()).isEqualTo(s);
  }

  @Nested
  class SimpleTypes {

    @ParameterizedTest
    @CsvSource({
        "Int8, INT8", "Int16, INT16", "Int32, INT32", "Int64, INT64", "Int128, INT128",
        "Int256, INT256", "UInt8, UINT8", "UInt16, UINT16", "UInt32, UINT32", "UInt64, UINT64",
        "UInt128, UINT128", "UInt256, UINT256", "Float32, FLOAT32", "Float64, FLOAT64",
        "Bool, BOOL", "String, STRING", "Date, DATE", "Date32, DATE32", "DateTime, DATETIME",
        "UUID, UUID", "IPv4, IPV4", "IPv6, IPV6"})
    void parsesEachTypeWithoutParameters(String name, TypeKind kind) {
      ClickHouseType t = parse(name);
      assertThat(t.kind()).isEqualTo(kind);
      assertThat(t).hasToString(name).isEqualTo(ClickHouseType.of(kind));
    }

    @Test
    void readsBooleanAsBool() {
      assertThat(parse("Boolean")).isEqualTo(ClickHouseType.of(TypeKind.BOOL)).hasToString("Bool");
    }

    @Test
    void namesAreCaseSensitive() {
      assertFails("int8", 0, "unknown type 'int8'");
      assertFails("STRING", 0, "unknown type 'STRING'");
    }

    @Test
    void allowsWhitespaceAroundTheWholeType() {
      assertThat(parse(" \t\n\r\f\u000BUInt64 \n")).hasToString("UInt64");
    }

    @Test
    void plainDateTimeHasNoZoneAndReadsInUtc() {
      ClickHouseType t = parse("DateTime");
      assertThat(t.timeZone()).isNull();
      assertThat(t.zone()).isEqualTo(ZoneOffset.UTC);
    }
  }

  @Nested
  class Decimals {

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "Decimal(9, 2)     | 9  | 2  | Decimal(9, 2)",
        "Decimal(9,2)      | 9  | 2  | Decimal(9, 2)",
        "Decimal( 18 ,4 )  | 18 | 4  | Decimal(18, 4)",
        "Decimal(76, 76)   | 76 | 76 | Decimal(76, 76)",
        "Decimal(1, 0)     | 1  | 0  | Decimal(1, 0)",
        "Decimal(5)        | 5  | 0  | Decimal(5, 0)",
        "Decimal32(2)      | 9  | 2  | Decimal(9, 2)",
        "Decimal64(4)      | 18 | 4  | Decimal(18, 4)",
        "Decimal128(10)    | 38 | 10 | Decimal(38, 10)",
        "Decimal256(0)     | 76 | 0  | Decimal(76, 0)",
        "Decimal32(9)      | 9  | 9  | Decimal(9, 9)"})
    void parsesEverySpelling(String s, int precision, int scale, String canonical) {
      ClickHouseType t = parse(s);
      assertThat(t.kind()).isEqualTo(TypeKind.DECIMAL);
      assertThat(t.precision()).isEqualTo(precision);
      assertThat(t.scale()).isEqualTo(scale);
      assertThat(t).hasToString(canonical);
    }

    @Test
    void rejectsPrecisionOutOfRange() {
      assertFails("Decimal(77, 2)", 8, "Decimal precision must be between 1 and 76");
      assertFails("Decimal(0, 0)", 8, "Decimal precision must be between 1 and 76");
    }

    @Test
    void rejectsScaleAbovePrecision() {
      assertFails("Decimal(9, 10)", 11, "Decimal scale must be between 0 and 9");
      assertFails("Decimal32(10)", 10, "Decimal scale must be between 0 and 9");
      assertFails("Decimal64(19)", 10, "between 0 and 18");
      assertFails("Decimal128(39)", 11, "between 0 and 38");
      assertFails("Decimal256(77)", 11, "between 0 and 76");
    }

    @Test
    void rejectsNegativeOrMissingNumbers() {
      assertFails("Decimal(-1, 0)", 8, "expected an integer");
      assertFails("Decimal(9, )", 11, "expected an integer");
      assertFails("Decimal32()", 10, "expected an integer");
      assertFails("Decimal", 7, "expected '('");
      assertFails("Decimal(9, 2", 12, "expected ')'");
      assertFails("Decimal(9 2)", 10, "expected ',' or ')'");
      assertFails("Decimal32(2, 3)", 11, "expected ')'");
    }
  }

  @Nested
  class FixedStrings {

    @Test
    void parsesLength() {
      assertThat(parse("FixedString(16)").length()).isEqualTo(16);
      assertThat(parse("FixedString( 1 )")).hasToString("FixedString(1)");
      assertThat(parse("FixedString(16777215)").length()).isEqualTo(0xFF_FFFF);
    }

    @Test
    void rejectsLengthsTheServerRejects() {
      assertFails("FixedString(0)", 12, "FixedString length must be between 1 and 16777215");
      assertFails("FixedString(16777216)", 12, "FixedString length must be between 1");
    }

    @Test
    void rejectsNonNumbers() {
      assertFails("FixedString(x)", 12, "expected an integer");
      assertFails("FixedString('4')", 12, "expected an integer");
      assertFails("FixedString(4a)", 13, "expected ')'");
      assertFails("FixedString", 11, "expected '('");
    }

    @Test
    void reportsHugeNumbersAsOutOfRangeNotAsAnotherException() {
      assertFails("FixedString(99999999999999999999999)", 12, "integer out of range");
      assertFails("FixedString(2147483648)", 12, "integer out of range");
      assertFails("FixedString(2147483647)", 12, "FixedString length must be between");
    }
  }

  @Nested
  class DateTimes {

    @Test
    void parsesTimeZoneArgument() {
      ClickHouseType t = parse("DateTime('Asia/Tokyo')");
      assertThat(t.kind()).isEqualTo(TypeKind.DATETIME);
      assertThat(t.timeZone()).isEqualTo("Asia/Tokyo");
      assertThat(t.zone()).isEqualTo(ZoneId.of("Asia/Tokyo"));
      assertThat(t).hasToString("DateTime('Asia/Tokyo')");
      assertThat(parse("DateTime ( 'UTC' )")).hasToString("DateTime('UTC')");
    }

    @Test
    void parsesDateTime64WithAndWithoutZone() {
      ClickHouseType t = parse("DateTime64(3)");
      assertThat(t.kind()).isEqualTo(TypeKind.DATETIME64);
      assertThat(t.precision()).isEqualTo(3);
      assertThat(t.timeZone()).isNull();
      ClickHouseType z = parse("DateTime64(9,'Europe/Berlin')");
      assertThat(z.precision()).isEqualTo(9);
      assertThat(z.timeZone()).isEqualTo("Europe/Berlin");
      assertThat(z).hasToString("DateTime64(9, 'Europe/Berlin')");
      assertThat(parse("DateTime64(0)")).hasToString("DateTime64(0)");
    }

    @Test
    void rejectsUnknownTimeZoneAtTheLiteral() {
      assertFails("DateTime('Mars/Olympus')", 9, "unknown time zone 'Mars/Olympus'");
      assertFails("DateTime64(3, 'Nowhere/Land')", 14, "unknown time zone 'Nowhere/Land'");
      assertFails("Array(DateTime( ''))", 16, "unknown time zone ''");
    }

    @Test
    void rejectsMalformedArguments() {
      assertFails("DateTime64(10)", 11, "DateTime64 precision must be between 0 and 9");
      assertFails("DateTime64", 10, "expected '('");
      assertFails("DateTime64()", 11, "expected an integer");
      assertFails("DateTime(", 9, "expected a string literal");
      assertFails("DateTime(UTC)", 9, "expected a string literal");
      assertFails("DateTime(3)", 9, "expected a string literal");
      assertFails("DateTime('UTC'", 14, "expected ')'");
      assertFails("DateTime('UTC)", 9, "unterminated string literal");
      assertFails("DateTime64(3, )", 14, "expected a string literal");
    }
  }

  @Nested
  class Enums {

    @Test
    void sortsElementsByValueAsTheServerPrintsThem() {
      ClickHouseType t = parse("Enum8('a' = 1, 'b' = 2, 'neg' = -128, 'max' = 127)");
      assertThat(t).hasToString("Enum8('neg' = -128, 'a' = 1, 'b' = 2, 'max' = 127)");
      assertThat(t.kind()).isEqualTo(TypeKind.ENUM8);
      assertThat(t.enumSize()).isEqualTo(4);
      assertThat(t.enumName(0)).isEqualTo("neg");
      assertThat(t.enumValue(0)).isEqualTo(-128);
      assertThat(t.enumValueOf("max")).isEqualTo(127);
    }

    @Test
    void acceptsElementsWithoutSpaces() {
      assertThat(parse("Enum8('a'=1,'b'=2)")).hasToString("Enum8('a' = 1, 'b' = 2)");
      assertThat(parse("Enum16( 'x'  =  -5 , 'y'=0 )")).hasToString("Enum16('x' = -5, 'y' = 0)");
    }

    @Test
    void acceptsTheFullValueRanges() {
      assertThat(parse("Enum16('lo' = -32768, 'zero' = 0, 'ü' = 1000, 'hi' = 32767)"))
          .hasToString("Enum16('lo' = -32768, 'zero' = 0, 'ü' = 1000, 'hi' = 32767)");
      assertThat(parse("Enum8('lo' = -128, 'hi' = 127)").enumValueOf("lo")).isEqualTo(-128);
    }

    @Test
    void decodesBackslashEscapesAndDoubledQuotes() {
      ClickHouseType t = parse(
          "Enum8('it\\'s' = 1, 'a\\\\b' = 2, 'n\\n' = 3, 't\\t' = 4, 'z\\0' = 5, 'o''k' = 6,"
              + " 'r\\r' = 7, 'b\\b' = 8, 'f\\f' = 9, 'q\\\"' = 10, 's\\/' = 11)");
      assertThat(t.enumValueOf("it's")).isEqualTo(1);
      assertThat(t.enumValueOf("a\\b")).isEqualTo(2);
      assertThat(t.enumValueOf("n\n")).isEqualTo(3);
      assertThat(t.enumValueOf("t\t")).isEqualTo(4);
      assertThat(t.enumValueOf("z\0")).isEqualTo(5);
      assertThat(t.enumValueOf("o'k")).isEqualTo(6);
      assertThat(t.enumValueOf("r\r")).isEqualTo(7);
      assertThat(t.enumValueOf("b\b")).isEqualTo(8);
      assertThat(t.enumValueOf("f\f")).isEqualTo(9);
      assertThat(t.enumValueOf("q\"")).isEqualTo(10);
      assertThat(t.enumValueOf("s/")).isEqualTo(11);
      assertThat(t).hasToString(
          "Enum8('it\\'s' = 1, 'a\\\\b' = 2, 'n\\n' = 3, 't\\t' = 4, 'z\\0' = 5, 'o\\'k' = 6,"
              + " 'r\\r' = 7, 'b\\b' = 8, 'f\\f' = 9, 'q\"' = 10, 's/' = 11)");
    }

    @Test
    void decodesHexBytesAsUtf8() {
      ClickHouseType t = parse("Enum16('\\xC3\\xBC' = 1000, '\\x41\\x62' = 1)");
      assertThat(t.enumValueOf("ü")).isEqualTo(1000);
      assertThat(t.enumValueOf("Ab")).isEqualTo(1);
      assertThat(t).hasToString("Enum16('Ab' = 1, 'ü' = 1000)");
    }

    @Test
    void keepsTheBackslashOfAnUnknownEscapeAsTheServerDoes() {
      ClickHouseType t = parse("Enum8('100\\%' = 1, '\\a\\v\\e' = 2)");
      assertThat(t.enumValueOf("100\\%")).isEqualTo(1);
      assertThat(t.enumValueOf("\u0007\u000B\u001B")).isEqualTo(2);
      assertThat(t).hasToString("Enum8('100\\\\%' = 1, '\u0007\u000B\u001B' = 2)");
    }

    @Test
    void keepsUtf8AndEmptyNames() {
      ClickHouseType t = parse("Enum8('日本語' = 1, '' = 2, '😀' = 3)");
      assertThat(t.enumValueOf("日本語")).isEqualTo(1);
      assertThat(t.enumValueOf("")).isEqualTo(2);
      assertThat(t.enumValueOf("😀")).isEqualTo(3);
    }

    @Test
    void rejectsValuesOutOfRange() {
      assertFails("Enum8('a' = 128)", 12, "enum value 128 out of range for Enum8 (-128..127)");
      assertFails("Enum8('a' = -129)", 12, "out of range for Enum8");
      assertFails("Enum16('a' = 32768)", 13, "out of range for Enum16 (-32768..32767)");
      assertFails("Enum16('a' = -99999999999)", 13, "integer out of range");
    }

    @Test
    void rejectsDuplicates() {
      assertFails("Enum8('a' = 1, 'a' = 2)", 15, "duplicate enum name 'a'");
      assertFails("Enum8('a' = 1, 'b' = 1)", 21, "duplicate enum value 1");
    }

    @Test
    void rejectsMalformedElements() {
      assertFails("Enum8()", 6, "expected a string literal");
      assertFails("Enum8(a = 1)", 6, "expected a string literal");
      assertFails("Enum8('a' 1)", 10, "expected ',' or ')'");
      assertFails("Enum8('a' = )", 12, "expected an integer");
      assertFails("Enum8('a' = -)", 13, "expected an integer");
      assertFails("Enum8('a' = 1.5)", 13, "expected ',' or ')'");
      assertFails("Enum8('a' = 1", 13, "expected ',' or ')'");
      assertFails("Enum8('a' = 1,)", 14, "expected a string literal");
      assertFails("Enum8('a = 1)", 6, "unterminated string literal");
      assertFails("Enum8('a\\", 6, "unterminated string literal");
      assertFails("Enum8", 5, "expected '('");
    }

    @Test
    void rejectsBadHexEscapes() {
      assertFails("Enum8('\\x4' = 1)", 7, "expected two hex digits after \\x");
      assertFails("Enum8('\\xZZ' = 1)", 7, "expected two hex digits after \\x");
      assertFails("Enum8('a\\xff' = 1)", 8, "not UTF-8");
      assertFails("Enum8('\\xC3' = 1)", 7, "not UTF-8");
    }
  }

  @Nested
  class Composites {

    @Test
    void parsesNullable() {
      ClickHouseType t = parse("Nullable(Int32)");
      assertThat(t.isNullable()).isTrue();
      assertThat(t.element()).isEqualTo(ClickHouseType.of(TypeKind.INT32));
      assertThat(parse("Nullable(Nothing)")).hasToString("Nullable(Nothing)");
      assertThat(parse("Nullable ( Enum8('x' = 1) )")).hasToString("Nullable(Enum8('x' = 1))");
    }

    @Test
    void parsesArraysAtAnyDepth() {
      assertThat(parse("Array(Array(Array(Int8)))").element().element().element())
          .isEqualTo(ClickHouseType.of(TypeKind.INT8));
      String deep = "Array(".repeat(TypeParser.MAX_DEPTH - 1) + "UInt8"
          + ")".repeat(TypeParser.MAX_DEPTH - 1);
      assertThat(parse(deep)).hasToString(deep);
    }

    @Test
    void parsesTuples() {
      ClickHouseType t = parse("Tuple(Int8, String)");
      assertThat(t.kind()).isEqualTo(TypeKind.TUPLE);
      assertThat(t.names()).isNull();
      assertThat(t.elements()).containsExactly(
          ClickHouseType.of(TypeKind.INT8), ClickHouseType.of(TypeKind.STRING));
      assertThat(parse("Tuple(Nullable(Int32),Array(String) ,Tuple(UInt8, String))"))
          .hasToString("Tuple(Nullable(Int32), Array(String), Tuple(UInt8, String))");
    }

    @Test
    void parsesNamedTuples() {
      ClickHouseType t = parse("Tuple(a Int8, b Array(String))");
      assertThat(t.names()).containsExactly("a", "b");
      assertThat(t).hasToString("Tuple(a Int8, b Array(String))");
      assertThat(t).isNotEqualTo(parse("Tuple(Int8, Array(String))"));
    }

    @Test
    void readsElementNamesThatLookLikeTypeNames() {
      ClickHouseType t = parse("Tuple(String String, Int8 Nullable(Int8))");
      assertThat(t.names()).containsExactly("String", "Int8");
      assertThat(t.elements().get(1)).hasToString("Nullable(Int8)");
    }

    @Test
    void readsQuotedElementNamesAndPrintsThemAsTheServerDoes() {
      ClickHouseType t = parse("Tuple(`x y` Int8, `plain` String, \"dq\" UUID, `a``b` Date)");
      assertThat(t.names()).containsExactly("x y", "plain", "dq", "a`b");
      assertThat(t).hasToString("Tuple(`x y` Int8, plain String, dq UUID, `a\\`b` Date)");
      assertThat(parse(t.toString())).isEqualTo(t);
    }

    @Test
    void backquotesNamesTheServerBackquotes() {
      ClickHouseType t = parse(
          "Tuple(`1st` Int8, `NULL` Int8, `select` Int8, `ü` Int8, `a\\nb` Int8, `_ok9` Int8)");
      assertThat(t).hasToString(
          "Tuple(`1st` Int8, `NULL` Int8, `select` Int8, `ü` Int8, `a\\nb` Int8, _ok9 Int8)");
      assertThat(t.names().get(4)).isEqualTo("a\nb");
    }

    @Test
    void parsesMaps() {
      ClickHouseType t = parse("Map(String, Array(Nullable(UInt64)))");
      assertThat(t.kind()).isEqualTo(TypeKind.MAP);
      assertThat(t.elements().get(0)).isEqualTo(ClickHouseType.of(TypeKind.STRING));
      assertThat(t).hasToString("Map(String, Array(Nullable(UInt64)))");
      assertThat(parse("Map(LowCardinality(String),LowCardinality(String))"))
          .hasToString("Map(LowCardinality(String), LowCardinality(String))");
    }

    @Test
    void parsesLowCardinality() {
      assertThat(parse("LowCardinality(Nullable(String))").element().element())
          .isEqualTo(ClickHouseType.of(TypeKind.STRING));
      for (String inner : List.of("Int8", "UInt256", "Float64", "Bool", "FixedString(2)", "Date",
          "Date32", "DateTime", "DateTime('UTC')", "UUID", "IPv4", "IPv6", "Nullable(Int32)")) {
        assertThat(parse("LowCardinality(" + inner + ")")).hasToString(
            "LowCardinality(" + inner + ")");
      }
    }

    @Test
    void parsesNested() {
      ClickHouseType t = parse("Nested(a UInt8, b String)");
      assertThat(t.kind()).isEqualTo(TypeKind.NESTED);
      assertThat(t.names()).containsExactly("a", "b");
      assertThat(t).hasToString("Nested(a UInt8, b String)");
      assertThat(parse("Nested(`x.y` Array(Int8))")).hasToString("Nested(`x.y` Array(Int8))");
    }
  }

  @Nested
  class Factories {

    @Test
    void namedRefusesNamesTheServerRefuses() {
      List<ClickHouseType> two = List.of(ClickHouseType.of(TypeKind.INT8),
          ClickHouseType.of(TypeKind.STRING));
      assertThatThrownBy(() -> ClickHouseType.named(TypeKind.TUPLE, List.of("a", "a"), two))
          .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("duplicate");
      assertThatThrownBy(() -> ClickHouseType.named(TypeKind.NESTED, List.of("", "b"), two))
          .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("empty");
      assertThatThrownBy(() -> ClickHouseType.named(TypeKind.TUPLE, List.of("null", "b"), two))
          .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("reserved");
    }

    @Test
    void printsFactoryBuiltTypesSoThatTheyParseBack() {
      ClickHouseType t = ClickHouseType.named(TypeKind.TUPLE, List.of("x y", "it's"),
          List.of(ClickHouseType.dateTime64(6, "Asia/Tokyo"),
              ClickHouseType.enumType(TypeKind.ENUM8, new String[] {"\\", "\b"},
                  new int[] {2, -1})));
      assertThat(t).hasToString(
          "Tuple(`x y` DateTime64(6, 'Asia/Tokyo'), `it's` Enum8('\\b' = -1, '\\\\' = 2))");
      assertThat(parse(t.toString())).isEqualTo(t);
    }
  }

  @Nested
  class StructureErrors {

    @ParameterizedTest
    @ValueSource(strings = {"Array(Int8)", "Nullable(Int8)", "LowCardinality(String)",
        "Map(String, Int8)", "Nested(a Int8)", "Ring", "MultiPolygon"})
    void rejectsNullableAroundTypesTheServerRefuses(String inner) {
      assertFails("Nullable(" + inner + ")", 9, "cannot be inside Nullable");
      assertFails("Array(Nullable( " + inner + "))", 16, "cannot be inside Nullable");
    }

    @ParameterizedTest
    @ValueSource(strings = {"Array(String)", "Decimal(9, 2)", "DateTime64(3)", "Enum8('a' = 1)",
        "Tuple(String)", "Map(String, String)", "LowCardinality(String)", "Nullable(Nothing)",
        "Nullable(Decimal(9, 2))", "Nested(a String)"})
    void rejectsLowCardinalityOverUnsupportedTypes(String inner) {
      assertFails("LowCardinality(" + inner + ")", 15, "LowCardinality is supported only for");
    }

    @Test
    void rejectsNothingOutsideNullable() {
      assertFails("Nothing", 0, "Nothing is only valid as Nullable(Nothing)");
      assertFails("Array(Nothing)", 6, "Nothing is only valid as Nullable(Nothing)");
      assertFails("Tuple(Int8, Nothing)", 12, "Nothing is only valid as Nullable(Nothing)");
      assertFails("Map(String, Nothing)", 12, "Nothing is only valid as Nullable(Nothing)");
      assertThat(parse("Array(Nullable(Nothing))")).hasToString("Array(Nullable(Nothing))");
    }

    @Test
    void rejectsNullableMapKeys() {
      assertFails("Map(Nullable(String), Int8)", 4, "a Map key cannot be Nullable");
      assertFails("Map( LowCardinality(Nullable(String)), Int8)", 5, "Map key cannot be Nullable");
    }

    @Test
    void rejectsMalformedMaps() {
      assertFails("Map(String)", 10, "expected ','");
      assertFails("Map(String, Int8, Int8)", 16, "expected ')'");
      assertFails("Map()", 4, "expected a type name");
    }

    @Test
    void rejectsMalformedTuples() {
      assertFails("Tuple()", 6, "expected a type name");
      assertFails("Tuple(Int8,)", 11, "expected a type name");
      assertFails("Tuple(Int8", 10, "expected ',' or ')'");
      assertFails("Tuple(a Int8, String)", 14, "expected an element name");
      assertFails("Tuple(Int8, b String)", 12, "unexpected element name");
      assertFails("Tuple(a Int8, a String)", 14, "duplicate element name 'a'");
      assertFails("Tuple(`` Int8)", 6, "an element name cannot be empty");
      assertFails("Tuple(null Int8)", 6, "the element name 'null' is reserved");
      assertFails("Tuple(`a Int8)", 6, "unterminated quoted identifier");
      assertFails("Tuple(`a`)", 9, "expected a type name");
      assertFails("Tuple(a (Int8))", 6, "unknown type 'a (Int8)'");
    }

    @Test
    void rejectsNestedWithoutNames() {
      assertFails("Nested(Int8)", 7, "expected an element name");
      assertFails("Nested()", 7, "expected an element name");
      assertFails("Nested(a Int8, String)", 15, "expected an element name");
    }

    @Test
    void rejectsArgumentsOnTypesWithoutParameters() {
      assertFails("Int8(1)", 4, "Int8 takes no arguments");
      assertFails("Array(String (3))", 13, "String takes no arguments");
      assertFails("Nullable(Nothing())", 16, "Nothing takes no arguments");
    }

    @Test
    void rejectsMissingOrExtraParentheses() {
      assertFails("", 0, "expected a type name");
      assertFails("   ", 3, "expected a type name");
      assertFails("Array", 5, "expected '('");
      assertFails("Array(", 6, "expected a type name");
      assertFails("Array(Int8", 10, "expected ')'");
      assertFails("Array(Int8))", 11, "trailing characters");
      assertFails("Array(Int8,)", 10, "expected ')'");
      assertFails("Int8 x", 5, "trailing characters");
      assertFails("(Int8)", 0, "expected a type name");
      assertFails("Array(1)", 6, "expected a type name");
    }

    @Test
    void namesUnknownAndUnsupportedTypes() {
      assertFails("Int33", 0, "unknown type 'Int33'");
      assertFails("Map(String, Int33)", 12, "unknown type 'Int33'");
      assertFails("Object('json')", 0, "unsupported type 'Object('json')'");
      assertFails("Array(IntervalDay)", 6, "unsupported type 'IntervalDay'");
    }

    @Test
    void stopsAtAFixedDepthInsteadOfOverflowingTheStack() {
      String deep = "Array(".repeat(100_000) + "Int8" + ")".repeat(100_000);
      assertFails(deep, 6 * TypeParser.MAX_DEPTH, "types nested deeper than");
    }

    @Test
    void nullIsAProgrammingError() {
      assertThatThrownBy(() -> ClickHouseType.parse(null))
          .isInstanceOf(NullPointerException.class);
    }

    @Test
    void messageNamesTypePositionAndWhatWasFound() {
      TypeParseException e = assertThrows(TypeParseException.class,
          () -> parse("Array(Int8]"));
      assertThat(e.getMessage()).isEqualTo(
          "cannot parse ClickHouse type \"Array(Int8]\" at position 10: expected ')' (found ']')");
    }
  }
}
