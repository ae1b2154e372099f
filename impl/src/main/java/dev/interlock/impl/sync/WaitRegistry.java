package dev.interlock.impl.sync;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Which threads are blocked in a primitive and on what, and a progress counter: what the deadlock
 * watchdog reads. Cheap enough to stay on: one map write around each blocking wait.
 */
public final class WaitRegistry {
  private final Map<Thread, String> waiting = new ConcurrentHashMap<>();
  private final AtomicLong progress = new AtomicLong();

  /** The calling thread is about to block on {@code what}. */
  public void enter(String what) {
    waiting.put(Thread.currentThread(), what);
  }

  /** The calling thread no longer blocks. */
  public void exit() {
    waiting.remove(Thread.currentThread());
    progress.incrementAndGet();
  }

  /** Some thread completed a step. */
  public void progressed() {
    progress.incrementAndGet();
  }

  public long progress() {
    return progress.get();
  }

  /** What {@code t} is blocked on, or null. */
  public String waitingOn(Thread t) {
    return waiting.get(t);
  }
}
