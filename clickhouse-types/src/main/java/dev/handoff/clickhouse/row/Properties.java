package dev.handoff.clickhouse.row;

import dev.handoff.api.TableSchema;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.reflect.Field;
import java.lang.reflect.Member;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/** Resolves schema columns to record components or bean properties, once, at setup. */
final class Properties {
  private Properties() {}

  /** Returns the getters of {@code schema}'s columns on record {@code type}. */
  static Getter[] ofRecord(Class<?> type, TableSchema schema, MethodHandles.Lookup lookup) {
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(schema, "schema");
    Objects.requireNonNull(lookup, "lookup");
    if (!type.isRecord()) {
      throw new IllegalArgumentException(type.getName() + " is not a record class");
    }
    Map<String, Member> components = new TreeMap<>();
    for (RecordComponent c : type.getRecordComponents()) {
      components.put(c.getName(), c.getAccessor());
    }
    return resolve("record", "component", type, schema, lookup, components);
  }

  /**
   * Returns the getters of {@code schema}'s columns on bean {@code type}: public non-static
   * methods {@code getX()}, or {@code isX()} returning {@code boolean} or {@code Boolean}
   * (preferred over {@code getX()}), then public non-static fields. Property {@code X} is
   * matched as the JavaBeans decapitalization names it ({@code getUserId} is {@code userId},
   * {@code getURL} is {@code URL}), and a column named {@code UserId} also finds {@code
   * getUserId}.
   */
  static Getter[] ofBean(Class<?> type, TableSchema schema, MethodHandles.Lookup lookup) {
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(schema, "schema");
    Objects.requireNonNull(lookup, "lookup");
    Map<String, Member> properties = new TreeMap<>();
    for (Method m : type.getMethods()) {
      if (Modifier.isStatic(m.getModifiers()) || m.getParameterCount() != 0 || m.isBridge()
          || m.isSynthetic() || m.getReturnType() == void.class) {
        continue;
      }
      String n = m.getName();
      Class<?> r = m.getReturnType();
      if (n.length() > 2 && n.startsWith("is") && (r == boolean.class || r == Boolean.class)) {
        properties.put(decapitalize(n.substring(2)), m);
      } else if (n.length() > 3 && n.startsWith("get") && !n.equals("getClass")) {
        Member before = properties.get(decapitalize(n.substring(3)));
        if (before == null || !before.getName().startsWith("is")) {
          properties.put(decapitalize(n.substring(3)), m);
        }
      }
    }
    for (Field f : type.getFields()) {
      if (!Modifier.isStatic(f.getModifiers())) {
        properties.putIfAbsent(f.getName(), f);
      }
    }
    return resolve("bean", "getter or public field", type, schema, lookup, properties);
  }

  private static Getter[] resolve(String what, String member, Class<?> type, TableSchema schema,
      MethodHandles.Lookup lookup, Map<String, Member> available) {
    Getter[] getters = new Getter[schema.size()];
    List<String> missing = new ArrayList<>();
    for (int i = 0; i < getters.length; i++) {
      String column = schema.column(i).name();
      Member m = available.get(column);
      if (m == null && !column.isEmpty()) {
        m = available.get(decapitalize(Character.toUpperCase(column.charAt(0))
            + column.substring(1)));
      }
      if (m == null) {
        missing.add(column);
        continue;
      }
      getters[i] = Getter.of(column, unreflect(lookup, m, type));
    }
    if (!missing.isEmpty()) {
      throw new IllegalArgumentException(what + " " + type.getName() + " has no " + member
          + " for column" + (missing.size() == 1 ? " " : "s ") + String.join(", ", missing)
          + "; available: " + String.join(", ", available.keySet()));
    }
    return getters;
  }

  private static MethodHandle unreflect(MethodHandles.Lookup lookup, Member m, Class<?> type) {
    try {
      return m instanceof Field f ? lookup.unreflectGetter(f) : lookup.unreflect((Method) m);
    } catch (IllegalAccessException e) {
      throw new IllegalArgumentException("lookup " + lookup + " cannot read " + m.getName()
          + " of " + type.getName() + "; pass MethodHandles.lookup() from code that can (the"
          + " class's own module or package): " + e.getMessage(), e);
    }
  }

  /** Returns a property name as JavaBeans spells it: {@code UserId} is {@code userId}. */
  static String decapitalize(String name) {
    if (name.isEmpty() || (name.length() > 1 && Character.isUpperCase(name.charAt(0))
        && Character.isUpperCase(name.charAt(1)))) {
      return name;
    }
    return Character.toLowerCase(name.charAt(0)) + name.substring(1);
  }
}
