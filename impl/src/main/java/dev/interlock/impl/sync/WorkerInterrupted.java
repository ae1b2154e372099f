package dev.interlock.impl.sync;

/** A thread blocked in a primitive was interrupted (the deadlock watchdog, or shutdown). */
public final class WorkerInterrupted extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public WorkerInterrupted(String where) {
    super("interrupted while waiting: " + where);
  }
}
