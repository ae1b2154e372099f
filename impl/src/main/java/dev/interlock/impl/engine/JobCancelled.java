package dev.interlock.impl.engine;

/**
 * Unwinds a thread whose job has failed on another of its threads: the job's other threads stop at
 * their next step, or leave a {@code wait} or {@code join}, and release what they hold.
 */
public final class JobCancelled extends RuntimeException {
  private static final long serialVersionUID = 1L;

  JobCancelled(String why) {
    super(why, null, false, false);
  }
}
