package dev.interlock.model.state;

/** The named ways a design can be wrong; each is a verdict of the checker. */
public enum ViolationKind {
  /** Live bytes (plain and async, all threads) plus the request exceed vram; cached bytes never cause it. */
  OOM,
  /**
   * An allocation failed and the design ignores the failure ({@code on oom ignore}): the job goes on and computes its
   * result without the buffer, and nothing fails. The steps after it that use the buffer are where the result goes
   * wrong.
   */
  SWALLOWED_OOM,
  /** Some thread is unfinished and can never move: nobody can move, or it locks a mutex it holds. */
  DEADLOCK,
  /** A job body ends with a live buffer of that thread, or an alloc overwrites a live buffer. */
  LEAK,
  /** A kernel uses a buffer that is not live. */
  USE_AFTER_FREE,
  /** A free of a buffer that is not live. */
  BAD_FREE,
  /** An unlock of a mutex the thread does not hold. */
  UNLOCK_NOT_HELD,
  /** A release of more permits than the thread holds. */
  RELEASE_EXCESS
}
