package dev.interlock.impl.api;

/**
 * A launched kernel; the launching thread is inside it until {@link #await()} returns.
 *
 * <p>A launch and its await are the begin and end of the design's {@code kernel} step, so a pipeline
 * awaits it in {@link Probe#end}, and in cleanup when {@link Probe#silent()} says the end did not run.
 */
public interface KernelRun {
  /** The kernel's name. */
  String name();

  /** Waits for the kernel to complete (cuStreamSynchronize on the worker's stream). */
  void await();
}
