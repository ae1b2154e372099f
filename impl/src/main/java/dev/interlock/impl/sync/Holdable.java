package dev.interlock.impl.sync;

import java.util.Map;

/**
 * A mutex or a semaphore as the threads waiting for it see it: who holds how much of it now.
 *
 * <p>Why: a thread blocked on a lock waits for its holders, which the deadlock watchdog names, and which the engine
 * asks after a poison, whose reopening a job waiting for a lock may hold up.
 */
public interface Holdable {
  /** Its name in the design: {@code m}. */
  String name();

  /** What it is, for messages: {@code mutex m}, {@code semaphore s}. */
  String describe();

  /** Units in all: 1 for a mutex, the permits for a semaphore. */
  int units();

  /** The threads holding it now, each with the units it holds. */
  Map<Thread, Integer> holders();
}
