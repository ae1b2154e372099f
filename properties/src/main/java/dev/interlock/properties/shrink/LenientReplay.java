package dev.interlock.properties.shrink;

import dev.interlock.model.state.Model;
import dev.interlock.model.state.Violation;
import dev.interlock.model.state.ViolationKind;
import dev.interlock.model.trace.Outcome;
import dev.interlock.model.trace.Trace;
import dev.interlock.model.trace.TraceRecorder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Runs a schedule given as thread picks on a model, skipping each pick of a thread that cannot
 * move (blocked, finished, or not in this model), so that a schedule with threads, jobs or steps
 * taken out still runs; the shrinker's one way to try a candidate.
 *
 * <p>It ends in {@code kind} when an executed pick fails with that kind, or, for a deadlock, when
 * the picks run out in a state where no thread can move.
 */
final class LenientReplay {
  private final Model model;
  private final ViolationKind kind;
  private final Map<String, Integer> index = new HashMap<>();

  LenientReplay(Model model, ViolationKind kind) {
    this.model = model;
    this.kind = kind;
    for (int t = 0; t < model.threads(); t++) {
      index.put(model.threadName(t), t);
    }
  }

  /** The model's thread index of each name, -1 for a thread this model does not have. */
  int[] indices(List<String> names) {
    return names.stream().mapToInt(n -> index.getOrDefault(n, -1)).toArray();
  }

  /** The thread names of picks that are all threads of this model. */
  List<String> names(int[] picks) {
    List<String> out = new ArrayList<>(picks.length);
    for (int t : picks) {
      out.add(model.threadName(t));
    }
    return out;
  }

  /** The picks that executed, when the run ends in the kind; empty when it ends otherwise. */
  Optional<int[]> executed(int[] picks) {
    long[] s = model.initial();
    long[] out = new long[s.length];
    int[] done = new int[picks.length];
    int n = 0;
    for (int t : picks) {
      if (t < 0 || t >= model.threads()) {
        continue;
      }
      int code = model.step(s, t, out);
      if (code == Model.BLOCKED || code == Model.FINISHED) {
        continue;
      }
      done[n++] = t;
      ViolationKind v = Model.violation(code);
      if (v != null) {
        return v == kind ? Optional.of(Arrays.copyOf(done, n)) : Optional.empty();
      }
      long[] tmp = s;
      s = out;
      out = tmp;
    }
    return kind == ViolationKind.DEADLOCK && model.deadlocked(s) ? Optional.of(Arrays.copyOf(done, n)) : Optional.empty();
  }

  /** For each of {@code executed}'s picks (all of which execute), the 0-based job its thread is in when it moves. */
  int[] jobs(int[] executed) {
    long[] s = model.initial();
    long[] out = new long[s.length];
    int[] jobs = new int[executed.length];
    for (int i = 0; i < executed.length; i++) {
      int t = executed[i];
      jobs[i] = model.view(s, t).job();
      if (moves(model.step(s, t, out), i, executed.length)) {
        long[] tmp = s;
        s = out;
        out = tmp;
      }
    }
    return jobs;
  }

  /** The model's trace of {@code executed}, picks that {@link #executed} returned: the step lines and the violation. */
  Trace trace(int[] executed, String source, Optional<Long> seed) {
    long[] s = model.initial();
    long[] out = new long[s.length];
    TraceRecorder rec = new TraceRecorder(model);
    for (int i = 0; i < executed.length; i++) {
      int t = executed[i];
      int code = model.step(s, t, out);
      moves(code, i, executed.length);
      rec.record(s, t, out);
      ViolationKind v = Model.violation(code);
      if (v != null) {
        return rec.finish(source, seed, new Outcome.Violated(new Violation(v, model.explain(s, t, v))));
      }
      long[] tmp = s;
      s = out;
      out = tmp;
    }
    if (!model.deadlocked(s)) {
      throw new IllegalArgumentException("the picks end neither in a failing step nor in a deadlock");
    }
    return rec.finish(source, seed, new Outcome.Violated(new Violation(ViolationKind.DEADLOCK, model.explainDeadlock(s))));
  }

  /** Whether code is a move; throws when pick i of n cannot move or fails before the last pick. */
  private static boolean moves(int code, int i, int n) {
    if (code == Model.BLOCKED || code == Model.FINISHED) {
      throw new IllegalArgumentException("pick " + (i + 1) + " cannot move; pass the picks executed() returned");
    }
    if (Model.violation(code) != null && i != n - 1) {
      throw new IllegalArgumentException("pick " + (i + 1) + " fails before the last pick");
    }
    return Model.violation(code) == null;
  }
}
