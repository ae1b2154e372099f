package dev.interlock.observe;

import dev.interlock.model.design.Design;
import dev.interlock.model.step.Step;
import dev.interlock.model.step.Steps;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * Where a role's step is written in the design file, for messages that point at both sides of a divergence.
 *
 * <p>A step is found by the object the design parsed, not by its text: cuzk's phase 9 writes the same {@code alloc h_temp
 * 4544MiB async} on four paths, and a message must name the line of the path the run took.
 */
final class DesignLines {
  private final String source;
  private final List<String> lines;
  private final Map<Step, Integer> lineOf = new IdentityHashMap<>();

  DesignLines(String source, String text, Design design) {
    this.source = source;
    this.lines = List.of(text.split("\n", -1));
    design.roles().forEach(r -> place("role", r.name(), r.body()));
    design.tasks().forEach(t -> place("task", t.name(), t.body()));
  }

  /**
   * Gives each step of the body its line: the body's lines that write a step (not the keyword lines {@code on oom},
   * {@code on oom ignore}, {@code else}, {@code or}, {@code end}) are its steps in textual order, whatever their
   * spelling ({@code 4096MiB} for 4GiB). Where the two counts differ, no step of the body is placed.
   */
  private void place(String kind, String name, List<Step> body) {
    int at = header(kind, name);
    if (at < 0) {
      return;
    }
    List<Integer> stepLines = new java.util.ArrayList<>();
    for (int i = at + 1; i < lines.size(); i++) {
      String l = clean(lines.get(i));
      if (l.startsWith("role ") || l.startsWith("task ")) {
        break;
      }
      if (!l.isEmpty() && !KEYWORD_LINES.contains(l)) {
        stepLines.add(i);
      }
    }
    List<Step> steps = Steps.flatten(body);
    if (steps.size() == stepLines.size()) {
      for (int k = 0; k < steps.size(); k++) {
        lineOf.put(steps.get(k), stepLines.get(k));
      }
    }
  }

  private static final java.util.Set<String> KEYWORD_LINES = java.util.Set.of("on oom", "on oom ignore", "else", "or", "end");

  private int header(String kind, String name) {
    for (int i = 0; i < lines.size(); i++) {
      String[] w = clean(lines.get(i)).split("\\s+");
      if (w.length >= 2 && w[0].equals(kind) && w[1].equals(name)) {
        return i;
      }
    }
    return -1;
  }

  /**
   * {@code FILE:LINE} of {@code step} in role {@code role}'s body: the line of that very step, else the first line with
   * its text, else with its first two words, else the role's.
   */
  String position(String role, Step step) {
    Integer exact = lineOf.get(step);
    if (exact != null) {
      return source + ":" + (exact + 1);
    }
    int start = header("role", role);
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
