package dev.handoff.encoders.testsupport;

import static dev.handoff.encoders.testsupport.DiffScalars.scalarValue;
import static dev.handoff.encoders.testsupport.DiffTypes.mixesIpv6;

import dev.handoff.clickhouse.type.ClickHouseType;
import dev.handoff.clickhouse.type.TypeKind;
import dev.handoff.encoders.testsupport.DiffModel.V;
import dev.handoff.encoders.testsupport.DiffValues.F32;
import dev.handoff.encoders.testsupport.DiffValues.F64;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.LinkedList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * Seeded values of any type for the differential properties, and the composite families: Array
 * (given as List, Object[], a fixed-size or linked list, a Set, or a primitive array), Tuple (List,
 * Object[], or a Map by element name), Map and Nested. Scalars come from {@link DiffScalars}.
 */
public final class DiffComposites {
  private DiffComposites() {}

  /**
   * Returns a value of type {@code t}: an input the encoder must accept and the canonical value
   * it stands for. {@code top} is true for a table column (through Nullable and LowCardinality),
   * false inside Array, Tuple, Map and Nested.
   */
  public static V value(SplittableRandom r, ClickHouseType t, boolean top) {
    switch (t.kind()) {
      case NULLABLE:
        return r.nextInt(10) < 3 ? V.of(null, null) : value(r, t.element(), top);
      case LOW_CARDINALITY:
        return value(r, t.element(), top);
      case ARRAY:
        return arrayValue(r, t, top);
      case TUPLE: {
        List<V> parts = new ArrayList<>();
        for (ClickHouseType e : t.elements()) {
          parts.add(value(r, e, false));
        }
        return tupleV(parts, r.nextInt(t.names() == null ? 2 : 3), t.names());
      }
      case NESTED: {
        ClickHouseType tuple = ClickHouseType.named(TypeKind.TUPLE, t.names(), t.elements());
        List<V> parts = new ArrayList<>();
        for (int i = 0, n = length(r); i < n; i++) {
          parts.add(value(r, tuple, false));
        }
        return arrayV(parts, r.nextInt(3));
      }
      case MAP: {
        List<V> keys = new ArrayList<>();
        List<V> values = new ArrayList<>();
        for (int i = 0, n = r.nextInt(5) == 0 ? 0 : length(r); i < n; i++) {
          keys.add(value(r, t.elements().get(0), false));
          values.add(value(r, t.elements().get(1), false));
        }
        return mapV(keys, values);
      }
      default:
        return scalarValue(r, t, top);
    }
  }

  /** An array length: mostly short, sometimes empty, now and then long. */
  private static int length(SplittableRandom r) {
    int roll = r.nextInt(100);
    return roll < 20 ? 0 : roll < 75 ? 1 + r.nextInt(3) : roll < 97 ? 4 + r.nextInt(7)
        : 11 + r.nextInt(60);
  }

  private static V arrayValue(SplittableRandom r, ClickHouseType t, boolean top) {
    List<V> parts = new ArrayList<>();
    for (int i = 0, n = length(r); i < n; i++) {
      V v = value(r, t.element(), false);
      while (!parts.isEmpty() && mixesIpv6(t, parts.get(0), v)) {
        v = value(r, t.element(), false); // see clientV2CannotReadItsOwnArrayOfMixedIPv6
      }
      parts.add(v);
    }
    if (r.nextInt(4) == 0) {
      Object primitive = primitiveArray(r, t.element(), parts);
      if (primitive != null) {
        return new V(primitive, expectedList(parts), parts);
      }
    }
    return arrayV(parts, r.nextInt(5));
  }

