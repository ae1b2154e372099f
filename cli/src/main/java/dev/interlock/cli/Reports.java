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

  /** How many jobs failed by injected faults are listed one per line. */
  static final int FAULTED_SHOWN = 20;
}
