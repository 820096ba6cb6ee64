package dev.handoff.encoders.testsupport;

import static dev.handoff.encoders.testsupport.DiffComposites.value;
import static dev.handoff.encoders.testsupport.DiffJson.json;
import static dev.handoff.encoders.testsupport.DiffJson.jsonString;
import static dev.handoff.encoders.testsupport.DiffModel.pick;

import dev.handoff.clickhouse.type.ClickHouseType;
import dev.handoff.encoders.testsupport.DiffJson.NotJson;
import dev.handoff.encoders.testsupport.DiffModel.Bad;
import dev.handoff.encoders.testsupport.DiffModel.V;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/** Seeded bad values for the differential properties: values the conversions must refuse. */
public final class DiffBad {
  private DiffBad() {}

  /**
   * Returns a value of {@code t} (never a Nullable type) the conversions refuse: null, text that
   * is no value of the type, a too long FixedString, an unknown enum name, a non-list for an
   * Array, or an Array with one bad element after good ones. Its expected value is a {@link Bad}.
   */
  public static V badValue(SplittableRandom r, ClickHouseType t) {
    if (r.nextInt(4) == 0) {
      return new V(null, new Bad("null"), List.of());
    }
    switch (t.kind()) {
      case ARRAY: {
        if (r.nextInt(3) == 0) {
          return new V(5L, new Bad("5"), List.of());
        }
        List<Object> in = new ArrayList<>();
        StringBuilder json = new StringBuilder("[");
        for (int i = 0, n = r.nextInt(3); i < n; i++) {
          V good = value(r, t.element(), false);
          in.add(good.input());
          StringBuilder sb = new StringBuilder();
          try {
            json(sb, t.element(), good.expected(), i);
          } catch (NotJson e) {
            sb = new StringBuilder("null"); // still bad
          }
          json.append(sb).append(", ");
        }
        V bad = badValue(r, t.element());
        in.add(bad.input());
        json.append(((Bad) bad.expected()).json()).append(']');
        return new V(in, new Bad(json.toString()), List.of());
      }
      case STRING:
        return new V(null, new Bad("null"), List.of());
      case FIXED_STRING: {
        String s = "a".repeat(t.length() + 1);
        return new V(s, new Bad(jsonString(s)), List.of());
      }
      case ENUM8:
      case ENUM16:
        return badText("no such name");
      case IPV4:
        return badText("300.1.1.1");
      case IPV6:
        return badText("2001:db8:::1");
      case UUID:
        return badText("zz");
      case BOOL:
        return badText("maybe");
      case DATE: case DATE32: case DATETIME: case DATETIME64:
        return badText("no time");
      default:
        return badText(pick(r, "twelve", "1,5", "abc"));
    }
  }

  private static V badText(String s) {
    return new V(s, new Bad(jsonString(s)), List.of());
  }

}
