package dev.interlock.impl.engine;

/**
 * What a run of the engine keeps for its report.
 *
 * <p>Why a choice: views, replay, traces and most tests read every event, but a soak of 10^6 jobs only prints counts,
 * and keeping its 16 million events would make its memory grow with its length. Both keep the {@link RunTally}, from
 * which a run's printed figures come either way.
 */
public enum Retention {
  /** Every event, the trace up to the first violation, each job's result and each retried attempt (the default). */
  ALL,
  /**
   * Only the {@link RunTally}: counts, the first violation and the first few failures of each kind. The report's
   * events, results, retried attempts, ignored failures and kernels without buffers are empty, and its trace has the
   * outcome but no steps; memory does not grow with the number of jobs (but for one bit per job, see RunTally).
   */
  COUNTS
}
