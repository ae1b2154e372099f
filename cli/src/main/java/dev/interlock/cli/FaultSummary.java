package dev.interlock.cli;

import dev.interlock.impl.engine.RetryPolicy;
import dev.interlock.impl.engine.RunReport;
import dev.interlock.impl.engine.RunTally;
import dev.interlock.impl.fault.FaultKind;
import dev.interlock.impl.fault.Faults;
import dev.interlock.impl.fault.FaultyDevice;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The lines {@code run} and {@code prove} print about injected faults, retries and outcomes (docs/faults.md, "What a
 * run prints"), and the count of jobs lost, from the run's {@link RunTally}: the same whether it kept its events and
 * results or not.
 *
 * <p>Why one place: the soak benchmark reads these lines from both commands; their names say what is counted.
 */
final class FaultSummary {
  private FaultSummary() {}

  /** The header line, before the run: the spec and the seed to rerun with, and that the run does not replay. */
  static void header(PrintWriter out, Faults faults, RetryPolicy retry) {
    if (faults.none()) {
      return;
    }
    out.printf(Locale.ROOT, "faults    %s, fault seed %d (rerun: --fault-seed %d), stall %.1f ms; retries up to %d per job, "
            + "backoff %d ms doubling, real failures %s%n", faults.spec().text(), faults.seed(), faults.seed(),
        faults.stallNanos() / 1e6, retry.retries(), retry.backoffMillis(), retry.retryReal() ? "retried (--retry-real)" : "not retried");
    out.printf(Locale.ROOT, "replay    skipped: a run with injected faults does not replay on the model (the model has no "
        + "injected faults; its trace stops matching at the first one)%n");
  }

  /** Jobs that got no result: 0 unless the engine lost one. */
  static long lost(RunReport r, int jobs) {
    return jobs - r.tally().jobsWithResult();
  }

  /**
   * The summary lines after the run: faults injected per kind, retries, outcomes (real and injected failures apart),
   * jobs lost, contexts recreated, and what was held at shutdown.
   */
  static void print(PrintWriter out, RunReport r, Faults faults, FaultyDevice device, int jobs, String unit) {
    RunTally t = r.tally();
    if (faults.none() && t.retries() == 0) {
      return;
    }
    List<String> kinds = new ArrayList<>();
    for (FaultKind k : FaultKind.values()) {
      kinds.add(k.specName() + " " + faults.injected(k));
    }
    out.printf(Locale.ROOT, "injected  %s: %d faults injected in all%n", String.join(", ", kinds), faults.injectedTotal());
    out.printf(Locale.ROOT, "retries   %d retries in all: %d after an injected fault, %d after a real failure; %d %ss retried%n",
        t.retries(), t.retriesAfterInjected(), t.retriesAfterReal(), t.jobsRetried(), unit);
    out.printf(Locale.ROOT, "outcome   %d %ss: %d completed (%d of them after retries), %d failed real (the design's), "
            + "%d failed injected after retries, %d aborted, %d lost%s%n", jobs, unit, r.completed(), t.completedAfterRetries(), r.failed(),
        r.faulted(), r.aborted(), lost(r, jobs),
        r.swallowedJobs() == 0 ? "" : ", " + r.swallowedJobs() + " ran on with an ignored OOM (SWALLOWED_OOM: results wrong)");
    out.printf(Locale.ROOT, "contexts  %d device contexts recreated after a poison%n", device == null ? 0 : device.reopens());
    out.printf(Locale.ROOT, "shutdown  %s%n", r.leftover() == 0 && r.heldAtShutdown().isEmpty() && r.memory().live() == 0
        ? "clean: nothing live on the device, no lock or permit held"
        : "NOT clean: " + r.leftover() + " buffers live, " + r.memory().live() + " live bytes; held: " + r.heldAtShutdown());
  }
}
