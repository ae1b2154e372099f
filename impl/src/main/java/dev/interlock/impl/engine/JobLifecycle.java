package dev.interlock.impl.engine;

import dev.interlock.impl.sync.StepGate;
import dev.interlock.model.state.Violation;
import java.util.Optional;
import java.util.function.Function;

/**
 * One job's life on a worker, the same in {@link Engine} and {@link SharedEngine}: the worker's
 * probe is armed for the job, the pipeline runs it, a job that ends with live buffers is a leak,
 * and after any failure what the worker still holds (mutexes, permits, buffers) is released, so
 * other workers are not left waiting on a dead job.
 */
final class JobLifecycle {

  /** What an engine makes of a job that its pipeline ended by throwing something other than a failed step. */
  @FunctionalInterface
  interface CutShort {
    /**
     * The job's result, asked before the worker's holds are released, so it sees the device as the
     * job left it; empty to let {@code e} (a RuntimeException or an Error) propagate once they are.
     */
    Optional<JobResult> result(Worker w, Job job, Throwable e);
  }

  /** Lets anything but a failed step propagate to the caller. */
  static final CutShort PROPAGATE = (w, job, e) -> Optional.empty();

  /**
   * How a job ended.
   *
   * @param result   its result
   * @param cutShort whether the pipeline threw something other than a failed step
   */
  record Ended(JobResult result, boolean cutShort) {}

  private final Resources resources;
  private final EventLog log;
  private final StepGate gate;
  private final Function<Worker, String> leakStep;
  private final CutShort cutShort;

  /**
   * @param leakStep the step a leak found at a job's end is reported at, asked of the worker then
   * @param cutShort what a job its pipeline ended by throwing becomes
   */
  JobLifecycle(Resources resources, EventLog log, StepGate gate, Function<Worker, String> leakStep, CutShort cutShort) {
    this.resources = resources;
    this.log = log;
    this.gate = gate;
    this.leakStep = leakStep;
    this.cutShort = cutShort;
  }

  /**
   * Runs {@code job} on the calling worker {@code w}: Completed, or Failed at the step that failed,
   * or Failed with the LEAK (recorded in the log and passed to the gate) when the job ended with
   * live buffers; anything else the pipeline throws goes to {@link CutShort}.
   */
  Ended run(Worker w, Pipeline pipeline, Job job) {
    w.probe().rearm(job.id());
    try {
      Object value = pipeline.runJob(w, job);
      Optional<Violation> leak = resources.leakAtJobEnd(w.name(), job);
      if (leak.isEmpty()) {
        return new Ended(new JobResult.Completed(job, w.name(), value), false);
      }
      Violation v = leak.get();
      log.recordViolation(v);
      JobResult failed = new JobResult.Failed(job, w.name(), leakStep.apply(w), v, resources.device().memory());
      resources.releaseHeldBy(w.name());
      gate.failed(v);
      return new Ended(failed, false);
    } catch (StepFailed f) {
      resources.releaseHeldBy(w.name());
      return new Ended(new JobResult.Failed(job, w.name(), f.step(), f.violation(), f.memory()), false);
    } catch (RuntimeException | Error e) {
      Optional<JobResult> result;
      try {
        result = cutShort.result(w, job, e);
      } finally {
        resources.releaseHeldBy(w.name());
      }
      if (result.isEmpty()) {
        throw e;
      }
      return new Ended(result.get(), true);
    }
  }
}
