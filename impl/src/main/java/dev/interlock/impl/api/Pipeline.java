package dev.interlock.impl.api;

/**
 * One job of a worker, written against the probe: what a user implements to check their own code against a design.
 *
 * <p>The engine calls {@link #runJob} on a worker thread for each job of the pipeline's role. Each
 * step of the job is wrapped in a {@link Probe} call that names the design's step in the design
 * language ({@code probe.step("alloc staged 12GiB", ...)}), which is what lets the engine schedule the
 * pipeline's steps and record them as a trace the model replays. A failed step (a violation the
 * model names, or a run aborted by its scheduler) makes the probe throw: let that exception
 * propagate. Cleanup in finally blocks is fine, the probe keeps it out of the trace once a step has
 * failed ({@link Probe#silent()}).
 */
@FunctionalInterface
public interface Pipeline {
  /** Runs {@code job} on {@code worker}'s thread; returns its result value (null when there is none). */
  Object runJob(Worker worker, Job job);
}
