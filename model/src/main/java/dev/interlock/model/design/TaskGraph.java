package dev.interlock.model.design;

import dev.interlock.model.step.Alloc;
import dev.interlock.model.step.Signal;
import dev.interlock.model.step.Spawn;
import dev.interlock.model.step.Step;
import dev.interlock.model.step.Steps;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * Which tasks a body can start, directly or through other tasks: the rules that span a role and its
 * tasks (no task spawns itself, a kept name has one size, a wait has a signal in its job) are checked over it, by {@link Design} and,
 * with positions, by {@link DesignParser}, so both apply the same rules.
 *
 * <p>Spawns of undeclared tasks are ignored here; they are reported as undeclared names.
 */
final class TaskGraph {
  /** Two allocs of one name that disagree: on {@code keep}, or, both kept, on the size. */
  record KeepConflict(Alloc earlier, Alloc later) {}

  private final Map<String, List<Step>> tasks;

  /** The graph of tasks, by name, each with its body. */
  TaskGraph(Map<String, List<Step>> tasks) {
    this.tasks = tasks;
  }

  /** The graph of a design's tasks. */
  static TaskGraph of(List<Task> tasks) {
    Map<String, List<Step>> m = new HashMap<>();
    tasks.forEach(t -> m.put(t.name(), t.body()));
    return new TaskGraph(m);
  }

  /** Whether task {@code name} is declared. */
  boolean has(String name) {
    return tasks.containsKey(name);
  }

  /** The declared tasks that body spawns itself, in textual order, each once. */
  List<String> spawns(List<Step> body) {
    Set<String> out = new LinkedHashSet<>();
    Steps.forEach(body, s -> {
      if (s instanceof Spawn sp && tasks.containsKey(sp.task())) {
        out.add(sp.task());
      }
    });
    return new ArrayList<>(out);
  }

  /** The tasks that body can start, directly or through other tasks, nearest first. */
  Set<String> reach(List<Step> body) {
    Set<String> seen = new LinkedHashSet<>();
    ArrayDeque<String> todo = new ArrayDeque<>(spawns(body));
    while (!todo.isEmpty()) {
      String t = todo.poll();
      if (seen.add(t)) {
        todo.addAll(spawns(tasks.get(t)));
      }
    }
    return seen;
  }

  /** The tasks that task {@code name} can start, directly or through other tasks. */
  Set<String> reach(String name) {
    return reach(tasks.get(name));
  }

  /** The shortest chain of spawns from task {@code from} to task {@code to}, both included ({@code [from]} when equal); empty when none. */
  List<String> path(String from, String to) {
    Map<String, String> parent = new HashMap<>();
    parent.put(from, null);
    ArrayDeque<String> todo = new ArrayDeque<>(List.of(from));
    while (!todo.isEmpty()) {
      String t = todo.poll();
      if (t.equals(to)) {
        List<String> out = new ArrayList<>();
        for (String p = t; p != null; p = parent.get(p)) {
          out.add(0, p);
        }
        return out;
      }
      for (String c : spawns(tasks.get(t))) {
        if (!parent.containsKey(c)) {
          parent.put(c, t);
          todo.add(c);
        }
      }
    }
    return List.of();
  }

  /** A cycle through task {@code name}, e.g. {@code [a, b, a]}, or empty when it cannot spawn itself. */
  List<String> cycle(String name) {
    for (String c : spawns(tasks.get(name))) {
      List<String> back = path(c, name);
      if (!back.isEmpty()) {
        List<String> out = new ArrayList<>(List.of(name));
        out.addAll(back);
        return out;
      }
    }
    return List.of();
  }

  /** Every step of body and of the tasks it can start, in that order, the steps inside {@code if} blocks included. */
  List<Step> closure(List<Step> body) {
    List<Step> out = Steps.flatten(body);
    for (String t : reach(body)) {
      out.addAll(Steps.flatten(tasks.get(t)));
    }
    return out;
  }

  /** The events signalled in body and in the tasks it can start. */
  Set<String> signals(List<Step> body) {
    Set<String> out = new TreeSet<>();
    for (Step s : closure(body)) {
      if (s instanceof Signal sig) {
        out.add(sig.event());
      }
    }
    return out;
  }

  /**
   * The events that a job running task {@code name} can signal: in each role (of {@code roles}'
   * bodies) or task that can start it, or the task itself, and in the tasks those can start.
   */
  Set<String> jobSignals(String name, List<List<Step>> roles) {
    Set<String> out = new TreeSet<>(signals(tasks.get(name)));
    for (List<Step> r : roles) {
      if (reach(r).contains(name)) {
        out.addAll(signals(r));
      }
    }
    for (Map.Entry<String, List<Step>> t : tasks.entrySet()) {
      if (reach(t.getValue()).contains(name)) {
        out.addAll(signals(t.getValue()));
      }
    }
    return out;
  }

  /**
   * The first alloc of {@code steps} that disagrees with the first alloc of the same name: one
   * kept and the other not, or both kept at different sizes. Steps are taken in the given order.
   */
  static Optional<KeepConflict> keepConflict(List<Step> steps) {
    Map<String, Alloc> first = new HashMap<>();
    for (Step s : steps) {
      if (s instanceof Alloc a) {
        Alloc f = first.putIfAbsent(a.buffer(), a);
        if (f != null && (f.keep() != a.keep() || (a.keep() && f.bytes() != a.bytes()))) {
          return Optional.of(new KeepConflict(f, a));
        }
      }
    }
    return Optional.empty();
  }
}
