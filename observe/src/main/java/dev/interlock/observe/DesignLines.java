package dev.interlock.observe;

import dev.interlock.model.step.Step;
import java.util.List;

/** Where a role's step is written in the design file, for messages that point at both sides of a divergence. */
final class DesignLines {
  private final String source;
  private final List<String> lines;

  DesignLines(String source, String text) {
    this.source = source;
    this.lines = List.of(text.split("\n", -1));
  }

  /** {@code FILE:LINE} of {@code step} in role {@code role}'s body: its text, else its first two words, else the role. */
  String position(String role, Step step) {
    int start = -1;
    for (int i = 0; i < lines.size(); i++) {
      String[] w = clean(lines.get(i)).split("\\s+");
      if (w.length >= 2 && w[0].equals("role") && w[1].equals(role)) {
        start = i;
        break;
      }
    }
    if (start < 0) {
      return source;
    }
    String text = step.text();
    String[] want = text.split(" ");
    int loose = -1;
    for (int i = start + 1; i < lines.size(); i++) {
      String l = clean(lines.get(i));
      if (l.startsWith("role ") || l.startsWith("task ")) {
        break;
      }
      if (l.equals(text)) {
        return source + ":" + (i + 1);
      }
      String[] w = l.split("\\s+");
      if (loose < 0 && want.length >= 2 && w.length >= 2 && w[0].equals(want[0]) && w[1].equals(want[1])) {
        loose = i;
      }
    }
    return source + ":" + ((loose >= 0 ? loose : start) + 1);
  }

  private static String clean(String line) {
    int hash = line.indexOf('#');
    return (hash >= 0 ? line.substring(0, hash) : line).strip().replaceAll("\\s+", " ");
  }
}
