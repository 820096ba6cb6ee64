package dev.handoff.encoders.testsupport;

import java.net.InetAddress;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/** How the differential properties show values in reports: inputs with their Java types. */
public final class DiffShow {
  private DiffShow() {}

  /* ================================================================== Showing values */

  /** Returns an input value with its Java type where the text alone would hide it. */
  public static String show(Object o) {
    if (o == null) {
      return "null";
    }
    if (o instanceof String s) {
      return quote(s, 80);
    }
    if (o instanceof StringBuilder sb) {
      return "StringBuilder(" + quote(sb.toString(), 80) + ")";
    }
    if (o instanceof char[] cs) {
      return "char[]" + quote(new String(cs), 80);
    }
    if (o instanceof byte[] b) {
      return "byte[]" + hex(b, 32);
    }
    if (o instanceof Long) {
      return o + "L";
    }
    if (o instanceof Integer || o instanceof Boolean) {
      return o.toString();
    }
    if (o instanceof Short) {
      return "(short) " + o;
    }
    if (o instanceof Byte) {
      return "(byte) " + o;
    }
    if (o instanceof Double) {
      return o + "d";
    }
    if (o instanceof Float) {
      return o + "f";
    }
    if (o instanceof Object[] a) {
      return "Object[]" + showAll(Arrays.asList(a));
    }
    if (o instanceof long[] a) {
      return "long[]" + Arrays.toString(a);
    }
    if (o instanceof int[] a) {
      return "int[]" + Arrays.toString(a);
    }
    if (o instanceof double[] a) {
      return "double[]" + Arrays.toString(a);
    }
    if (o instanceof float[] a) {
      return "float[]" + Arrays.toString(a);
    }
    if (o instanceof boolean[] a) {
      return "boolean[]" + Arrays.toString(a);
    }
    if (o instanceof List<?> l) {
      return o.getClass().getSimpleName() + showAll(l);
    }
    if (o instanceof Map<?, ?> m) {
      StringBuilder sb = new StringBuilder("Map{");
      for (Map.Entry<?, ?> e : m.entrySet()) {
        sb.append(sb.length() == 4 ? "" : ", ").append(show(e.getKey())).append('=')
            .append(show(e.getValue()));
      }
      return sb.append('}').toString();
    }
    if (o instanceof InetAddress a) {
      return a.getClass().getSimpleName() + "(" + a.getHostAddress() + ")";
    }
    return o.getClass().getSimpleName() + "(" + o + ")";
  }

  private static String showAll(List<?> l) {
    StringBuilder sb = new StringBuilder("[");
    for (Object o : l) {
      sb.append(sb.length() == 1 ? "" : ", ").append(show(o));
    }
    return sb.append(']').toString();
  }

  /** Returns text quoted, escaping controls and unpaired surrogates; long text is cut. */
  public static String quote(String s, int max) {
    StringBuilder sb = new StringBuilder("\"");
    int shown = 0;
    for (int i = 0; i < s.length(); ) {
      int cp = s.codePointAt(i);
      i += Character.charCount(cp);
      if (shown++ == max) {
        sb.append("\"…(").append(s.length()).append(" chars)");
        return sb.toString();
      }
      if (cp == '"' || cp == '\\') {
        sb.append('\\').append((char) cp);
      } else if (cp < 0x20 || cp == 0x7F || (cp >= 0xD800 && cp <= 0xDFFF)) {
        sb.append(String.format("\\u%04x", cp));
      } else {
        sb.appendCodePoint(cp);
      }
    }
    return sb.append('"').toString();
  }

  /** Returns at most {@code max} bytes of {@code b} as hex, with the length when cut. */
  public static String hex(byte[] b, int max) {
    StringBuilder sb = new StringBuilder("0x");
    for (int i = 0; i < Math.min(b.length, max); i++) {
      sb.append(String.format("%02x", b[i] & 0xFF));
    }
    if (b.length > max) {
      sb.append("…(").append(b.length).append(" bytes)");
    }
    return sb.toString();
  }
}
