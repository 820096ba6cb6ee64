package dev.handoff.clickhouse.row;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.handoff.api.row.RowAccessor;
import dev.handoff.api.row.ValueKind;
import dev.handoff.clickhouse.row.Walk.Pairs;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@link RowAccessors#values()} read directly, as encoders read nested containers. */
final class ValuesAccessorTest {
  private final RowAccessor<Object> values = RowAccessors.values();

  @Test
  void values_isOneSharedInstanceThatNestsIntoItself() {
    assertThat(RowAccessors.values()).isSameAs(values);
    assertThat(values.nested(new Object[] {List.of()}, 0)).isSameAs(values);
  }

  @Test
  void primitiveArrays_haveConstantKindsAndReadWithTypedGetters() {
    long[] longs = {Long.MAX_VALUE, -1};
    int[] ints = {Integer.MIN_VALUE};
    short[] shorts = {Short.MIN_VALUE};
    byte[] bytes = {-128};
    double[] doubles = {Double.MIN_VALUE};
    float[] floats = {Float.MAX_VALUE};
    boolean[] booleans = {false, true};

    assertThat(values.size(longs)).isEqualTo(2);
    assertThat(values.kind(longs, 1)).isEqualTo(ValueKind.LONG);
    assertThat(values.getLong(longs, 0)).isEqualTo(Long.MAX_VALUE);
    assertThat(values.kind(ints, 0)).isEqualTo(ValueKind.LONG);
    assertThat(values.getLong(ints, 0)).isEqualTo(Integer.MIN_VALUE);
    assertThat(values.getLong(shorts, 0)).isEqualTo(Short.MIN_VALUE);
    assertThat(values.kind(bytes, 0)).as("byte[] indexed as a container").isEqualTo(ValueKind.LONG);
    assertThat(values.getLong(bytes, 0)).isEqualTo(-128L);
    assertThat(values.kind(doubles, 0)).isEqualTo(ValueKind.DOUBLE);
    assertThat(values.getDouble(doubles, 0)).isEqualTo(Double.MIN_VALUE);
    assertThat(values.kind(floats, 0)).isEqualTo(ValueKind.DOUBLE);
    assertThat(values.getDouble(floats, 0)).isEqualTo(Float.MAX_VALUE);
    assertThat(values.kind(booleans, 1)).isEqualTo(ValueKind.BOOLEAN);
    assertThat(values.getBoolean(booleans, 1)).isTrue();
    assertThat(values.isNull(booleans, 0)).isFalse();
    assertThat(values.getObject(longs, 1)).isEqualTo(-1L);
    assertThat(values.getObject(ints, 0)).isEqualTo(Integer.MIN_VALUE);
  }

  @Test
  void primitiveArrays_checkTheIndexInKindToo() {
    assertThatThrownBy(() -> values.kind(new long[1], 1))
        .isInstanceOf(IndexOutOfBoundsException.class);
    assertThatThrownBy(() -> values.kind(new double[0], 0))
        .isInstanceOf(IndexOutOfBoundsException.class);
    assertThatThrownBy(() -> values.kind(new boolean[0], 0))
        .isInstanceOf(IndexOutOfBoundsException.class);
  }

  @Test
  void mapHandedInDirectly_readsAsKeyValuePairsInIterationOrder() {
    Map<Object, Object> map = new LinkedHashMap<>();
    map.put("one", 1);
    map.put(2L, List.of("x"));
    map.put("three", null);

    assertThat(values.size(map)).isEqualTo(6);
    assertThat(values.kind(map, 0)).isEqualTo(ValueKind.TEXT);
    assertThat(values.getText(map, 0).toString()).isEqualTo("one");
    assertThat(values.getLong(map, 1)).isEqualTo(1L);
    assertThat(values.getLong(map, 2)).isEqualTo(2L);
    assertThat(values.kind(map, 3)).isEqualTo(ValueKind.SEQUENCE);
    assertThat(values.isNull(map, 5)).isTrue();
    assertThat(Walk.field(values, new Object[] {map}, 0))
        .isEqualTo(Pairs.of("one", 1L, 2L, List.of("x"), "three", null));
    assertThatThrownBy(() -> values.kind(map, 6)).isInstanceOf(IndexOutOfBoundsException.class);
  }

  @Test
  void collectionHandedInDirectly_readsInIterationOrder() {
    LinkedHashSet<Object> set = new LinkedHashSet<>(List.of("z", 4, 0.5));

    assertThat(values.size(set)).isEqualTo(3);
    assertThat(values.getText(set, 0).toString()).isEqualTo("z");
    assertThat(values.getLong(set, 1)).isEqualTo(4L);
    assertThat(values.getDouble(set, 2)).isEqualTo(0.5);
    assertThat(values.kind(set, 2)).isEqualTo(ValueKind.DOUBLE);
  }

  @Test
  void getObjectOfANestedMap_isItsFlattenedEntries() {
    Map<String, Integer> inner = new LinkedHashMap<>();
    inner.put("k1", 1);
    inner.put("k2", 2);
    List<Object> outer = new ArrayList<>();
    outer.add(inner);

    assertThat(values.kind(outer, 0)).isEqualTo(ValueKind.MAP);
    assertThat(values.getObject(outer, 0)).isEqualTo(new Object[] {"k1", 1, "k2", 2});
  }

