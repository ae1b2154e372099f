package dev.interlock.impl.sync;

/** Thrown into a thread at a step boundary when a controlled run has ended: unwind without further steps. */
public final class RunAborted extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public RunAborted(String why) {
    super(why, null, false, false);
  }
}
