package dev.handoff.encoders.testsupport;

import static dev.handoff.encoders.testsupport.DiffComposites.arrayV;
import static dev.handoff.encoders.testsupport.DiffComposites.mapV;
import static dev.handoff.encoders.testsupport.DiffComposites.tupleV;
import static dev.handoff.encoders.testsupport.DiffValues.ip;

import dev.handoff.clickhouse.type.ClickHouseType;
import dev.handoff.clickhouse.type.TypeKind;
import dev.handoff.encoders.testsupport.DiffModel.Case;
import dev.handoff.encoders.testsupport.DiffModel.V;
import dev.handoff.encoders.testsupport.DiffValues.Bytes;
import dev.handoff.encoders.testsupport.DiffValues.F32;
import dev.handoff.encoders.testsupport.DiffValues.F64;
import dev.handoff.encoders.testsupport.DiffValues.Ip;
import dev.handoff.testkit.Shrink;
import dev.handoff.testkit.Shrinker;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;

/**
 * Shrinking for the differential properties: drops columns and rows, simplifies types and values
 * of a failing case while it keeps failing. A case keeps its shape and framing.
 */
public final class DiffShrink {
  private DiffShrink() {}

  /* ================================================================== Shrinking */

  /** Returns the simplest value of a type: null, zero, empty, the epoch, the first enum element. */
  public static V simplest(ClickHouseType t) {
    switch (t.kind()) {
      case NULLABLE:
        return V.of(null, null);
      case LOW_CARDINALITY:
        return simplest(t.element());
      case ARRAY:
      case NESTED:
        return arrayV(List.of(), 0);
      case MAP:
        return mapV(List.of(), List.of());
      case TUPLE: {
        List<V> parts = new ArrayList<>();
        for (ClickHouseType e : t.elements()) {
          parts.add(simplest(e));
        }
        return tupleV(parts, 0);
      }
      case INT8: case INT16: case INT32: case INT64: case INT128: case INT256:
      case UINT8: case UINT16: case UINT32: case UINT64: case UINT128: case UINT256:
        return V.of(0L, BigInteger.ZERO);
      case FLOAT32:
        return V.of(0f, new F32(0f));
      case FLOAT64:
        return V.of(0d, new F64(0d));
      case BOOL:
        return V.of(false, false);
      case DECIMAL:
        return V.of(BigDecimal.ZERO, BigDecimal.ZERO.setScale(t.scale()));
      case STRING:
        return V.of("", new Bytes(new byte[0]));
      case FIXED_STRING:
        return V.of("", new Bytes(new byte[t.length()]));
      case DATE:
      case DATE32:
        return V.of(LocalDate.EPOCH, LocalDate.EPOCH);
      case DATETIME:
      case DATETIME64:
        return V.of(Instant.EPOCH, Instant.EPOCH);
      case UUID:
        return V.of(new UUID(0, 0), new UUID(0, 0));
      case IPV4:
        return V.of("0.0.0.0", new Ip("0.0.0.0"));
      case IPV6:
        return V.of("::", ip(new byte[16]));
      case ENUM8:
      case ENUM16:
        return V.of((long) t.enumValue(0), t.enumValue(0));
      default:
        throw new IllegalArgumentException("no simplest value for " + t);
    }
  }

  /**
   * A simpler type for a column and how its values follow.
   *
   * @param type the simpler type
   * @param map how a value of the old type becomes one of the simpler type
   */
  public record Simplification(ClickHouseType type, UnaryOperator<V> map) {}

