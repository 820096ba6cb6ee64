package dev.handoff.clickhouse.row;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.handoff.api.row.RowAccessor;
import dev.handoff.api.row.ValueKind;
import dev.handoff.api.ColumnSpec;
import dev.handoff.api.TableSchema;
import dev.handoff.clickhouse.row.Walk.Bytes;
import dev.handoff.clickhouse.row.Walk.Pairs;
import java.lang.invoke.MethodHandles;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

final class RecordRowAccessorTest {

  enum Level { LOW, HIGH }

  private record Primitives(long l, int i, short s, byte b, double d, float f, boolean z, char c) {}

  private record Boxed(Long l, Integer i, Double d, Boolean z, Character c) {}

  private record Everything(String text, BigDecimal dec, List<Integer> list,
      Map<String, Integer> map, int[] ints, UUID id, Instant at, Level level, byte[] raw,
      List<List<Map<String, long[]>>> deep) {}

  private record Throwing(int ok) {
    @Override
    public int ok() {
      throw new IllegalStateException("component failed");
    }
  }

  private static TableSchema schema(String... names) {
    return new TableSchema(Arrays.stream(names).map(n -> new ColumnSpec(n, "String")).toList());
  }

  @Test
  void primitiveComponents_haveConstantKindsAndReadWithTypedGetters() {
    RowAccessor<Primitives> acc = RowAccessors.records(Primitives.class,
        schema("c", "z", "f", "d", "b", "s", "i", "l"), MethodHandles.lookup());
    Primitives row = new Primitives(Long.MIN_VALUE, Integer.MAX_VALUE, Short.MIN_VALUE,
        Byte.MAX_VALUE, -0.5, 0.1f, true, 'q');

    assertThat(Walk.kinds(acc, row, 8)).containsExactly(ValueKind.TEXT, ValueKind.BOOLEAN,
        ValueKind.DOUBLE, ValueKind.DOUBLE, ValueKind.LONG, ValueKind.LONG, ValueKind.LONG,
        ValueKind.LONG);
    assertThat(acc.getText(row, 0).toString()).isEqualTo("q");
    assertThat(acc.getBoolean(row, 1)).isTrue();
    assertThat(acc.getDouble(row, 2)).isEqualTo((double) 0.1f);
    assertThat(acc.getDouble(row, 3)).isEqualTo(-0.5);
    assertThat(acc.getLong(row, 4)).isEqualTo(Byte.MAX_VALUE);
    assertThat(acc.getLong(row, 5)).isEqualTo(Short.MIN_VALUE);
    assertThat(acc.getLong(row, 6)).isEqualTo(Integer.MAX_VALUE);
    assertThat(acc.getLong(row, 7)).isEqualTo(Long.MIN_VALUE);
    assertThat(acc.getDouble(row, 6)).as("an integer read as double").isEqualTo(2147483647.0);
    for (int i = 0; i < 8; i++) {
      assertThat(acc.isNull(row, i)).isFalse();
    }
    assertThat(acc.getObject(row, 7)).isEqualTo(Long.MIN_VALUE);
    assertThat(acc.getObject(row, 2)).isEqualTo((double) 0.1f);
    assertThat(acc.getObject(row, 1)).isEqualTo(true);
    assertThat(acc.getObject(row, 0)).isEqualTo('q');
    assertThat(acc.size(row)).isEqualTo(8);
  }

  @Test
  void boxedComponents_readLikeObjectsAndNullIsNull() {
    RowAccessor<Boxed> acc = RowAccessors.records(Boxed.class, schema("l", "i", "d", "z", "c"),
        MethodHandles.lookup());
    Boxed full = new Boxed(1L << 50, -3, 1e-9, false, 'é');
    Boxed empty = new Boxed(null, null, null, null, null);

    assertThat(Walk.row(acc, full, 5)).containsExactly(1L << 50, -3L, 1e-9, false, "é");
    assertThat(Walk.kinds(acc, empty, 5)).containsOnly(ValueKind.NULL);
    assertThat(acc.isNull(empty, 0)).isTrue();
  }

