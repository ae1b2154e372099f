package dev.interlock.impl.sync;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Which threads are blocked in a primitive and on what, a progress counter, and which threads are cancelled: what the
 * deadlock watchdog reads, and how a failed job ends the waits of its other threads. Cheap enough to stay on: one map
 * write around each blocking wait.
 *
 * <p>Why cancelling lives here: a thread of a failed job may wait for a lock that only the job's failed thread, or
 * another job waiting for that thread, can give back. A cancelled thread's waits end at once ({@link WorkerInterrupted}
 * for the primitives): the wait it is in by an interrupt, one it enters later without blocking, one under a controlled
 * gate when it is next granted. Only the waits: the interrupt reaches a thread only while it is registered here, so
 * pipeline code between waits never sees it.
 */
public final class WaitRegistry {
  private final Map<Thread, String> waiting = new ConcurrentHashMap<>();
  private final Set<Thread> cancelled = ConcurrentHashMap.newKeySet();
  private final AtomicLong progress = new AtomicLong();

  /** The calling thread is about to block on {@code what}; a cancelled thread is interrupted, so it does not block. */
  public void enter(String what) {
    waiting.compute(Thread.currentThread(), (t, before) -> {
      if (cancelled.contains(t)) {
        t.interrupt();
      }
      return what;
    });
  }

  /** The calling thread no longer blocks. */
  public void exit() {
    waiting.remove(Thread.currentThread());
    progress.incrementAndGet();
  }

  /**
   * Cancels {@code thread}'s waits until it calls {@link #uncancel()}: the wait it is blocked in now ends (an
   * interrupt, delivered only while it is registered as waiting), and so does each one it starts.
   */
  public void cancel(Thread thread) {
    cancelled.add(thread);
    waiting.computeIfPresent(thread, (t, w) -> {
      t.interrupt();
      return w;
    });
  }

  /** Whether {@code thread}'s waits are cancelled. */
  public boolean cancelled(Thread thread) {
    return cancelled.contains(thread);
  }

  /**
   * The calling thread's waits are no longer cancelled; an interrupt its cancelling left pending is cleared. The
   * caller makes sure that nothing cancels it again meanwhile (a job cancels only the threads still working in it).
   */
  public void uncancel() {
    if (cancelled.remove(Thread.currentThread())) {
      Thread.interrupted();
    }
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
