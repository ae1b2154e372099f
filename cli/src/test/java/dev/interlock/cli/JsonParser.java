package dev.interlock.cli;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A minimal recursive-descent JSON parser for tests: objects become {@link LinkedHashMap}s (key
 * order kept), arrays {@link List}s, integers {@link Long}s, other numbers {@link Double}s.
 * Anything that is not exactly one JSON value fails with an {@link IllegalArgumentException}.
 */
final class JsonParser {
  private final String s;
  private int pos;

  private JsonParser(String s) {
    this.s = s;
  }

  static Object parse(String text) {
    JsonParser p = new JsonParser(text);
    Object v = p.value();
    p.ws();
    if (p.pos != text.length()) {
      throw p.error("trailing text");
    }
    return v;
  }

  private Object value() {
    ws();
    if (pos >= s.length()) {
      throw error("unexpected end");
    }
    char c = s.charAt(pos);
    switch (c) {
      case '{':
        return object();
      case '[':
        return array();
      case '"':
        return string();
      case 't':
        return literal("true", Boolean.TRUE);
      case 'f':
        return literal("false", Boolean.FALSE);
      case 'n':
        return literal("null", null);
      default:
        return number();
    }
  }

  private Map<String, Object> object() {
    Map<String, Object> m = new LinkedHashMap<>();
    expect('{');
    ws();
    if (peek('}')) {
      pos++;
      return m;
    }
    do {
      ws();
      String key = string();
      ws();
      expect(':');
      if (m.containsKey(key)) {
        throw error("duplicate key " + key);
      }
      m.put(key, value());
      ws();
    } while (consume(','));
    expect('}');
    return m;
  }

  private List<Object> array() {
    List<Object> l = new ArrayList<>();
    expect('[');
    ws();
    if (peek(']')) {
      pos++;
      return l;
    }
    do {
      l.add(value());
      ws();
    } while (consume(','));
    expect(']');
    return l;
  }

  private String string() {
    expect('"');
    StringBuilder sb = new StringBuilder();
    while (true) {
      if (pos >= s.length()) {
        throw error("unterminated string");
      }
      char c = s.charAt(pos++);
      if (c == '"') {
        return sb.toString();
      }
      if (c < 0x20) {
        throw error("control character in string");
      }
      if (c != '\\') {
        sb.append(c);
        continue;
      }
      char e = s.charAt(pos++);
      switch (e) {
        case '"', '\\', '/' -> sb.append(e);
        case 'n' -> sb.append('\n');
        case 'r' -> sb.append('\r');
        case 't' -> sb.append('\t');
        case 'b' -> sb.append('\b');
        case 'f' -> sb.append('\f');
        case 'u' -> {
          sb.append((char) Integer.parseInt(s.substring(pos, pos + 4), 16));
          pos += 4;
        }
        default -> throw error("bad escape \\" + e);
      }
    }
  }

  private Object number() {
    int start = pos;
    while (pos < s.length() && "+-0123456789.eE".indexOf(s.charAt(pos)) >= 0) {
      pos++;
    }
    String n = s.substring(start, pos);
    if (n.isEmpty()) {
      throw error("unexpected character '" + s.charAt(pos) + "'");
    }
    try {
      return n.matches("-?(0|[1-9][0-9]*)") ? (Object) Long.parseLong(n) : (Object) Double.parseDouble(n);
    } catch (NumberFormatException e) {
      throw error("bad number " + n);
    }
  }

  private Object literal(String word, Object v) {
    if (!s.startsWith(word, pos)) {
      throw error("expected " + word);
    }
    pos += word.length();
    return v;
  }

  private void ws() {
    while (pos < s.length() && " \t\r\n".indexOf(s.charAt(pos)) >= 0) {
      pos++;
    }
  }

  private boolean peek(char c) {
    return pos < s.length() && s.charAt(pos) == c;
  }

  private boolean consume(char c) {
    if (peek(c)) {
      pos++;
      return true;
    }
    return false;
  }

  private void expect(char c) {
    if (!consume(c)) {
      throw error("expected '" + c + "'");
    }
  }

  private IllegalArgumentException error(String what) {
    return new IllegalArgumentException("JSON: " + what + " at offset " + pos + " of: " + s);
  }
}