  @Test
  void referenceComponents_coverTheOtherKindsAndNestToDepthThree() {
    Map<String, Integer> map = new LinkedHashMap<>();
    map.put("a", 1);
    UUID id = UUID.randomUUID();
    Instant at = Instant.ofEpochSecond(1_700_000_000L);
    Everything row = new Everything("t", new BigDecimal("-1.5"), List.of(4, 5), map,
        new int[] {9}, id, at, Level.HIGH, new byte[] {7},
        List.of(List.of(Map.of("k", new long[] {1, 2}))));
    RowAccessor<Everything> acc = RowAccessors.records(Everything.class,
        schema("deep", "raw", "level", "at", "id", "ints", "map", "list", "dec", "text"),
        MethodHandles.lookup());

    assertThat(Walk.kinds(acc, row, 10)).containsExactly(ValueKind.SEQUENCE, ValueKind.BYTES,
        ValueKind.TEXT, ValueKind.TEMPORAL, ValueKind.UUID, ValueKind.SEQUENCE, ValueKind.MAP,
        ValueKind.SEQUENCE, ValueKind.BIG_DECIMAL, ValueKind.TEXT);
    assertThat(Walk.row(acc, row, 10)).containsExactly(
        List.of(List.of(Pairs.of("k", List.of(1L, 2L)))), Bytes.of((byte) 7), "HIGH", at, id,
        List.of(9L), Pairs.of("a", 1L), List.of(4L, 5L), new BigDecimal("-1.5"), "t");
    assertThat(acc.getObject(row, 2)).isSameAs(Level.HIGH);
    assertThat(acc.getObject(row, 6)).isEqualTo(new Object[] {"a", 1});
    assertThat(acc.nested(row, 0)).isSameAs(RowAccessors.values());
  }

  @Test
  void missingColumns_areNamedWithTheAvailableComponents() {
    assertThatThrownBy(() -> RowAccessors.records(Boxed.class, schema("l", "nope", "alsoNope"),
        MethodHandles.lookup()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("record " + Boxed.class.getName())
        .hasMessageContaining("no component for columns nope, alsoNope")
        .hasMessageContaining("available: c, d, i, l, z");
    assertThatThrownBy(() -> RowAccessors.records(Boxed.class, schema("x"),
        MethodHandles.lookup()))
        .hasMessageContaining("no component for column x;");
  }

  @Test
  @SuppressWarnings({"unchecked", "rawtypes"})
  void nonRecordClass_isRejected() {
    Class raw = String.class;
    assertThatThrownBy(() -> RowAccessors.records(raw, schema("x"), MethodHandles.lookup()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("java.lang.String is not a record class");
  }

  @Test
  void lookupWithoutAccess_isRejectedWithAHint() {
    assertThatThrownBy(() -> RowAccessors.records(Boxed.class, schema("l"),
        MethodHandles.publicLookup()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("cannot read l of " + Boxed.class.getName())
        .hasMessageContaining("MethodHandles.lookup()")
        .hasCauseInstanceOf(IllegalAccessException.class);
  }

  @Test
  void failingAccessor_propagatesItsUncheckedException() {
    RowAccessor<Throwing> acc = RowAccessors.records(Throwing.class, schema("ok"),
        MethodHandles.lookup());

    assertThatThrownBy(() -> acc.getLong(new Throwing(1), 0))
        .isInstanceOf(IllegalStateException.class).hasMessage("component failed");
  }

  @Test
  void extraComponents_areIgnored() {
    RowAccessor<Primitives> acc = RowAccessors.records(Primitives.class, schema("i"),
        MethodHandles.lookup());

    assertThat(acc.getLong(new Primitives(0, 42, (short) 0, (byte) 0, 0, 0, false, 'a'), 0))
        .isEqualTo(42L);
    assertThat(acc.size(null)).isEqualTo(1);
  }
}
