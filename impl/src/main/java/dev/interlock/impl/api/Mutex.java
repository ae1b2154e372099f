package dev.interlock.impl.api;

import java.util.concurrent.locks.Lock;

/**
 * A design's mutex ({@code mutex NAME}), used like a non-reentrant {@link java.util.concurrent.locks.ReentrantLock}.
 *
 * <p>Non-reentrant because the designs' mutexes are: locking it again from its owner is reported at once as the
 * model's DEADLOCK, unlocking it from another thread as UNLOCK_NOT_HELD. Only the operations the model has a step for
 * are supported: {@link #lock()} and {@link #lockInterruptibly()} ({@code lock NAME}) and {@link #unlock()}
 * ({@code unlock NAME}); {@link #tryLock()}, its timed form and {@link #newCondition()} throw
 * UnsupportedOperationException, since a pipeline using them could not be checked against its design.
 */
public interface Mutex extends Lock {
  /** Its name in the design. */
  String name();

  /** Whether the calling thread holds it. */
  boolean heldByCurrentThread();
}
