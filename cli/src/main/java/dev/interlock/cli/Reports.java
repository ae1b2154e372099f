package dev.interlock.cli;

import dev.interlock.impl.engine.JobResult;
import dev.interlock.impl.engine.RunReport;
import dev.interlock.model.design.Sizes;
import java.util.Locale;

/** Text for engine run reports. */
final class Reports {
  private Reports() {}

  /** One line per failed job: worker, job, step, verdict, device at the failure; empty when none failed. */
  static String failures(RunReport r) {
    StringBuilder sb = new StringBuilder();
    for (JobResult j : r.results()) {
      if (j instanceof JobResult.Failed f) {
        sb.append(String.format(Locale.ROOT, "  job %d on %s failed at '%s': %s: %s [device: %s used, %s cached of %s]%n",
            f.job().id(), f.worker(), f.step(), f.violation().kind(), f.violation().message(),
            Sizes.format(f.memory().used()), Sizes.format(f.memory().cached()), Sizes.format(f.memory().capacity())));
      }
    }
    long faulted = 0;
    for (JobResult j : r.results()) {
      if (j instanceof JobResult.Faulted f && faulted++ < FAULTED_SHOWN) {
        sb.append(String.format(Locale.ROOT, "  job %d on %s failed at '%s': %s%n", f.job().id(), f.worker(), f.step(),
            f.fault().describe()));
      }
    }
    if (faulted > FAULTED_SHOWN) {
      sb.append(String.format(Locale.ROOT, "  ... and %d more jobs failed by injected faults%n", faulted - FAULTED_SHOWN));
    }
    return sb.toString();
  }

  /**
   * One line per allocation failure the design ignored ({@code on oom ignore}: SWALLOWED_OOM), then one per kernel
   * that ran without such a buffer (where results went wrong), at most {@link #FAULTED_SHOWN} of each; empty when
   * there were none.
   */
  static String swallowed(RunReport r) {
    StringBuilder sb = new StringBuilder();
    int shown = 0;
    for (var v : r.swallowed()) {
      if (shown++ < FAULTED_SHOWN) {
        sb.append(String.format(Locale.ROOT, "  %s: %s%n", v.kind(), v.message()));
      }
    }
    if (shown > FAULTED_SHOWN) {
      sb.append(String.format(Locale.ROOT, "  ... and %d more ignored allocation failures%n", shown - FAULTED_SHOWN));
    }
    shown = 0;
    for (var m : r.withoutBuffers()) {
      if (shown++ < FAULTED_SHOWN) {
        sb.append(String.format(Locale.ROOT, "  transition %d, job %d: %s%n", m.seq(), m.job(), m.describe()));
      }
    }
    if (shown > FAULTED_SHOWN) {
      sb.append(String.format(Locale.ROOT, "  ... and %d more kernels ran without their buffers%n", shown - FAULTED_SHOWN));
    }
    return sb.toString();
  }

  /** How many jobs failed by injected faults are listed one per line. */
  static final int FAULTED_SHOWN = 20;
}
