package dev.interlock.impl.engine;

import dev.interlock.impl.api.Job;

/**
 * Runs one job on the calling worker thread, passing each step through the worker's probe.
 *
 * <p>Implementations are the design interpreter and hand-written pipelines. They signal a failed
 * step by letting {@link StepFailed} (thrown by the probe) propagate; cleanup in finally blocks is
 * fine, the probe keeps it out of the trace.
 */
@FunctionalInterface
public interface Pipeline {
  /** Runs {@code job}; returns its result value (null when there is none). */
  Object runJob(Worker worker, Job job);

  /**
   * Whether this pipeline registers the job's buffers in {@link Worker#job()} (the design
   * interpreter does); otherwise the buffers its thread owns on the device at the job's end are the
   * job's, as for the hand-written pipelines, which spawn no tasks and keep nothing.
   */
  default boolean scopesBuffers() {
    return false;
  }
}