  /** Returns the simpler types of {@code t}, each with the value mapping; some may be invalid. */
  public static List<Simplification> simplifications(ClickHouseType t) {
    List<Simplification> out = new ArrayList<>();
    switch (t.kind()) {
      case NULLABLE: {
        ClickHouseType inner = t.element();
        out.add(new Simplification(inner, v -> v.expected() == null ? simplest(inner) : v));
        break;
      }
      case LOW_CARDINALITY:
        out.add(new Simplification(t.element(), v -> v));
        for (Simplification s : simplifications(t.element())) {
          out.add(new Simplification(ClickHouseType.lowCardinality(s.type()), s.map()));
        }
        break;
      case ARRAY: {
        ClickHouseType e = t.element();
        out.add(new Simplification(e, v -> v.parts().isEmpty() ? simplest(e) : v.parts().get(0)));
        for (Simplification s : simplifications(e)) {
          out.add(new Simplification(ClickHouseType.array(s.type()),
              v -> arrayV(mapAll(v.parts(), s.map()), 0)));
        }
        break;
      }
      case TUPLE:
      case NESTED: {
        boolean nested = t.kind() == TypeKind.NESTED;
        List<ClickHouseType> es = t.elements();
        for (int i = 0; i < es.size(); i++) {
          int at = i;
          ClickHouseType e = es.get(i);
          out.add(new Simplification(e, nested
              ? v -> v.parts().isEmpty() ? simplest(e) : v.parts().get(0).parts().get(at)
              : v -> v.parts().get(at)));
        }
        if (t.names() != null && !nested) {
          out.add(new Simplification(ClickHouseType.tuple(es), v -> v)); // drop the names
        }
        for (int i = 0; es.size() > 1 && i < es.size(); i++) {
          int at = i;
          UnaryOperator<V> drop = v -> tupleV(without(v.parts(), at), 0);
          out.add(new Simplification(composite(t, without(es, at)),
              nested ? v -> arrayV(mapAll(v.parts(), drop), 0) : drop));
        }
        for (int i = 0; i < es.size(); i++) {
          int at = i;
          for (Simplification s : simplifications(es.get(i))) {
            List<ClickHouseType> changed = new ArrayList<>(es);
            changed.set(at, s.type());
            UnaryOperator<V> inTuple = v -> {
              List<V> parts = new ArrayList<>(v.parts());
              parts.set(at, s.map().apply(parts.get(at)));
              return tupleV(parts, 0);
            };
            out.add(new Simplification(composite(t, changed),
                nested ? v -> arrayV(mapAll(v.parts(), inTuple), 0) : inTuple));
          }
        }
        break;
      }
      case MAP: {
        ClickHouseType k = t.elements().get(0);
        ClickHouseType val = t.elements().get(1);
        out.add(new Simplification(val,
            v -> v.parts().isEmpty() ? simplest(val) : v.parts().get(1)));
        out.add(new Simplification(k, v -> v.parts().isEmpty() ? simplest(k) : v.parts().get(0)));
        for (Simplification s : simplifications(val)) {
          out.add(new Simplification(ClickHouseType.map(k, s.type()),
              v -> mapV(keysOf(v), mapAll(valuesOf(v), s.map()))));
        }
        for (Simplification s : simplifications(k)) {
          out.add(new Simplification(ClickHouseType.map(s.type(), val),
              v -> mapV(mapAll(keysOf(v), s.map()), valuesOf(v))));
        }
        break;
      }
      case DATETIME:
        if (t.timeZone() != null) {
          out.add(new Simplification(ClickHouseType.dateTime(null),
              DiffShrink::plain));
        }
        break;
      case DATETIME64:
        if (t.timeZone() != null) {
          out.add(new Simplification(ClickHouseType.dateTime64(t.precision(), null),
              DiffShrink::plain));
        }
        break;
      default:
        break;
    }
    return out;
  }

  /** The value with its canonical form as the input (an Instant for the DateTime types). */
  private static V plain(V v) {
    return V.of(v.expected(), v.expected());
  }

  private static ClickHouseType composite(ClickHouseType t, List<ClickHouseType> elements) {
    return t.names() == null ? ClickHouseType.tuple(elements)
        : ClickHouseType.named(t.kind(), namesFor(t, elements), elements);
  }

  /** The names of {@code t} that belong to the remaining {@code elements} (same order). */
  private static List<String> namesFor(ClickHouseType t, List<ClickHouseType> elements) {
    if (elements.size() == t.elements().size()) {
      return t.names();
    }
    // One element was dropped: find which by position.
    List<String> names = new ArrayList<>(t.names());
    for (int i = 0; i < t.elements().size(); i++) {
      List<ClickHouseType> rest = without(t.elements(), i);
      if (rest.equals(elements)) {
        names.remove(i);
        return names;
      }
    }
    throw new IllegalStateException(elements + " is not " + t + " less one element");
  }

  private static <E> List<E> without(List<E> list, int at) {
    List<E> out = new ArrayList<>(list);
    out.remove(at);
    return out;
  }

  private static List<V> mapAll(List<V> values, UnaryOperator<V> f) {
    List<V> out = new ArrayList<>();
    for (V v : values) {
      out.add(f.apply(v));
    }
    return out;
  }

  private static List<V> keysOf(V map) {
    List<V> out = new ArrayList<>();
    for (int i = 0; i < map.parts().size(); i += 2) {
      out.add(map.parts().get(i));
    }
    return out;
  }

  private static List<V> valuesOf(V map) {
    List<V> out = new ArrayList<>();
    for (int i = 1; i < map.parts().size(); i += 2) {
      out.add(map.parts().get(i));
    }
    return out;
  }

