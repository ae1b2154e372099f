package dev.interlock.fidelity;

import dev.interlock.impl.api.Device;
import dev.interlock.impl.api.DriverError;
import dev.interlock.impl.engine.Engine;
import dev.interlock.impl.engine.JobResult;
import dev.interlock.impl.engine.RunReport;
import dev.interlock.impl.engine.Scheduled;
import dev.interlock.impl.pipeline.InterpretedPipeline;
import dev.interlock.impl.sync.JitterGate;
import dev.interlock.model.check.Checker;
import dev.interlock.model.check.Verdict;
import dev.interlock.model.design.Design;
import dev.interlock.model.state.ViolationKind;
import dev.interlock.model.trace.Outcome;
import dev.interlock.model.trace.ReplayResult;
import dev.interlock.model.trace.Trace;
import java.util.Objects;
import java.util.Optional;

/**
 * Compares the model's verdict of a design with what the device does: a violation's minimal counterexample is replayed
 * on the engine with the design interpreter and must end in the same outcome at the same transition, an OOM carrying
 * the driver's error where the device reports driver errors; a SAFE design's free runs, each with random timing jitter,
 * must complete every job with no deadlock and nothing live at shutdown.
 */
public final class Fidelity {
  private Fidelity() {}

  /**
   * The model's verdict of {@code d} by check's exhaustive search (minimized, reduced), stopped at {@code maxStates}.
   *
   * @throws IllegalArgumentException when {@code maxStates} is not positive (the checker's rule)
   */
  public static ModelVerdict model(Design d, String source, long maxStates) {
    Objects.requireNonNull(d, "design");
    Objects.requireNonNull(source, "source");
    return ModelVerdict.of(Checker.check(d, source, Checker.Options.defaults(maxStates)));
  }

  /** Searches the model of {@code d} (at {@code o.maxStates()}), then compares it with the device. */
  public static FidelityReport compare(Design d, String source, FidelityOptions o) {
    return compare(d, source, model(d, source, o.maxStates()), o);
  }

  /**
   * Compares the verdict {@code model} of {@code d} (searched, or recorded earlier) with what a fresh device of the
   * design's vram does; the device is closed again. A verdict other than SAFE or a violation is not compared.
   */
  public static FidelityReport compare(Design d, String source, ModelVerdict model, FidelityOptions o) {
    Objects.requireNonNull(d, "design");
    Objects.requireNonNull(source, "source");
    Objects.requireNonNull(model, "model");
    Objects.requireNonNull(o, "options");
    try (Device dev = o.device().open(d.vram())) {
      if (model.verdict() instanceof Verdict.Unsafe u) {
        return replay(d, source, model, u.violation().kind(), dev);
      }
      if (model.verdict() instanceof Verdict.Safe) {
        return freeRuns(d, source, model, o, dev);
      }
      return new FidelityReport(source, model, new DeviceOutcome.NotCompared(), false);
    }
  }

  private static FidelityReport replay(Design d, String source, ModelVerdict model, ViolationKind kind, Device dev) {
    Trace cx = model.counterexample().orElseThrow();
    Scheduled.Replay rr = Scheduled.replay(cx.params().applyTo(d), source, cx, dev, InterpretedPipeline::new);
    if (rr.result() instanceof ReplayResult.Diverged dv) {
      return new FidelityReport(source, model, new DeviceOutcome.Diverged(dv.index(), dv.reason()), false);
    }
    Optional<DriverError> driver = driverError(rr.report());
    boolean oomIsTheDrivers = kind != ViolationKind.OOM || !dev.reportsDriverErrors() || driver.isPresent();
    return new FidelityReport(source, model, new DeviceOutcome.Replayed(kind, cx.length(), driver), oomIsTheDrivers);
  }

  private static FidelityReport freeRuns(Design d, String source, ModelVerdict model, FidelityOptions o, Device dev) {
    for (int i = 0; i < o.runs(); i++) {
      long seed = o.seed() + i;
      RunReport r = new Engine(dev, new JitterGate(seed, o.jitterMicros())).run(d, source, InterpretedPipeline::new);
      Optional<String> bad = problem(r);
      if (bad.isPresent()) {
        return new FidelityReport(source, model, new DeviceOutcome.RunFailed(i + 1, seed, bad.get()), false);
      }
    }
    return new FidelityReport(source, model, new DeviceOutcome.RunsComplete(o.runs()), true);
  }

  /** What went wrong in a free run of a SAFE design, if anything. */
  static Optional<String> problem(RunReport r) {
    if (r.deadlock().isPresent()) {
      return Optional.of("deadlock: " + r.deadlock().get());
    }
    for (JobResult j : r.results()) {
      if (j instanceof JobResult.Failed f) {
        return Optional.of("job " + f.job().id() + " failed: " + f.violation().kind() + " " + f.violation().message());
      }
      if (j instanceof JobResult.Aborted a) {
        return Optional.of("job " + a.job().id() + " aborted: " + a.why());
      }
      if (j instanceof JobResult.Swallowed sw) {
        return Optional.of("job " + sw.job().id() + " ran on after an ignored OOM (SWALLOWED_OOM): "
            + (sw.swallowed().isEmpty() ? sw.withoutBuffers().get(0).describe() : sw.swallowed().get(0).message()));
      }
    }
    if (r.leftover() != 0) {
      return Optional.of(r.leftover() + " buffers live at shutdown");
    }
    if (!(r.trace().outcome() instanceof Outcome.Completed)) {
      return Optional.of("the run ends in " + r.trace().outcome());
    }
    return Optional.empty();
  }

  /** The driver's error that a failed job of the run carries, if any. */
  static Optional<DriverError> driverError(RunReport r) {
    for (JobResult j : r.results()) {
      if (j instanceof JobResult.Failed f && f.driverError().isPresent()) {
        return f.driverError();
      }
    }
    return Optional.empty();
  }
}
