package dev.handoff.clickhouse.type;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Type names as the server prints them: {@link ClickHouseType}'s canonical spelling ({@link
 * #render}), the names of the types without parameters, string literals and element names quoted
 * the server's way.
 */
final class TypeText {

  /** Identifiers the server backquotes although they are plain words (any letter case). */
  private static final Set<String> ALWAYS_QUOTED =
      Set.of("null", "distinct", "all", "table", "select");

  private TypeText() {}

  /**
   * Prints {@code t} in the server's canonical spelling. Called from {@code t}'s constructor once
   * every field but the canonical name is set, so it reads only those fields' accessors.
   */
  static String render(ClickHouseType t) {
    StringBuilder sb = new StringBuilder();
    List<ClickHouseType> elements = t.elements();
    switch (t.kind()) {
      case DECIMAL:
        return sb.append("Decimal(").append(t.precision()).append(", ").append(t.scale())
            .append(')').toString();
      case FIXED_STRING:
        return "FixedString(" + t.length() + ")";
      case DATETIME:
        return t.timeZone() == null ? "DateTime" : "DateTime(" + quote(t.timeZone()) + ")";
      case DATETIME64:
        return "DateTime64(" + t.precision()
            + (t.timeZone() == null ? "" : ", " + quote(t.timeZone())) + ")";
      case ENUM8:
      case ENUM16:
        sb.append(t.kind() == TypeKind.ENUM8 ? "Enum8(" : "Enum16(");
        for (int i = 0; i < t.enumSize(); i++) {
          sb.append(i == 0 ? "" : ", ").append(quote(t.enumName(i))).append(" = ")
              .append(t.enumValue(i));
        }
        return sb.append(')').toString();
      case NULLABLE:
        return "Nullable(" + elements.get(0) + ")";
      case ARRAY:
        return "Array(" + elements.get(0) + ")";
      case LOW_CARDINALITY:
        return "LowCardinality(" + elements.get(0) + ")";
      case MAP:
        return "Map(" + elements.get(0) + ", " + elements.get(1) + ")";
      case TIME64:
        return "Time64(" + t.precision() + ")";
      case QBIT:
        return "QBit(" + elements.get(0) + ", " + t.length()
            + (t.stride() < t.length() ? ", " + t.stride() : "") + ")";
      case SIMPLE_AGGREGATE_FUNCTION:
        return "SimpleAggregateFunction(" + t.function() + ", " + elements.get(0) + ")";
      case TUPLE:
      case NESTED:
        sb.append(t.kind() == TypeKind.TUPLE ? "Tuple(" : "Nested(");
        for (int i = 0; i < elements.size(); i++) {
          sb.append(i == 0 ? "" : ", ");
          if (t.names() != null) {
            sb.append(identifier(t.names().get(i))).append(' ');
          }
          sb.append(elements.get(i));
        }
        return sb.append(')').toString();
      case VARIANT: case DYNAMIC: case JSON:
        return renderVariantDynamicJson(t);
      default:
        return simpleName(t.kind());
    }
  }

  private static String renderVariantDynamicJson(ClickHouseType t) {
    StringBuilder sb = new StringBuilder();
    List<ClickHouseType> elements = t.elements();
    int maxTypes = t.maxDynamicTypes();
    switch (t.kind()) {
      case VARIANT:
        sb.append("Variant(");
        for (int i = 0; i < elements.size(); i++) {
          sb.append(i == 0 ? "" : ", ").append(elements.get(i));
        }
        return sb.append(')').toString();
      case DYNAMIC:
        return maxTypes == ClickHouseType.DEFAULT_MAX_TYPES ? "Dynamic"
            : "Dynamic(max_types=" + maxTypes + ")";
      default:
        List<String> args = new ArrayList<>();
        if (maxTypes != ClickHouseType.DEFAULT_MAX_TYPES) {
          args.add("max_dynamic_types=" + maxTypes);
        }
        if (t.maxDynamicPaths() != ClickHouseType.DEFAULT_MAX_PATHS) {
          args.add("max_dynamic_paths=" + t.maxDynamicPaths());
        }
        for (int i = 0; i < elements.size(); i++) {
          args.add(identifier(t.names().get(i)) + " " + elements.get(i));
        }
        for (String p : t.skipPaths()) {
          args.add("SKIP " + identifier(p));
        }
        for (String r : t.skipRegexps()) {
          args.add("SKIP REGEXP " + quote(r));
        }
        return args.isEmpty() ? "JSON" : "JSON(" + String.join(", ", args) + ")";
    }
  }

  /** Returns the name of a type without parameters ({@code Int8}, {@code Point}, ...). */
  static String simpleName(TypeKind kind) {
    switch (kind) {
      case INT8: return "Int8";
      case INT16: return "Int16";
      case INT32: return "Int32";
      case INT64: return "Int64";
      case INT128: return "Int128";
      case INT256: return "Int256";
      case UINT8: return "UInt8";
      case UINT16: return "UInt16";
      case UINT32: return "UInt32";
      case UINT64: return "UInt64";
      case UINT128: return "UInt128";
      case UINT256: return "UInt256";
      case FLOAT32: return "Float32";
      case FLOAT64: return "Float64";
      case BOOL: return "Bool";
      case STRING: return "String";
      case DATE: return "Date";
      case DATE32: return "Date32";
      case DATETIME: return "DateTime";
      case UUID: return "UUID";
      case IPV4: return "IPv4";
      case IPV6: return "IPv6";
      case NOTHING: return "Nothing";
      case BFLOAT16: return "BFloat16";
      case TIME: return "Time";
      case POINT: return "Point";
      case RING: return "Ring";
      case LINE_STRING: return "LineString";
      case MULTI_LINE_STRING: return "MultiLineString";
      case POLYGON: return "Polygon";
      case MULTI_POLYGON: return "MultiPolygon";
      default: throw new IllegalArgumentException(kind + " has parameters");
    }
  }

  /** Quotes a string literal as ClickHouse prints it: single quotes, backslash escapes. */
  static String quote(String s) {
    return quote(s, '\'');
  }

  /**
   * Quotes {@code s} between {@code quote} characters as the server does: a backslash before the
   * quote character and the backslash, and {@code \b \f \n \r \t \0} for those controls.
   */
  private static String quote(String s, char quote) {
    StringBuilder sb = new StringBuilder(s.length() + 2).append(quote);
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '\\': sb.append("\\\\"); break;
        case '\b': sb.append("\\b"); break;
        case '\f': sb.append("\\f"); break;
        case '\n': sb.append("\\n"); break;
        case '\r': sb.append("\\r"); break;
        case '\t': sb.append("\\t"); break;
        case '\0': sb.append("\\0"); break;
        default:
          if (c == quote) {
            sb.append('\\');
          }
          sb.append(c);
      }
    }
    return sb.append(quote).toString();
  }

  /**
   * Prints an element name as the server does: bare when it is a plain identifier ({@code
   * [A-Za-z_][A-Za-z0-9_]*}) other than a word the server always quotes, else in backquotes.
   */
  static String identifier(String name) {
    boolean plain = !name.isEmpty() && !ALWAYS_QUOTED.contains(name.toLowerCase(Locale.ROOT));
    for (int i = 0; plain && i < name.length(); i++) {
      char c = name.charAt(i);
      plain = c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
          || (i > 0 && c >= '0' && c <= '9');
    }
    return plain ? name : quote(name, '`');
  }
}