  /** A primitive array holding the values of {@code parts}, or null when none fits. */
  private static Object primitiveArray(SplittableRandom r, ClickHouseType element, List<V> parts) {
    TypeKind k = (element.kind() == TypeKind.LOW_CARDINALITY ? element.element() : element).kind();
    int n = parts.size();
    switch (k) {
      case INT8: case INT16: case INT32: case INT64: case INT128: case INT256:
      case UINT8: case UINT16: case UINT32: case UINT64: case UINT128: case UINT256: {
        long[] longs = new long[n];
        boolean ints = true;
        for (int i = 0; i < n; i++) {
          BigInteger v = (BigInteger) parts.get(i).expected();
          if (v.bitLength() > 63) {
            return null;
          }
          longs[i] = v.longValue();
          ints &= longs[i] == (int) longs[i];
        }
        if (ints && r.nextBoolean()) {
          return Arrays.stream(longs).mapToInt(x -> (int) x).toArray();
        }
        return longs;
      }
      case FLOAT64: {
        double[] a = new double[n];
        for (int i = 0; i < n; i++) {
          a[i] = ((F64) parts.get(i).expected()).v();
        }
        return a;
      }
      case FLOAT32: {
        float[] a = new float[n];
        for (int i = 0; i < n; i++) {
          a[i] = ((F32) parts.get(i).expected()).v();
        }
        return a;
      }
      case BOOL: {
        boolean[] a = new boolean[n];
        for (int i = 0; i < n; i++) {
          a[i] = (Boolean) parts.get(i).expected();
        }
        return a;
      }
      default:
        return null;
    }
  }

  private static List<Object> expectedList(List<V> parts) {
    List<Object> out = new ArrayList<>();
    for (V p : parts) {
      out.add(p.expected());
    }
    return Collections.unmodifiableList(out);
  }

  /**
   * Returns an Array (or Nested) value of {@code parts} as a List, Object[], fixed-size or linked
   * list, or (shape 4, when the inputs differ) a Set, by {@code shape}.
   */
  public static V arrayV(List<V> parts, int shape) {
    List<Object> inputs = new ArrayList<>();
    for (V p : parts) {
      inputs.add(p.input());
    }
    Object input = shape == 0 ? inputs : shape == 1 ? inputs.toArray()
        : shape == 2 ? Arrays.asList(inputs.toArray()) : new LinkedList<>(inputs);
    if (shape == 4 && new HashSet<>(inputs).size() == inputs.size()) {
      input = new LinkedHashSet<>(inputs); // a Collection that is not a List
    }
    return new V(input, expectedList(parts), List.copyOf(parts));
  }

  /** Returns a Tuple value of {@code parts} as a List (shape 0) or an Object[]. */
  public static V tupleV(List<V> parts, int shape) {
    return tupleV(parts, shape, null);
  }

  /**
   * Returns a Tuple value of {@code parts} as a List, an Object[] or (shape 2, a named tuple) a
   * Map from element names to values, in reverse order (the encoder matches them by name).
   */
  public static V tupleV(List<V> parts, int shape, List<String> names) {
    List<Object> inputs = new ArrayList<>();
    for (V p : parts) {
      inputs.add(p.input());
    }
    Object input = shape == 0 ? inputs : inputs.toArray();
    if (shape == 2 && names != null) {
      Map<String, Object> byName = new LinkedHashMap<>();
      for (int i = parts.size() - 1; i >= 0; i--) {
        byName.put(names.get(i), inputs.get(i));
      }
      input = byName;
    }
    return new V(input, expectedList(parts), List.copyOf(parts));
  }

  /** Returns a Map value; a key whose canonical value repeats an earlier key is left out. */
  public static V mapV(List<V> keys, List<V> values) {
    Map<Object, Object> input = new LinkedHashMap<>();
    List<Object> expected = new ArrayList<>();
    List<V> parts = new ArrayList<>();
    Set<Object> seen = new HashSet<>();
    for (int i = 0; i < keys.size(); i++) {
      V k = keys.get(i);
      if (!seen.add(k.expected()) || input.containsKey(k.input())) {
        continue;
      }
      V v = values.get(i);
      input.put(k.input(), v.input());
      expected.add(Arrays.asList(k.expected(), v.expected()));
      parts.add(k);
      parts.add(v);
    }
    return new V(input, Collections.unmodifiableList(expected), List.copyOf(parts));
  }
}
