package dev.interlock.impl.api;

/** A launched kernel; the launching thread is inside it until {@link #await()} returns. */
public interface KernelRun {
  /** The kernel's name. */
  String name();

  /** Waits for the kernel to complete (cuStreamSynchronize on the worker's stream). */
  void await();
}
