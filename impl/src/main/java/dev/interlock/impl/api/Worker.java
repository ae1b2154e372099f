package dev.interlock.impl.api;

/**
 * The thread a pipeline runs a job on: its name, its probe and the run's shared resources.
 *
 * <p>A pipeline gets everything it touches from here, so that the engine can put each of its
 * operations under a probe and the same pipeline runs free, under a controlled scheduler or
 * replaying a trace. Threads are named as in traces: {@code role#i}.
 */
public interface Worker {
  /** The thread's name, {@code role#i}: the owner to pass to {@link Device#allocate} and {@link Device#launch}. */
  String name();

  /** The role whose jobs this thread takes. */
  String role();

  /** i in {@code role#i}. */
  int index();

  /** The thread's step boundary: every step of the job goes through it. */
  Probe probe();

  /** The run's mutexes, semaphores, device buffers and device. */
  Resources resources();

  /** The run's device, the same as {@code resources().device()}. */
  default Device device() {
    return resources().device();
  }
}
