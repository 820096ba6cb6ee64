package dev.handoff.flink.table;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.handoff.api.ColumnSpec;
import dev.handoff.api.TableSchema;
import dev.handoff.api.row.ValueKind;
import java.util.List;
import java.util.Set;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.utils.LogicalTypeParser;
import org.apache.flink.util.InstantiationUtil;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Which Flink types map to which ClickHouse types, and the errors of those that do not. */
final class TypeMappingTest {

  static LogicalType flink(String type) {
    return LogicalTypeParser.parse(type, TypeMappingTest.class.getClassLoader());
  }

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource(delimiter = '|', value = {
      "BOOLEAN | UInt8 | BOOLEAN",
      "BOOLEAN | Bool | BOOLEAN",
      "TINYINT | Int8 | LONG",
      "INT | UInt32 | LONG",
      "INT NOT NULL | Nullable(Int64) | LONG",
      "BIGINT | Decimal(20, 2) | LONG",
      "BIGINT | Float64 | LONG",
      "FLOAT | Float32 | DOUBLE",
      "DOUBLE | Float32 | DOUBLE",
      "DECIMAL(10, 2) | Decimal(18, 4) | BIG_DECIMAL",
      "STRING | LowCardinality(Nullable(String)) | BYTES",
      "CHAR(3) | FixedString(3) | BYTES",
      "STRING | UUID | TEXT",
      "STRING | Enum16('a' = 1) | TEXT",
      "STRING | IPv6 | TEXT",
      "BYTES | String | BYTES",
      "BINARY(16) | UUID | BYTES",
      "DATE | Date | LONG",
      "DATE | Date32 | LONG",
      "TIMESTAMP(3) | DateTime | LONG",
      "TIMESTAMP(3) | DateTime('Etc/UTC') | LONG",
      "TIMESTAMP(3) | DateTime('Europe/Berlin') | TEMPORAL",
      "TIMESTAMP(9) | DateTime64(7) | LONG",
      "TIMESTAMP(9) | DateTime64(8) | TEMPORAL",
      "TIMESTAMP_LTZ(3) | DateTime64(3, 'Europe/Berlin') | LONG",
      "ARRAY<INT> | Array(Nullable(Int64)) | SEQUENCE",
      "MAP<STRING, ARRAY<DOUBLE>> | Map(String, Array(Float64)) | MAP",
      "ROW<a INT, b STRING> | Tuple(a Int32, b String) | SEQUENCE"})
  void pairsThatMap_readAsTheirKind(String flinkType, String clickHouse, ValueKind kind) {
    assertThat(TypeMapping.read("c", flink(flinkType), clickHouse).kind).isEqualTo(kind);
  }

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource(delimiter = '|', value = {
      "STRING | UInt8",
      "STRING | UInt32",
      "INT | String",
      "INT | Date",
      "INT | DateTime",
      "DOUBLE | Decimal(10, 2)",
      "DOUBLE | Int64",
      "DECIMAL(10, 2) | Float64",
      "BOOLEAN | String",
      "BYTES | Enum8('a' = 1)",
      "DATE | DateTime",
      "TIMESTAMP(3) | Date",
      "TIME(0) | String",
      "ARRAY<INT> | String",
      "MAP<STRING, INT> | Array(Int32)",
      "ROW<a INT> | Tuple(Int32, Int32)"})
  void pairsThatDoNotMap_failNamingTheColumnAndBothTypes(String flinkType, String clickHouse) {
    LogicalType type = flink(flinkType);
    assertThatThrownBy(() -> TypeMapping.read("c", type, clickHouse))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("column \"c\": Flink type " + type.asSummaryString()
            + " cannot be written to ClickHouse " + clickHouse);
  }

  @Test
  void theMessageOfTheBriefNamesColumnAndBothTypes() {
    assertThatThrownBy(() -> TypeMapping.read("age", flink("STRING"), "UInt8"))
        .hasMessage("column \"age\": Flink type STRING cannot be written to ClickHouse UInt8");
  }

  @Test
  void aNestedMismatch_namesThePathAndTheInnerTypes() {
    assertThatThrownBy(() -> TypeMapping.read("tags", flink("ARRAY<STRING>"), "Array(UInt32)"))
        .hasMessage("column \"tags\": Flink type ARRAY<STRING> cannot be written to ClickHouse"
            + " Array(UInt32) (at tags[]: Flink type STRING cannot be written to ClickHouse"
            + " UInt32)");
    assertThatThrownBy(() -> TypeMapping.read("m", flink("MAP<STRING, INT>"),
        "Map(String, String)"))
        .hasMessageEndingWith("(at m.value: Flink type INT cannot be written to ClickHouse"
            + " String)");
  }

  static RowType row(String fields) {
    return (RowType) flink("ROW<" + fields + ">");
  }

  static TableSchema schema(String... nameTypePairs) {
    return RowDataAccessorTest.schema(nameTypePairs);
  }

  @Test
  void columnsToWrite_leaveOutNullableAndDefaultColumnsInClickHouseOrder() {
    List<String> columns = SchemaMatch.columnsToWrite(row("b STRING, a BIGINT"),
        schema("a", "UInt64", "n", "Nullable(String)", "lcn", "LowCardinality(Nullable(String))",
            "created", "DateTime", "b", "String"), Set.of("created"), "db.t");
    assertThat(columns).containsExactly("a", "b");
  }

  @Test
  void columnsToWrite_listEveryProblemAndHintAtACaseMismatch() {
    assertThatThrownBy(() -> SchemaMatch.columnsToWrite(row("ID BIGINT, age STRING"),
        schema("id", "UInt64", "age", "UInt8"), Set.of(), "db.t"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("the Flink table cannot be written to ClickHouse table db.t:"
            + " column \"ID\": the ClickHouse table has no insertable column of that name"
            + " (Flink type BIGINT); did you mean \"id\"?;"
            + " column \"age\": Flink type STRING cannot be written to ClickHouse UInt8;"
            + " column \"id\": ClickHouse UInt64 is not Nullable and has no DEFAULT, and the"
            + " Flink table has no column of that name");
  }

  @Test
  void theAccessorOfEachSubtask_checksTheColumnsItIsGivenAgain() {
    RowDataAccessorFactory factory = new RowDataAccessorFactory(row("id BIGINT, v STRING"),
        "db.t");
    assertThat(factory.create(schema("id", "UInt64", "v", "String"))
        .getLong(GenericRowData.of(5L, null), 0)).isEqualTo(5);
    // The table changed after the statement was planned.
    assertThatThrownBy(() -> factory.create(schema("id", "UInt64", "v", "UInt32", "w", "Int8")))
        .hasMessage("the Flink table cannot be written to ClickHouse table db.t:"
            + " column \"v\": Flink type STRING cannot be written to ClickHouse UInt32;"
            + " column \"w\": the Flink table has no column of that name (ClickHouse Int8)");
  }

  @Test
  void theAccessorFactory_travelsWithTheJobGraph() throws Exception {
    RowDataAccessorFactory factory = new RowDataAccessorFactory(
        row("id BIGINT, m MAP<STRING, ARRAY<TIMESTAMP(3)>>"), "db.t");
    RowDataAccessorFactory copy = InstantiationUtil.clone(factory);
    assertThat(copy.create(new TableSchema(List.of(new ColumnSpec("id", "Int64"),
        new ColumnSpec("m", "Map(String, Array(DateTime64(3)))")))).size(null)).isEqualTo(2);
  }
}
