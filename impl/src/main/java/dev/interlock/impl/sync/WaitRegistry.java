package dev.interlock.impl.sync;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Which threads are blocked in a primitive and on what (for a mutex or semaphore, which one, so that its holders can be
 * named), a progress counter, and which threads are cancelled: what the deadlock watchdog reads, what the engine's
 * device contexts hear of after a poison, and how a failed job ends the waits of its other threads. Cheap enough to
 * stay on: one map write around each blocking wait.
 *
 * <p>Why cancelling lives here: a thread of a failed job may wait for a lock that only the job's failed thread, or
 * another job waiting for that thread, can give back. A cancelled thread's waits end at once ({@link WorkerInterrupted}
 * for the primitives): the wait it is in by an interrupt, one it enters later without blocking, one under a controlled
 * gate when it is next granted. Only the waits: the interrupt reaches a thread only while it is registered here, so
 * pipeline code between waits never sees it.
 */
public final class WaitRegistry {
  /**
   * A thread's wait: what for, in deadlock reports ({@code lock m}), and for a lock the lock and the units wanted.
   *
   * @param what  the wait in words, the step's text for a lock ({@code lock m}, {@code acquire s 2})
   * @param on    the mutex or semaphore waited for, or null for another wait (an event, a task, a sync)
   * @param units the units of {@code on} wanted: 1 for a mutex, the permits for a semaphore
   */
  public record Waiting(String what, Holdable on, int units) {}

  /**
   * Told, on the waiting thread, each time a thread starts waiting for a lock, once it is registered: a wait that can
   * never end may then be cancelled at once.
   */
  @FunctionalInterface
  public interface Listener {
    void waitsFor(Thread thread, Waiting waiting);
  }

  private final Map<Thread, Waiting> waiting = new ConcurrentHashMap<>();
  private final Set<Thread> cancelled = ConcurrentHashMap.newKeySet();
  private final AtomicLong progress = new AtomicLong();
  private volatile Listener listener;

  /** The calling thread is about to block on {@code what}; a cancelled thread is interrupted, so it does not block. */
  public void enter(String what) {
    enter(what, null, 0);
  }

  /**
   * The calling thread is about to block on {@code what}, waiting for {@code units} of lock {@code on} (null for no
   * lock); a cancelled thread is interrupted, so it does not block. The listener hears of a wait for a lock.
   */
  public void enter(String what, Holdable on, int units) {
    Thread me = Thread.currentThread();
    Waiting w = new Waiting(what, on, units);
    waiting.compute(me, (t, before) -> {
      if (cancelled.contains(t)) {
        t.interrupt();
      }
      return w;
    });
    Listener l = listener;
    if (on != null && l != null) {
      l.waitsFor(me, w);
    }
  }

  /** Sets the one listener to waits for locks (the engine's device contexts, after a poison). */
  public void listen(Listener l) {
    listener = l;
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
    Waiting w = waiting.get(t);
    return w == null ? null : w.what();
  }

  /** {@code t}'s wait, or null when it is not blocked. */
  public Waiting waiting(Thread t) {
    return waiting.get(t);
  }

  /** The threads blocked now, with their waits. */
  public Map<Thread, Waiting> waiting() {
    return Map.copyOf(waiting);
  }

  /**
   * What {@code t} is blocked on, naming the holders of a lock: {@code lock m (held by a#0)}, {@code acquire s 2 (held
   * by a#0 x1; b#0 x2)}, a holder whose thread has ended marked so; null when it is not blocked.
   */
  public String describe(Thread t) {
    Waiting w = waiting.get(t);
    if (w == null) {
      return null;
    }
    if (w.on() == null) {
      return w.what();
    }
    List<String> holders = new ArrayList<>();
    for (Map.Entry<Thread, Integer> h : w.on().holders().entrySet()) {
      holders.add(h.getKey().getName() + (w.on().units() > 1 ? " x" + h.getValue() : "")
          + (h.getKey().isAlive() ? "" : ", ended"));
    }
    holders.sort(null);
    return holders.isEmpty() ? w.what() : w.what() + " (held by " + String.join("; ", holders) + ")";
  }
}
