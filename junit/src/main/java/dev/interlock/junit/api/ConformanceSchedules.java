package dev.interlock.junit.api;

import dev.interlock.impl.api.Pipeline;
import dev.interlock.impl.device.SimulatedDevice;
import dev.interlock.impl.engine.Scheduled;
import dev.interlock.model.design.Design;
import dev.interlock.model.trace.Outcome;
import dev.interlock.model.trace.ReplayResult;
import dev.interlock.model.trace.Replayer;
import dev.interlock.model.trace.Trace;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.function.Supplier;

/** {@link PipelineConformance#check()}: the pipeline on seeded random schedules, each run's trace replayed on the model. */
final class ConformanceSchedules {
  private static final long GOLDEN = 0x9E37_79B9_7F4A_7C15L;

  private final Design design;
  private final String source;
  private final Supplier<Pipeline> factory;

  ConformanceSchedules(Design design, String source, Supplier<Pipeline> factory) {
    this.design = design;
    this.source = source;
    this.factory = factory;
  }

  /** The seed of schedule {@code index} of a check with seed {@code seed}: each schedule is reproducible on its own. */
  static long scheduleSeed(long seed, int index) {
    return new SplittableRandom(seed + GOLDEN * (index + 1L)).nextLong();
  }

  PipelineConformance.ScheduleSummary run(int schedules, long seed) {
    System.out.println("[interlock] pipeline conformance of design " + design.name() + ": " + schedules
        + " random schedules, seed " + seed + " (reproduce with .seed(" + seed + ") or -D"
        + PipelineConformance.SEED_PROPERTY + "=" + seed + ")");
    int completed = 0;
    Map<String, Integer> violated = new TreeMap<>();
    for (int i = 0; i < schedules; i++) {
      SimulatedDevice device = new SimulatedDevice(design.vram());
      Scheduled.RandomRun run = Scheduled.random(design, source, device, role -> factory.get(),
          new SplittableRandom(scheduleSeed(seed, i))::nextInt);
      String where = "schedule " + i + " of " + schedules + " (seed " + seed + ")";
      Trace trace = run.report().trace();
      ConformanceFailure.requireNoPipelineError(design, where, run.report());
      ReplayResult replay = Replayer.replay(trace, design);
      if (replay instanceof ReplayResult.Diverged d) {
        throw new AssertionError(ConformanceFailure.diverged(design, where, trace, d));
      }
      if (!device.trySynchronize()) {
        throw new AssertionError("design " + design.name() + ", " + where + ": a kernel is still running after the"
            + " run: a job that ends (or unwinds after a failed step) must await the kernels it launched\n"
            + ConformanceFailure.engineTrace(trace));
      }
      if (trace.outcome() instanceof Outcome.Violated v) {
        violated.merge(v.violation().kind().name(), 1, Integer::sum);
      } else if (run.report().completed() != run.report().results().size()) {
        throw new AssertionError("design " + design.name() + ", " + where + ": the run ends without a violation, but"
            + " only " + run.report().completed() + " of " + run.report().results().size() + " jobs completed: "
            + run.report().results() + "\n" + ConformanceFailure.engineTrace(trace));
      } else {
        completed++;
      }
    }
    PipelineConformance.ScheduleSummary summary =
        new PipelineConformance.ScheduleSummary(design.name(), seed, schedules, completed, violated);
    System.out.println("[interlock] pipeline conformance of design " + design.name() + ": " + schedules
        + " schedules conform (" + completed + " completed" + (violated.isEmpty() ? "" : ", violated " + violated)
        + ")");
    return summary;
  }
}
