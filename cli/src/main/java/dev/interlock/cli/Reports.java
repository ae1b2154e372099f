package dev.interlock.cli;

import dev.interlock.impl.engine.JobResult;
import dev.interlock.impl.engine.RunReport;
import dev.interlock.impl.engine.RunTally;
import dev.interlock.model.design.Sizes;
import java.util.Locale;

/** Text for engine run reports. */
final class Reports {
  private Reports() {}

  /**
   * One line per failed job, real failures first, then those an injected fault ended: worker, job, step, cause, device
   * at the failure; at most {@link RunTally#EXAMPLES} of each (the lowest job ids), then how many more; empty when none
   * failed. From the run's tally, whether it kept its results or not.
   */
  static String failures(RunReport r) {
    StringBuilder sb = new StringBuilder();
    RunTally t = r.tally();
    for (JobResult.Failed f : t.failedExamples()) {
      sb.append(String.format(Locale.ROOT, "  job %d on %s failed at '%s': %s: %s [device: %s used, %s cached of %s]%n",
          f.job().id(), f.worker(), f.step(), f.violation().kind(), f.violation().message(),
          Sizes.format(f.memory().used()), Sizes.format(f.memory().cached()), Sizes.format(f.memory().capacity())));
    }
    long failed = t.jobs().failed();
    if (failed > RunTally.EXAMPLES) {
      sb.append(String.format(Locale.ROOT, "  ... and %d more jobs failed (the design's)%n", failed - RunTally.EXAMPLES));
    }
    for (JobResult.Faulted f : t.faultedExamples()) {
      sb.append(String.format(Locale.ROOT, "  job %d on %s failed at '%s': %s%n", f.job().id(), f.worker(), f.step(),
          f.fault().describe()));
    }
    long faulted = t.jobs().faulted();
    if (faulted > RunTally.EXAMPLES) {
      sb.append(String.format(Locale.ROOT, "  ... and %d more jobs failed by injected faults%n", faulted - RunTally.EXAMPLES));
    }
    return sb.toString();
  }

  /**
   * One line per allocation failure the design ignored ({@code on oom ignore}: SWALLOWED_OOM), then one per kernel
   * that ran without such a buffer (where results went wrong), at most {@link RunTally#EXAMPLES} of each, then how
   * many more; empty when there were none. From the run's tally.
   */
  static String swallowed(RunReport r) {
    StringBuilder sb = new StringBuilder();
    RunTally t = r.tally();
    for (var v : t.swallowedExamples()) {
      sb.append(String.format(Locale.ROOT, "  %s: %s%n", v.kind(), v.message()));
    }
    if (t.swallowedCount() > RunTally.EXAMPLES) {
      sb.append(String.format(Locale.ROOT, "  ... and %d more ignored allocation failures%n", t.swallowedCount() - RunTally.EXAMPLES));
    }
    for (var m : t.withoutBuffersExamples()) {
      sb.append(String.format(Locale.ROOT, "  transition %d, job %d: %s%n", m.seq(), m.job(), m.describe()));
    }
    if (t.withoutBuffersCount() > RunTally.EXAMPLES) {
      sb.append(String.format(Locale.ROOT, "  ... and %d more kernels ran without their buffers%n",
          t.withoutBuffersCount() - RunTally.EXAMPLES));
    }
    return sb.toString();
  }
}
