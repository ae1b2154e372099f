package dev.interlock.junit.api;

import dev.interlock.impl.api.Pipeline;
import dev.interlock.impl.device.SimulatedDevice;
import dev.interlock.impl.engine.Scheduled;
import dev.interlock.model.check.CheckReport;
import dev.interlock.model.check.Checker;
import dev.interlock.model.check.Counterexample;
import dev.interlock.model.design.Design;
import dev.interlock.model.trace.ReplayResult;
import dev.interlock.model.trace.Trace;
import dev.interlock.model.trace.TraceFormat;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * {@link PipelineConformance#replaysCounterexamples()}: the checker's counterexamples driven through the pipeline on
 * the engine, each of which must end in the same violation at the same transition.
 */
final class ConformanceReplays {
  private final Design design;
  private final String source;
  private final Supplier<Pipeline> factory;

  ConformanceReplays(Design design, String source, Supplier<Pipeline> factory) {
    this.design = design;
    this.source = source;
    this.factory = factory;
  }

  PipelineConformance.ReplaySummary run(long maxStates) {
    CheckReport report = Checker.check(design, source, Checker.Options.defaults(maxStates));
    String verdict = report.verdict().label();
    List<Counterexample> all = report.violations();
    List<String> replayed = new ArrayList<>();
    for (int i = 0; i < all.size(); i++) {
      Counterexample c = all.get(i);
      String line = c.violation().kind() + " in " + c.length() + " transitions, threads " + threads(c.threads());
      String where = "counterexample " + (i + 1) + " of " + all.size() + " (" + line + ")";
      replay(c.trace(), where);
      replayed.add(line);
    }
    System.out.println("[interlock] counterexamples of design " + design.name() + ": verdict " + verdict + ", "
        + replayed.size() + " counterexample" + (replayed.size() == 1 ? "" : "s") + " replayed on the pipeline"
        + (verdict.equals("LIMIT") ? " (the checker stopped at " + maxStates + " states: there may be more)" : "")
        + (replayed.isEmpty() ? "" : ": " + String.join("; ", replayed)));
    return new PipelineConformance.ReplaySummary(design.name(), verdict, replayed);
  }

  /** Drives the pipeline along {@code trace}; fails unless it ends the same way at the same transition. */
  private void replay(Trace trace, String where) {
    Design d = trace.params().applyTo(design);
    Scheduled.Replay r = Scheduled.replay(d, source, trace, new SimulatedDevice(d.vram()), role -> factory.get());
    ConformanceFailure.requireNoPipelineError(d, where, r.report());
    if (r.result() instanceof ReplayResult.Diverged div) {
      throw new AssertionError("design " + design.name() + ", " + where + ": the pipeline does not fail the same way;"
          + " it diverges at transition " + div.index() + " of " + trace.length() + ": " + div.reason() + "\n"
          + "counterexample:\n" + TraceFormat.print(trace) + ConformanceFailure.engineTrace(r.report().trace()));
    }
  }

  private static String threads(Map<String, Integer> threads) {
    return threads.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).collect(Collectors.joining(","));
  }
}
