package dev.interlock.maven;

import java.util.Objects;
import java.util.regex.Pattern;

/**
 * An Ant-style path pattern of {@code includes} and {@code excludes}, as Maven users write them: {@code **} any
 * directories (also none), {@code *} any characters of one name, {@code ?} one character; paths use {@code /}.
 */
record AntPattern(String text, Pattern regex) {
  AntPattern {
    Objects.requireNonNull(text, "text");
    Objects.requireNonNull(regex, "regex");
  }

  /** The pattern {@code text}; a trailing {@code /} means everything under that directory, as in Ant. */
  static AntPattern of(String text) {
    String t = text.trim().replace('\\', '/');
    if (t.isEmpty()) {
      throw new IllegalArgumentException("an empty pattern");
    }
    if (t.endsWith("/")) {
      t = t + "**";
    }
    StringBuilder re = new StringBuilder();
    int i = 0;
    while (i < t.length()) {
      char c = t.charAt(i);
      if (t.startsWith("**/", i)) {
        re.append("(?:.*/)?");
        i += 3;
      } else if (t.startsWith("**", i)) {
        re.append(".*");
        i += 2;
      } else if (c == '*') {
        re.append("[^/]*");
        i++;
      } else if (c == '?') {
        re.append("[^/]");
        i++;
      } else {
        re.append(Pattern.quote(String.valueOf(c)));
        i++;
      }
    }
    return new AntPattern(text, Pattern.compile(re.toString()));
  }

  /** Whether {@code relativePath} (with {@code /} between names) matches. */
  boolean matches(String relativePath) {
    return regex.matcher(relativePath).matches();
  }
}
