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
