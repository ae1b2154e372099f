package dev.interlock.junit.api;

/**
 * The ways a design can be wrong, as the checker names them in its verdict: exactly the checker's violation kinds, in
 * the same order, so that {@link #name()} is the verdict label of a result.
 */
public enum Violation {
  /** Live bytes of all threads plus a request exceed the device memory. */
  OOM,
  /**
   * An allocation failed and the design ignores the failure ({@code on oom ignore}): the job computes its result
   * without the buffer, and nothing fails.
   */
  SWALLOWED_OOM,
  /** Some thread is unfinished and can never move. */
  DEADLOCK,
  /** A job ends with a live buffer of its thread, or an alloc overwrites a live buffer. */
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
