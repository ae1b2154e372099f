package dev.interlock.model.trace;

import dev.interlock.model.design.Design;
import dev.interlock.model.design.Sizes;
import dev.interlock.model.state.Model;
import dev.interlock.model.state.Phase;
import dev.interlock.model.state.ViolationKind;
import dev.interlock.model.step.Step;
import java.util.Optional;

/** Re-executes a trace on the model and confirms each transition and the recorded outcome. */
public final class Replayer {
  private Replayer() {}

  /** Replays {@code trace} on {@code design} with the trace's parameters applied. */
  public static ReplayResult replay(Trace trace, Design design) {
    Design d;
    try {
      d = trace.params().applyTo(design);
    } catch (IllegalArgumentException e) {
      return new ReplayResult.Diverged(0, "the trace's parameters do not fit design " + design.name() + ": " + e.getMessage());
    }
    if (!d.name().equals(trace.design())) {
      return new ReplayResult.Diverged(0, "trace is of design " + trace.design() + ", not " + d.name());
    }
    Model model = new Model(d);
    long[] s = model.initial();
    long[] out = new long[s.length];
    boolean swallowed = false;
    for (TraceStep ts : trace.steps()) {
      int i = ts.index();
      Taken taken = take(model, s, ts, out);
      if (taken.diverged() != null) {
        return taken.diverged();
      }
      ViolationKind v = Model.violation(taken.code());
      if (v != null) {
        boolean goesOn = v == ViolationKind.SWALLOWED_OOM && !swallowed && trace.outcome() instanceof Outcome.Violated ov
            && ov.violation().kind() == v;
        if (i != trace.length() && !goesOn) {
          return new ReplayResult.Diverged(i, "the model fails here with " + v + ", the trace goes on");
        }
        if (i == trace.length()) {
          if (trace.outcome() instanceof Outcome.Violated ov && ov.violation().kind() == v) {
            return replayAfter(trace, model, out);
          }
          return new ReplayResult.Diverged(i, "the model fails here with " + v + ", the trace's outcome is " + trace.outcome());
        }
        swallowed = true; // an engine's run goes on after a failure its design ignores
      }
      long[] tmp = s;
      s = out;
      out = tmp;
    }
    if (swallowed) {
      return new ReplayResult.Confirmed(trace.length(), trace.outcome());
    }
    return checkEnd(trace, model, s);
  }

  /** The outcome of one replayed transition: the model's code, or where the trace diverged from it. */
  private record Taken(int code, ReplayResult.Diverged diverged) {}

  /** Takes trace step ts from s into out, checking the thread, step, phase, bytes read and after, and what ran without. */
  private static Taken take(Model model, long[] s, TraceStep ts, long[] out) {
    int i = ts.index();
    int thread = model.threadIndex(ts.thread());
    if (thread < 0) {
      return new Taken(0, new ReplayResult.Diverged(i, "no thread " + ts.thread() + " in the model"));
    }
    int t = model.moveOf(s, thread, ts.phase());
    Optional<Step> next = model.nextStep(s, t);
    if (next.isEmpty()) {
      return new Taken(0, new ReplayResult.Diverged(i, ts.thread() + " has finished, the trace has it run '" + ts.step().text() + "'"));
    }
    if (!next.get().text().equals(ts.step().text()) || !model.nextPhase(s, t).equals(ts.phase())) {
      return new Taken(0, new ReplayResult.Diverged(i, ts.thread() + " is at '" + describe(next.get(), model.nextPhase(s, t))
          + "', the trace has '" + describe(ts.step(), ts.phase()) + "'"));
    }
    if (ts.free().isPresent() && ts.free().get() != model.free(s)) {
      return new Taken(0, new ReplayResult.Diverged(i, ts.thread() + " " + ts.step().text() + " reads "
          + Sizes.format(model.free(s)) + " free; the trace has " + Sizes.format(ts.free().get())));
    }
    if (!model.missingUses(s, t).equals(ts.without())) {
      return new Taken(0, new ReplayResult.Diverged(i, ts.thread() + " " + ts.step().text() + " runs without "
          + model.missingUses(s, t) + " on the model; the trace has without " + ts.without()));
    }
    int code = model.step(s, t, out);
    if (code == Model.BLOCKED) {
      return new Taken(code, new ReplayResult.Diverged(i, ts.thread() + " cannot take '" + ts.step().text() + "' now: it is blocked"));
    }
    if (model.used(out) != ts.used() || model.cached(out) != ts.cached()) {
      return new Taken(code, new ReplayResult.Diverged(i, "device after the step: used " + Sizes.format(model.used(out))
          + ", cached " + Sizes.format(model.cached(out)) + "; the trace has used " + Sizes.format(ts.used()) + ", cached "
          + Sizes.format(ts.cached())));
    }
    return new Taken(code, null);
  }

  /** Replays the trace's steps after its violation ({@link Trace#after}) from s, the state the violation left. */
  private static ReplayResult replayAfter(Trace trace, Model model, long[] s) {
    long[] cur = s.clone();
    long[] out = new long[cur.length];
    for (TraceStep ts : trace.after()) {
      Taken taken = take(model, cur, ts, out);
      if (taken.diverged() != null) {
        return taken.diverged();
      }
      if (taken.code() != Model.MOVED) {
        return new ReplayResult.Diverged(ts.index(), "after the violation the model stops at " + ts.thread() + " "
            + ts.step().text() + " (" + (Model.violation(taken.code()) != null ? Model.violation(taken.code()) : "no move") + ")");
      }
      long[] tmp = cur;
      cur = out;
      out = tmp;
    }
    return new ReplayResult.Confirmed(trace.length(), trace.outcome());
  }

  private static ReplayResult checkEnd(Trace trace, Model model, long[] s) {
    int end = trace.length() + 1;
    Outcome o = trace.outcome();
    if (o instanceof Outcome.Completed) {
      return model.allFinished(s) ? new ReplayResult.Confirmed(trace.length(), o)
          : new ReplayResult.Diverged(end, "the trace ends but not every thread has finished");
    }
    if (o instanceof Outcome.Stopped) {
      return new ReplayResult.Confirmed(trace.length(), o); // a prefix: every transition matched, no claim on the end
    }
    if (o instanceof Outcome.Overlapped ov) {
      int a = model.intervalNames().indexOf(ov.a());
      int b = model.intervalNames().indexOf(ov.b());
      return a >= 0 && b >= 0 && model.overlaps(s, a, b, ov.sameWorker()) ? new ReplayResult.Confirmed(trace.length(), o)
          : new ReplayResult.Diverged(end, "the final state does not have " + ov.a() + " and " + ov.b() + " overlapping");
    }
    Outcome.Violated v = (Outcome.Violated) o;
    if (v.violation().kind() == ViolationKind.DEADLOCK && model.deadlocked(s)) {
      return new ReplayResult.Confirmed(trace.length(), o);
    }
    return new ReplayResult.Diverged(end, "the trace ends without the recorded " + v.violation().kind());
  }

  private static String describe(Step step, Optional<Phase> phase) {
    return step.text() + phase.map(p -> " (" + p.label() + ")").orElse("");
  }
}
