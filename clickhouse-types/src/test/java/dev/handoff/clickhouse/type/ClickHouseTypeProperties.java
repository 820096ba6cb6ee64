package dev.handoff.clickhouse.type;

import static org.assertj.core.api.Assertions.assertThat;

import dev.handoff.testkit.Gen;
import dev.handoff.testkit.SeedSweep;
import dev.handoff.testkit.Shrink;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Seeded properties of {@link ClickHouseType#parse} over random nested types: printing and
 * parsing back gives an equal type, extra whitespace between tokens changes nothing, and a
 * corrupted string either parses or fails with a {@link TypeParseException}, never anything else.
 * Rerun one seed with {@code -Dhandoff.seed=N}.
 */
class ClickHouseTypeProperties {

  /** Builds random types that the server accepts, at most {@code maxDepth} composites deep. */
  static final class TypeGen {

    private static final List<String> ZONES = Arrays.asList(null, "UTC", "Asia/Tokyo",
        "Europe/Berlin", "America/New_York", "Asia/Kolkata", "Etc/GMT+5", "Australia/Lord_Howe");

    /** Kinds without parameters (Nothing aside). */
    private static final List<TypeKind> SIMPLE = List.of(TypeKind.INT8, TypeKind.INT16,
        TypeKind.INT32, TypeKind.INT64, TypeKind.INT128, TypeKind.INT256, TypeKind.UINT8,
        TypeKind.UINT16, TypeKind.UINT32, TypeKind.UINT64, TypeKind.UINT128, TypeKind.UINT256,
        TypeKind.FLOAT32, TypeKind.FLOAT64, TypeKind.BOOL, TypeKind.STRING, TypeKind.DATE,
        TypeKind.DATE32, TypeKind.UUID, TypeKind.IPV4, TypeKind.IPV6, TypeKind.BFLOAT16,
        TypeKind.TIME);

    /** Characters that stress quoting: quotes, backslashes, controls, UTF-8 of every width. */
    private static final String AWKWARD = "'`\"\\\0\n\t\r\b\f\u0007\u000B\u001B =(),-_xü日";

    private TypeGen() {}

    /** Returns a generator of types up to {@code maxDepth} composites deep. */
    static Gen<ClickHouseType> types(int maxDepth) {
      return r -> any(r, r.nextInt(maxDepth + 1));
    }

    static ClickHouseType any(SplittableRandom r, int depth) {
      if (depth <= 0 || r.nextInt(4) == 0) {
        return leaf(r);
      }
      switch (r.nextInt(8)) {
        case 0:
          return ClickHouseType.nullable(nullableInner(r));
        case 1:
        case 2:
          return ClickHouseType.array(any(r, depth - 1));
        case 3:
          return ClickHouseType.lowCardinality(lowCardinalityInner(r));
        case 4: {
          ClickHouseType key = any(r, depth - 1);
          if (key.isNullable() || (key.kind() == TypeKind.LOW_CARDINALITY
              && key.element().isNullable())) {
            key = leaf(r);
          }
          return ClickHouseType.map(key, any(r, depth - 1));
        }
        case 5:
          return ClickHouseType.tuple(elements(r, depth - 1));
        case 6: {
          List<ClickHouseType> elements = elements(r, depth - 1);
          return ClickHouseType.named(TypeKind.TUPLE, names(r, elements.size()), elements);
        }
        default: {
          List<ClickHouseType> elements = elements(r, depth - 1);
          return ClickHouseType.named(TypeKind.NESTED, names(r, elements.size()), elements);
        }
      }
    }

    static ClickHouseType leaf(SplittableRandom r) {
      switch (r.nextInt(14)) {
        case 10:
          return ClickHouseType.time64(r.nextInt(10));
        case 11:
          return ClickHouseType.qbit(ClickHouseType.of(List.of(TypeKind.BFLOAT16,
              TypeKind.FLOAT32, TypeKind.FLOAT64, TypeKind.INT8).get(r.nextInt(4))),
              r.nextInt(1, 2000));
        case 12:
          return ClickHouseType.of(TypeKind.POINT);
        case 13:
          return ClickHouseType.simpleAggregateFunction(r.nextBoolean() ? "anyLast" : "max",
              ClickHouseType.of(SIMPLE.get(r.nextInt(SIMPLE.size()))));
        case 0: {
          int p = r.nextInt(1, 77);
          return ClickHouseType.decimal(p, r.nextInt(p + 1));
        }
        case 1:
          return ClickHouseType.fixedString(r.nextInt(8) == 0 ? 0xFF_FFFF : r.nextInt(1, 65));
        case 2:
          return ClickHouseType.dateTime(ZONES.get(r.nextInt(ZONES.size())));
        case 3:
          return ClickHouseType.dateTime64(r.nextInt(10), ZONES.get(r.nextInt(ZONES.size())));
        case 4:
          return enumType(r);
        default:
          return ClickHouseType.of(SIMPLE.get(r.nextInt(SIMPLE.size())));
      }
    }

    private static ClickHouseType nullableInner(SplittableRandom r) {
      return r.nextInt(8) == 0 ? ClickHouseType.of(TypeKind.NOTHING) : leaf(r);
    }

    private static ClickHouseType lowCardinalityInner(SplittableRandom r) {
      ClickHouseType inner;
      switch (r.nextInt(4)) {
        case 0:
          inner = ClickHouseType.fixedString(r.nextInt(1, 33));
          break;
        case 1:
          inner = ClickHouseType.dateTime(ZONES.get(r.nextInt(ZONES.size())));
          break;
        default:
          inner = ClickHouseType.of(SIMPLE.get(r.nextInt(SIMPLE.size())));
      }
      return r.nextBoolean() ? ClickHouseType.nullable(inner) : inner;
    }

    private static ClickHouseType enumType(SplittableRandom r) {
      boolean small = r.nextBoolean();
      int min = small ? Byte.MIN_VALUE : Short.MIN_VALUE;
      int max = small ? Byte.MAX_VALUE : Short.MAX_VALUE;
      int size = r.nextInt(1, 7);
      Set<String> names = new HashSet<>();
      Set<Integer> values = new HashSet<>();
      while (names.size() < size) {
        names.add(text(r, true));
      }
      while (values.size() < size) {
        int v = r.nextInt(4) == 0 ? (r.nextBoolean() ? min : max) : r.nextInt(min, max + 1);
        values.add(v);
      }
      List<String> n = new ArrayList<>(names);
      List<Integer> v = new ArrayList<>(values);
      return ClickHouseType.enumType(small ? TypeKind.ENUM8 : TypeKind.ENUM16,
          n.toArray(new String[0]), v.stream().mapToInt(Integer::intValue).toArray());
    }

    private static List<ClickHouseType> elements(SplittableRandom r, int depth) {
      int size = r.nextInt(1, 5);
      List<ClickHouseType> out = new ArrayList<>(size);
      for (int i = 0; i < size; i++) {
        out.add(any(r, depth));
      }
      return out;
    }

    /** Distinct element names: plain words, words the server quotes, or awkward text. */
    private static List<String> names(SplittableRandom r, int size) {
      Set<String> out = new LinkedHashSet<>();
      while (out.size() < size) {
        String name;
        switch (r.nextInt(4)) {
          case 0:
            name = List.of("a", "b", "Int8", "String", "select", "NULL", "Nullable", "x_1", "_")
                .get(r.nextInt(9));
            break;
          case 1:
            name = text(r, false);
            break;
          default:
            name = word(r);
        }
        if (!name.isEmpty() && !name.equals("null")) {
          out.add(name);
        }
      }
      return new ArrayList<>(out);
    }

    private static String word(SplittableRandom r) {
      String first = "abcxyzABCXYZ_";
      String rest = first + "0123456789";
      StringBuilder sb = new StringBuilder().append(first.charAt(r.nextInt(first.length())));
      int length = r.nextInt(8);
      for (int i = 0; i < length; i++) {
        sb.append(rest.charAt(r.nextInt(rest.length())));
      }
      return sb.toString();
    }

    /** Random text mixing awkward characters with {@link Gen#text}'s every-width UTF-16. */
    private static String text(SplittableRandom r, boolean mayBeEmpty) {
      StringBuilder sb = new StringBuilder();
      int length = r.nextInt(mayBeEmpty ? 0 : 1, 7);
      for (int i = 0; i < length; i++) {
        if (r.nextBoolean()) {
          sb.append(AWKWARD.charAt(r.nextInt(AWKWARD.length())));
        } else {
          sb.append(Gen.text(2).next(r));
        }
      }
      return sb.toString();
    }
  }

  /** Shrinks a failing type to the smallest nested type that still fails. */
  private static final Shrink<ClickHouseType> TO_SUBTYPE = (failing, stillFails) -> {
    ClickHouseType current = failing;
    boolean progress = true;
    while (progress) {
      progress = false;
      for (ClickHouseType child : current.elements()) {
        if (stillFails.test(child)) {
          current = child;
          progress = true;
          break;
        }
      }
    }
    return current;
  };

  @Test
  void printedTypesParseBackEqual() {
    SeedSweep.run("parse(t.toString()) equals t", 1, 3_000, TypeGen.types(4)::sample, t -> {
      ClickHouseType back = ClickHouseType.parse(t.toString());
      assertThat(back).isEqualTo(t);
      assertThat(back.toString()).isEqualTo(t.toString());
      assertSameStructure(back, t);
      return true;
    }, TO_SUBTYPE);
  }

  @Test
  void whitespaceBetweenTokensChangesNothing() {
    Gen<Spaced> gen = r -> {
      ClickHouseType t = TypeGen.types(4).next(r);
      return new Spaced(t, insertWhitespace(t.toString(), r));
    };
    SeedSweep.run("whitespace between tokens keeps the type", 10_000, 2_000, gen::sample,
        c -> ClickHouseType.parse(c.spaced()).equals(c.type()));
  }

  @Test
  void corruptedStringsParseOrFailWithTypeParseException() {
    Gen<Corrupted> gen = r -> {
      ClickHouseType t = TypeGen.types(3).next(r);
      String s = r.nextBoolean() ? t.toString() : insertWhitespace(t.toString(), r);
      int edits = r.nextInt(1, 4);
      for (int i = 0; i < edits; i++) {
        s = corrupt(s, r);
      }
      return new Corrupted(t.toString(), s);
    };
    SeedSweep.run("a corrupted type parses or throws TypeParseException", 20_000, 6_000,
        gen::sample, c -> parsesOrFailsCleanly(c.corrupted()));
  }

  @Test
  void everyPrefixParsesOrFailsCleanly() {
    SeedSweep.run("every prefix parses or throws TypeParseException", 30_000, 300,
        TypeGen.types(3)::sample, t -> {
          String s = t.toString();
          for (int i = 0; i <= s.length(); i++) {
            parsesOrFailsCleanly(s.substring(0, i));
          }
          return true;
        }, TO_SUBTYPE);
  }

  /** A type and its spelling with extra whitespace. */
  record Spaced(ClickHouseType type, String spaced) {}

  /** A type's spelling and a corrupted copy. */
  record Corrupted(String original, String corrupted) {}

  /**
   * Checks that {@code s} either parses to a type whose spelling parses back to it, or fails with
   * a {@link TypeParseException} whose position lies within the string.
   */
  private static boolean parsesOrFailsCleanly(String s) {
    ClickHouseType t;
    try {
      t = ClickHouseType.parse(s);
    } catch (TypeParseException e) {
      assertThat(e.position()).as(e.getMessage()).isBetween(0, s.length());
      assertThat(e.typeString()).isEqualTo(s);
      return true;
    } catch (RuntimeException | StackOverflowError e) {
      throw new AssertionError("parse(" + s + ") threw " + e, e);
    }
    assertThat(ClickHouseType.parse(t.toString())).isEqualTo(t);
    return true;
  }

  private static void assertSameStructure(ClickHouseType a, ClickHouseType b) {
    assertThat(a.kind()).isEqualTo(b.kind());
    assertThat(a.precision()).isEqualTo(b.precision());
    assertThat(a.scale()).isEqualTo(b.scale());
    assertThat(a.length()).isEqualTo(b.length());
    assertThat(a.timeZone()).isEqualTo(b.timeZone());
    assertThat(a.names()).isEqualTo(b.names());
    assertThat(a.enumSize()).isEqualTo(b.enumSize());
    for (int i = 0; i < a.enumSize(); i++) {
      assertThat(a.enumName(i)).isEqualTo(b.enumName(i));
      assertThat(a.enumValue(i)).isEqualTo(b.enumValue(i));
    }
    assertThat(a.elements()).hasSameSizeAs(b.elements());
    for (int i = 0; i < a.elements().size(); i++) {
      assertSameStructure(a.elements().get(i), b.elements().get(i));
    }
  }

  private static final String WHITESPACE = " \t\n\r\f\u000B";

  /**
   * Inserts random whitespace at token boundaries of a canonical spelling: next to a parenthesis,
   * comma, {@code =} or space outside quotes, and at both ends.
   */
  static String insertWhitespace(String s, SplittableRandom r) {
    StringBuilder out = new StringBuilder();
    char quote = 0;
    for (int i = 0; i <= s.length(); i++) {
      boolean outside = quote == 0;
      boolean boundary = i == 0 || i == s.length()
          || isSeparator(s.charAt(i - 1)) || isSeparator(s.charAt(i));
      if (outside && boundary && r.nextInt(3) == 0) {
        int n = r.nextInt(1, 4);
        for (int k = 0; k < n; k++) {
          out.append(WHITESPACE.charAt(r.nextInt(WHITESPACE.length())));
        }
      }
      if (i == s.length()) {
        break;
      }
      char c = s.charAt(i);
      out.append(c);
      if (quote != 0 && c == '\\') {
        out.append(s.charAt(++i));
      } else if (quote == 0 && (c == '\'' || c == '`')) {
        quote = c;
      } else if (c == quote) {
        quote = 0;
      }
    }
    return out.toString();
  }

  private static boolean isSeparator(char c) {
    return c == '(' || c == ')' || c == ',' || c == '=' || c == ' ';
  }

  private static final String NOISE = "()',=`\"\\ -09aZxN_\t\u00fc\uD800";

  /** Deletes, inserts or replaces one character at a random position. */
  static String corrupt(String s, SplittableRandom r) {
    int at = r.nextInt(s.length() + 1);
    char noise = NOISE.charAt(r.nextInt(NOISE.length()));
    switch (s.isEmpty() ? 1 : r.nextInt(3)) {
      case 0:
        return s.substring(0, Math.min(at, s.length() - 1)) + s.substring(
            Math.min(at, s.length() - 1) + 1);
      case 1:
        return s.substring(0, at) + noise + s.substring(at);
      default: {
        int i = Math.min(at, s.length() - 1);
        return s.substring(0, i) + noise + s.substring(i + 1);
      }
    }
  }
}
