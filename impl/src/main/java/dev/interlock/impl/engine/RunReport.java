package dev.interlock.impl.engine;

import dev.interlock.impl.api.MemoryInfo;
import dev.interlock.model.state.Violation;
import dev.interlock.model.trace.Trace;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What a run of the engine did.
 *
 * <p>With {@link Retention#COUNTS} the lists of events, results, retried attempts, ignored failures and kernels without
 * buffers are empty and the trace has no steps; {@code tally} has the figures either way, and the counts here come
 * from it.
 *
 * @param results       one result per job, by job id
 * @param trace         the run as a model trace: transitions up to the first violation, which ends it
 * @param events        every transition, including those after the first violation in a free run
 * @param memory        the device after the run (peakUsed: the most used at any time)
 * @param deadlock      the watchdog's or scheduler's report when the run deadlocked
 * @param leftover      buffers still live at shutdown, which the engine then freed (0 when every job cleaned up)
 * @param seconds       wall time
 * @param clockOrigin   the {@link System#nanoTime()} that the events' nanos count from, to place host-clock times
 *                      such as a device's kernel timings on the run's clock
 * @param retried       the results of attempts that were retried ({@link RetryPolicy}), in the order they ended: not in
 *                      {@code results}, which holds each job's last attempt
 * @param heldAtShutdown the mutexes and semaphore permits still held when the run ended, one line each (empty when
 *                      every job gave back what it took)
 * @param swallowed     the allocation failures the design ignored ({@code on oom ignore}, verdict
 *                      {@code SWALLOWED_OOM}), in order; the first of them ends {@code trace} when no other violation
 *                      came first
 * @param withoutBuffers the kernels that ran without a buffer whose allocation had failed and was ignored, in order:
 *                      where the results are wrong
 * @param retention     what the run kept
 * @param tally         what the run counted: transitions, results by kind, retries, the first failures
 */
public record RunReport(List<JobResult> results, Trace trace, List<Event> events, MemoryInfo memory,
    Optional<String> deadlock, int leftover, double seconds, long clockOrigin, List<JobResult> retried,
    List<String> heldAtShutdown, List<Violation> swallowed, List<MissingUse> withoutBuffers, Retention retention,
    RunTally tally) {
  public RunReport {
    swallowed = List.copyOf(swallowed);
    withoutBuffers = List.copyOf(withoutBuffers);
    results = List.copyOf(results);
    events = List.copyOf(events);
    retried = List.copyOf(retried);
    heldAtShutdown = List.copyOf(heldAtShutdown);
    Objects.requireNonNull(trace, "trace");
    Objects.requireNonNull(memory, "memory");
    Objects.requireNonNull(retention, "retention");
    Objects.requireNonNull(tally, "tally");
  }

  /** A run without retries, as the engine made them before faults, keeping everything. */
  public RunReport(List<JobResult> results, Trace trace, List<Event> events, MemoryInfo memory, Optional<String> deadlock,
      int leftover, double seconds, long clockOrigin) {
    this(results, trace, events, memory, deadlock, leftover, seconds, clockOrigin, List.of(), List.of(), List.of(),
        List.of(), Retention.ALL, RunTally.of(results, List.of(), events.size(), List.of(), List.of()));
  }

  /** Jobs that ran to their end without a buffer whose allocation failed and was ignored: their results are wrong. */
  public long swallowedJobs() {
    return tally.jobs().swallowed();
  }

  /** Jobs whose last attempt an injected fault ended. */
  public long faulted() {
    return tally.jobs().faulted();
  }

  public long completed() {
    return tally.jobs().completed();
  }

  public long failed() {
    return tally.jobs().failed();
  }

  public long aborted() {
    return tally.jobs().aborted();
  }

  /** Transitions the run recorded, kept or not. */
  public long transitions() {
    return tally.transitions();
  }
}
