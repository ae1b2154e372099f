package dev.interlock.junit.api;

import dev.interlock.impl.engine.JobResult;
import dev.interlock.impl.engine.RunReport;
import dev.interlock.model.design.Design;
import dev.interlock.model.state.Model;
import dev.interlock.model.state.Phase;
import dev.interlock.model.step.Step;
import dev.interlock.model.trace.ReplayResult;
import dev.interlock.model.trace.Trace;
import dev.interlock.model.trace.TraceFormat;
import dev.interlock.model.trace.TraceStep;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** The failure messages of the conformance checks: where a run left the design, and what the model allows there. */
final class ConformanceFailure {
  private ConformanceFailure() {}

  /** Fails when a job of the run ended because the pipeline threw (not a step the model names). */
  static void requireNoPipelineError(Design design, String where, RunReport report) {
    for (JobResult r : report.results()) {
      if (r instanceof JobResult.Aborted a && a.why().startsWith("pipeline error")) {
        throw new AssertionError("design " + design.name() + ", " + where + ": job " + a.job().id() + " on "
            + a.worker() + " ended in a " + a.why() + "\n" + engineTrace(report.trace()));
      }
    }
  }

  /** The message of a run whose trace the model does not confirm. */
  static String diverged(Design design, String where, Trace trace, ReplayResult.Diverged d) {
    return "design " + design.name() + ", " + where + ": the pipeline diverges from the model at transition "
        + d.index() + " of " + trace.length() + ": " + d.reason() + "\n"
        + "the model allows there: " + String.join("; ", allowedAt(design, trace, d.index())) + "\n"
        + engineTrace(trace);
  }

  /** The engine's trace as text, under a heading. */
  static String engineTrace(Trace trace) {
    return "engine trace:\n" + TraceFormat.print(trace);
  }

  /**
   * Each thread's next step on the model before transition {@code index} (1-based) of {@code trace}, whose earlier
   * transitions the model confirmed: whether it can take it, is blocked, or has finished.
   */
  static List<String> allowedAt(Design design, Trace trace, int index) {
    Design d;
    try {
      d = trace.params().applyTo(design);
    } catch (IllegalArgumentException e) {
      return List.of("(the trace's parameters do not fit the design: " + e.getMessage() + ")");
    }
    Model model = new Model(d);
    long[] s = model.initial();
    long[] out = new long[s.length];
    for (TraceStep ts : trace.steps().subList(0, Math.max(0, Math.min(index - 1, trace.length())))) {
      int t = model.threadIndex(ts.thread());
      if (t < 0 || Model.violation(model.step(s, t, out)) != null) {
        break;
      }
      long[] tmp = s;
      s = out;
      out = tmp;
    }
    List<String> allowed = new ArrayList<>();
    for (int t = 0; t < model.threads(); t++) {
      Optional<Step> next = model.nextStep(s, t);
      if (next.isEmpty()) {
        allowed.add(model.threadName(t) + " has no step (finished or not started)");
        continue;
      }
      int code = model.step(s, t, out);
      String can = code == Model.BLOCKED ? "blocked" : Model.violation(code) != null ? "fails with "
          + Model.violation(code) : "can move";
      allowed.add(model.threadName(t) + " '" + next.get().text() + "'" + label(model.nextPhase(s, t)) + " (" + can + ")");
    }
    return allowed;
  }

  private static String label(Optional<Phase> phase) {
    return phase.map(p -> " (" + p.label() + ")").orElse("");
  }
}
