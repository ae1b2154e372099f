package dev.interlock.cli;

import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** Writes maps, lists, strings, numbers, booleans and nulls as compact JSON; keys keep their map's order. */
final class Json {
  private Json() {}

  static String write(Object value) {
    StringBuilder sb = new StringBuilder();
    write(sb, value);
    return sb.toString();
  }

  private static void write(StringBuilder sb, Object v) {
    if (v == null) {
      sb.append("null");
    } else if (v instanceof String s) {
      string(sb, s);
    } else if (v instanceof Double d) {
      if (d.isNaN() || d.isInfinite()) {
        throw new IllegalArgumentException("JSON has no " + d);
      }
      sb.append(String.format(Locale.ROOT, "%.6f", d));
    } else if (v instanceof Number || v instanceof Boolean) {
      sb.append(v);
    } else if (v instanceof Map<?, ?> m) {
      sb.append('{');
      Iterator<? extends Map.Entry<?, ?>> it = m.entrySet().iterator();
      while (it.hasNext()) {
        Map.Entry<?, ?> e = it.next();
        string(sb, String.valueOf(e.getKey()));
        sb.append(": ");
        write(sb, e.getValue());
        if (it.hasNext()) {
          sb.append(", ");
        }
      }
      sb.append('}');
    } else if (v instanceof List<?> l) {
      sb.append('[');
      for (int i = 0; i < l.size(); i++) {
        if (i > 0) {
          sb.append(", ");
        }
        write(sb, l.get(i));
      }
      sb.append(']');
    } else {
      throw new IllegalArgumentException("cannot write " + v.getClass() + " as JSON");
    }
  }

  private static void string(StringBuilder sb, String s) {
    sb.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> sb.append("\\\"");
        case '\\' -> sb.append("\\\\");
        case '\n' -> sb.append("\\n");
        case '\r' -> sb.append("\\r");
        case '\t' -> sb.append("\\t");
        default -> {
          if (c < 0x20) {
            sb.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
          } else {
            sb.append(c);
          }
        }
      }
    }
    sb.append('"');
  }
}
