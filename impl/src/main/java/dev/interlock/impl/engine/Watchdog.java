package dev.interlock.impl.engine;

import dev.interlock.impl.sync.WaitRegistry;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * Finds deadlocks in free runs: when every live thread (role threads and the tasks they spawned)
 * has been blocked in a primitive, a {@code wait} or a {@code join} for a whole period with no step
 * completed anywhere, no thread can ever move again. It then reports each thread's position and
 * what it waits for (a mutex or permits, with their holders, an event of its job, a task to end), and interrupts the
 * threads, so none is left hanging.
 *
 * <p>It polls, since a deadlock by definition signals nothing; the period only bounds how late a
 * deadlock is noticed, never whether the run is correct.
 */
final class Watchdog implements Runnable {
  private final RunThreads threads;
  private final WaitRegistry waits;
  private final long periodMillis;
  private final Consumer<String> onDeadlock;
  private volatile boolean stopped;

  Watchdog(RunThreads threads, WaitRegistry waits, long periodMillis, Consumer<String> onDeadlock) {
    this.threads = threads;
    this.waits = waits;
    this.periodMillis = periodMillis;
    this.onDeadlock = onDeadlock;
  }

  void stop() {
    stopped = true;
  }

  @Override
  public void run() {
    long lastProgress = -1;
    boolean allBlockedBefore = false;
    while (!stopped) {
      try {
        Thread.sleep(periodMillis);
      } catch (InterruptedException e) {
        return;
      }
      long progress = waits.progress();
      List<RunThreads.Entry> now = threads.snapshot();
      boolean allBlocked = allLiveBlocked(now);
      if (allBlocked && allBlockedBefore && progress == lastProgress) {
        onDeadlock.accept(describe(now));
        for (RunThreads.Entry e : now) {
          e.thread().interrupt();
        }
        return;
      }
      allBlockedBefore = allBlocked;
      lastProgress = progress;
    }
  }

  /**
   * Whether every live thread of {@code now} is blocked: registered as waiting, and not for a mutex or permits that are
   * free now (a thread woken for them stays registered until it runs, which on a loaded machine may take longer than
   * a period).
   */
  boolean allLiveBlocked(List<RunThreads.Entry> now) {
    boolean anyAlive = false;
    for (RunThreads.Entry e : now) {
      if (e.thread().isAlive()) {
        anyAlive = true;
        WaitRegistry.Waiting w = waits.waiting(e.thread());
        if (w == null || free(w)) {
          return false;
        }
      }
    }
    return anyAlive;
  }

  /** Whether the units of a lock that {@code w} waits for are free now. */
  private static boolean free(WaitRegistry.Waiting w) {
    if (w.on() == null) {
      return false;
    }
    int held = w.on().holders().values().stream().mapToInt(Integer::intValue).sum();
    return w.on().units() - held >= w.units();
  }

  private String describe(List<RunThreads.Entry> now) {
    List<String> parts = new ArrayList<>();
    for (RunThreads.Entry e : now) {
      if (e.thread().isAlive()) {
        parts.add(e.probe().thread() + " " + e.probe().position() + ", waiting on " + waits.describe(e.thread()));
      }
    }
    return "no thread can move: " + String.join("; ", parts);
  }
}