  /** Returns simpler values of type {@code t} than {@code v}. */
  public static List<V> simplerValues(ClickHouseType t, V v) {
    List<V> out = new ArrayList<>();
    V simplest = simplest(t);
    if (!simplest.toString().equals(v.toString())) {
      out.add(simplest);
    }
    switch (t.kind()) {
      case NULLABLE:
        if (v.expected() != null) {
          out.addAll(simplerValues(t.element(), v));
        }
        break;
      case LOW_CARDINALITY:
        out.addAll(simplerValues(t.element(), v));
        break;
      case ARRAY:
      case NESTED: {
        ClickHouseType e = t.kind() == TypeKind.ARRAY ? t.element()
            : ClickHouseType.tuple(t.elements());
        for (int i = 0; i < v.parts().size(); i++) {
          out.add(arrayV(without(v.parts(), i), 0));
        }
        for (int i = 0; i < v.parts().size(); i++) {
          for (V simpler : simplerValues(e, v.parts().get(i))) {
            List<V> parts = new ArrayList<>(v.parts());
            parts.set(i, simpler);
            out.add(arrayV(parts, 0));
          }
        }
        break;
      }
      case TUPLE:
        for (int i = 0; i < v.parts().size(); i++) {
          for (V simpler : simplerValues(t.elements().get(i), v.parts().get(i))) {
            List<V> parts = new ArrayList<>(v.parts());
            parts.set(i, simpler);
            out.add(tupleV(parts, 0));
          }
        }
        break;
      case MAP: {
        List<V> keys = keysOf(v);
        List<V> values = valuesOf(v);
        for (int i = 0; i < keys.size(); i++) {
          out.add(mapV(without(keys, i), without(values, i)));
        }
        for (int i = 0; i < keys.size(); i++) {
          for (V simpler : simplerValues(t.elements().get(1), values.get(i))) {
            List<V> vs = new ArrayList<>(values);
            vs.set(i, simpler);
            out.add(mapV(keys, vs));
          }
          for (V simpler : simplerValues(t.elements().get(0), keys.get(i))) {
            List<V> ks = new ArrayList<>(keys);
            ks.set(i, simpler);
            out.add(mapV(ks, values));
          }
        }
        break;
      }
      case INT8: case INT16: case INT32: case INT64: case INT128: case INT256:
      case UINT8: case UINT16: case UINT32: case UINT64: case UINT128: case UINT256: {
        BigInteger b = (BigInteger) v.expected();
        if (b.signum() < 0 && !b.equals(BigInteger.ONE.negate())) {
          out.add(V.of(-1L, BigInteger.ONE.negate()));
        }
        if (b.abs().compareTo(BigInteger.ONE) > 0) {
          BigInteger half = b.shiftRight(1); // towards minus infinity: stays in range
          out.add(V.of(half, half));
        }
        if (!(v.input() instanceof BigInteger)) {
          out.add(V.of(b, b)); // the same value, plainly
        }
        break;
      }
      case STRING:
        if (v.input() instanceof CharSequence text && text.length() > 1) {
          String half = text.subSequence(0, text.length() / 2).toString();
          out.add(V.of(half, new Bytes(half.getBytes(StandardCharsets.UTF_8))));
        }
        break;
      default:
        break;
    }
    return out;
  }

  /** Returns whether the server (through our parser, which follows it) accepts {@code t}. */
  public static boolean valid(ClickHouseType t) {
    try {
      ClickHouseType.parse(t.toString());
      return true;
    } catch (IllegalArgumentException e) {
      return false;
    }
  }

  /** The most predicate calls one shrink may make; a failing check costs about a millisecond. */
  public static final int SHRINK_BUDGET = 20_000;

  /**
   * Shrinks a failing case: drops columns and rows (testkit {@link Shrinker}), replaces
   * composite types by their elements (and drops tuple elements and time zones), and replaces
   * values by simpler ones (fewer elements, zero, empty, null), until nothing changes.
   */
  public static final Shrink<Case> SHRINK = (failing, stillFails) -> {
    int[] budget = {SHRINK_BUDGET};
    Predicate<Case> fails = c -> budget[0]-- > 0 && stillFails.test(c);
    Case c = failing;
    for (boolean changed = true; changed && budget[0] > 0; ) {
      Case before = c;
      Case current = c;
      List<Integer> all = new ArrayList<>();
      for (int i = 0; i < c.columns().size(); i++) {
        all.add(i);
      }
      List<Integer> keep = Shrinker.shrinkList(all,
          k -> k.size() == all.size() || (!k.isEmpty() && fails.test(current.keepColumns(k))));
      c = keep.size() == all.size() ? c : c.keepColumns(keep);
      Case withColumns = c;
      List<List<V>> rows = Shrinker.shrinkList(c.rows(),
          rs -> rs.size() == withColumns.rows().size() || fails.test(withColumns.withRows(rs)));
      c = rows.size() == c.rows().size() ? c : c.withRows(rows);
      c = simplifyTypes(c, fails);
      c = simplifyValues(c, fails);
      changed = c != before;
    }
    return c;
  };

  private static Case simplifyTypes(Case c, Predicate<Case> fails) {
    for (int i = 0; i < c.columns().size(); i++) {
      boolean progress = true;
      while (progress) {
        progress = false;
        for (Simplification s : simplifications(c.columns().get(i).type())) {
          if (!valid(s.type())) {
            continue;
          }
          Case candidate = c.withColumn(i, s.type(), s.map());
          if (fails.test(candidate)) {
            c = candidate;
            progress = true;
            break;
          }
        }
      }
    }
    return c;
  }

  private static Case simplifyValues(Case c, Predicate<Case> fails) {
    for (int r = 0; r < c.rows().size(); r++) {
      for (int i = 0; i < c.columns().size(); i++) {
        boolean progress = true;
        while (progress) {
          progress = false;
          for (V simpler : simplerValues(c.columns().get(i).type(), c.rows().get(r).get(i))) {
            Case candidate = c.withCell(r, i, simpler);
            if (fails.test(candidate)) {
              c = candidate;
              progress = true;
              break;
            }
          }
        }
      }
    }
    return c;
  }
}
