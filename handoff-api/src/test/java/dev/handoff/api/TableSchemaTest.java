package dev.handoff.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatNullPointerException;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

final class TableSchemaTest {

  private static final ColumnSpec ID = new ColumnSpec("id", "UInt64");
  private static final ColumnSpec NAME = new ColumnSpec("name", "Nullable(String)");

  @Test
  void emptySchema_isRejected() {
    assertThatThrownBy(TableSchema::of).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new TableSchema(List.of()))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void duplicateColumnNames_areRejectedNamingTheColumn() {
    assertThatThrownBy(() -> TableSchema.of(ID, NAME, new ColumnSpec("id", "String")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("id");
  }

  @Test
  void nullColumnsOrNullColumn_areRejected() {
    assertThatNullPointerException().isThrownBy(() -> new TableSchema(null));
    assertThatNullPointerException()
        .isThrownBy(() -> new TableSchema(Arrays.asList(ID, null)));
  }

  @Test
  void indexOf_findsColumnsInTableOrderAndReturnsMinusOneForUnknownNames() {
    TableSchema schema = TableSchema.of(ID, NAME);
    assertThat(schema.indexOf("id")).isZero();
    assertThat(schema.indexOf("name")).isEqualTo(1);
    assertThat(schema.indexOf("missing")).isEqualTo(-1);
    assertThat(schema.indexOf("ID")).isEqualTo(-1);
    assertThat(schema.size()).isEqualTo(2);
    assertThat(schema.column(1)).isEqualTo(NAME);
  }

  @Test
  void columns_areCopiedAndUnmodifiable() {
    List<ColumnSpec> source = new ArrayList<>(List.of(ID));
    TableSchema schema = new TableSchema(source);
    source.add(NAME);

    assertThat(schema.columns()).containsExactly(ID);
    assertThatThrownBy(() -> schema.columns().add(NAME))
        .isInstanceOf(UnsupportedOperationException.class);
  }

  @Test
  void columnSpec_rejectsNullNameNullTypeAndBlankType() {
    assertThatNullPointerException().isThrownBy(() -> new ColumnSpec(null, "String"));
    assertThatNullPointerException().isThrownBy(() -> new ColumnSpec("a", null));
    assertThatThrownBy(() -> new ColumnSpec("a", "  "))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("a");
  }
}
