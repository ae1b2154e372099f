package dev.interlock.properties.fuzz;

import java.util.List;
import java.util.Objects;

/**
 * One fuzzed input: the real file it was mutated from, the edits made, and the text; printed escaped and cut short,
 * so that a failure report shows control characters and stays readable.
 */
public record Mutant(String seed, List<String> edits, String text) {
  /** How many characters of the text {@link #toString} shows. */
  static final int SHOWN = 1500;

  public Mutant {
    Objects.requireNonNull(seed, "seed");
    edits = List.copyOf(edits);
    Objects.requireNonNull(text, "text");
  }

  /** The text with newlines as {@code \n} and other control and non-ASCII characters as {@code \\uXXXX}. */
  public static String escape(String s, int max) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < s.length() && i < max; i++) {
      char c = s.charAt(i);
      if (c == '\n') {
        sb.append("\\n");
      } else if (c == '\\') {
        sb.append("\\\\");
      } else if (c < 0x20 || c > 0x7e) {
        sb.append(String.format("\\u%04x", (int) c));
      } else {
        sb.append(c);
      }
    }
    if (s.length() > max) {
      sb.append("... (").append(s.length()).append(" chars)");
    }
    return sb.toString();
  }

  @Override
  public String toString() {
    return "mutant of " + seed + " by " + edits + ": \"" + escape(text, SHOWN) + "\"";
  }
}