  @Test
  void nonContainer_isRejectedWithItsClass() {
    assertThatThrownBy(() -> values.size("text")).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("not a container").hasMessageContaining("java.lang.String");
    assertThatThrownBy(() -> values.kind(new char[] {'a'}, 0))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("[C");
    assertThatThrownBy(() -> values.size(null)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("null");
  }

  @Test
  void containerShapes_decidedByClass_readLikeTheirInterfaces() {
    // ArrayList and the primitive arrays are matched by identity, the rest through the class
    // cache; subclasses and other lists must read exactly as before.
    List<Object> arrayList = new ArrayList<>(List.of(5L, "x"));
    List<Object> subclass = new ArrayList<>() {};
    subclass.addAll(List.of(5L, "x"));
    List<Object> linked = new java.util.LinkedList<>(List.of(5L, "x"));
    List<Object> fixed = java.util.Arrays.asList(5L, "x");
    Object[] objects = {5L, "x"};
    CharSequence[] texts = {"y", "x"};
    for (Object c : List.of(arrayList, subclass, linked, fixed, List.of(5L, "x"), objects)) {
      assertThat(values.size(c)).as("size of %s", c.getClass()).isEqualTo(2);
      assertThat(values.kind(c, 0)).as("kind of %s", c.getClass()).isEqualTo(ValueKind.LONG);
      assertThat(values.getLong(c, 0)).isEqualTo(5L);
      assertThat(values.getDouble(c, 0)).isEqualTo(5.0);
      assertThat(values.kind(c, 1)).isEqualTo(ValueKind.TEXT);
      assertThat(values.getText(c, 1).toString()).isEqualTo("x");
      assertThat(values.isNull(c, 1)).isFalse();
    }
    assertThat(values.size(texts)).isEqualTo(2);
    assertThat(values.getText(texts, 0).toString()).isEqualTo("y");
    assertThat(values.getLong(new double[] {2.75}, 0)).as("as longValue narrows").isEqualTo(2L);
    assertThat(values.getDouble(new long[] {3}, 0)).isEqualTo(3.0);
    assertThatThrownBy(() -> values.kind(new int[1], 1))
        .isInstanceOf(IndexOutOfBoundsException.class);
    assertThatThrownBy(() -> values.getLong(new int[1], 1))
        .isInstanceOf(IndexOutOfBoundsException.class);
    assertThatThrownBy(() -> values.isNull(arrayList, 2))
        .isInstanceOf(IndexOutOfBoundsException.class);
  }

  @Test
  void getObject_ofValuesAndContainers_byClass() {
    java.time.Instant at = java.time.Instant.EPOCH;
    java.util.UUID id = new java.util.UUID(1, 2);
    java.time.LocalDate day = java.time.LocalDate.EPOCH;
    List<Object> arrayList = new ArrayList<>(List.of(1, 2));
    List<Object> subclass = new ArrayList<>() {};
    subclass.add(3);
    Object[] row = {at, id, day, arrayList, subclass, new java.util.LinkedList<>(List.of(4)),
        new java.util.TreeSet<>(List.of(6, 5)), new int[] {7}, null};
    RowAccessor<Object[]> acc = RowAccessors.objectArray();
    for (int i = 0; i <= 4; i++) {
      assertThat(acc.getObject(row, i)).as("field %d as it is", i).isSameAs(row[i]);
    }
    assertThat(acc.getObject(row, 5)).isEqualTo(new Object[] {4});
    assertThat(acc.getObject(row, 6)).isEqualTo(new Object[] {5, 6});
    assertThat(acc.getObject(row, 7)).isSameAs(row[7]);
    assertThat(acc.getObject(row, 8)).isNull();
    assertThat(values.getObject(row, 6)).isEqualTo(new Object[] {5, 6});
  }

  @Test
  void kindByIdentity_agreesWithTheClassCache() {
    for (Object v : List.of(1L, 2, "s", 0.5, java.time.Instant.EPOCH, java.time.LocalDate.EPOCH,
        java.time.LocalDateTime.of(2024, 1, 1, 0, 0), new java.util.UUID(1, 2))) {
      assertThat(JavaValues.kind(v)).as("kind of %s", v.getClass())
          .isEqualTo(JavaValues.classify(v.getClass()));
    }
  }

  @Test
  void kindOf_isDecidedByClassAndCached() {
    assertThat(JavaValues.kind(new ArrayList<>())).isEqualTo(ValueKind.SEQUENCE);
    assertThat(JavaValues.kind(new ArrayList<>())).isEqualTo(ValueKind.SEQUENCE);
    assertThat(JavaValues.classify(java.util.concurrent.ConcurrentHashMap.class))
        .isEqualTo(ValueKind.MAP);
    assertThat(JavaValues.classify(java.nio.CharBuffer.class)).isEqualTo(ValueKind.TEXT);
    assertThat(JavaValues.classify(Number.class)).isEqualTo(ValueKind.OTHER);
    assertThat(JavaValues.classify(java.util.concurrent.atomic.LongAdder.class))
        .isEqualTo(ValueKind.OTHER);
    assertThat(JavaValues.classify(java.time.OffsetTime.class)).isEqualTo(ValueKind.OTHER);
    assertThat(JavaValues.classify(java.net.Inet6Address.class)).isEqualTo(ValueKind.INET);
  }
}
