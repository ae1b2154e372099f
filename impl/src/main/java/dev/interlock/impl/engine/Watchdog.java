package dev.interlock.impl.engine;

import dev.interlock.impl.sync.WaitRegistry;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * Finds deadlocks in free runs: when every live worker has been blocked in a primitive for a whole
 * period with no step completed anywhere, no thread can ever move again. It then reports each
 * thread's position and interrupts the workers, so none is left hanging.
 *
 * <p>It polls, since a deadlock by definition signals nothing; the period only bounds how late a
 * deadlock is noticed, never whether the run is correct.
 */
final class Watchdog implements Runnable {
  private final List<Thread> workers;
  private final List<Probe> probes;
  private final WaitRegistry waits;
  private final long periodMillis;
  private final Consumer<String> onDeadlock;
  private volatile boolean stopped;

  Watchdog(List<Thread> workers, List<Probe> probes, WaitRegistry waits, long periodMillis, Consumer<String> onDeadlock) {
    this.workers = workers;
    this.probes = probes;
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
      boolean allBlocked = allLiveBlocked();
      if (allBlocked && allBlockedBefore && progress == lastProgress) {
        onDeadlock.accept(describe());
        for (Thread t : workers) {
          t.interrupt();
        }
        return;
      }
      allBlockedBefore = allBlocked;
      lastProgress = progress;
    }
  }

  private boolean allLiveBlocked() {
    boolean anyAlive = false;
    for (Thread t : workers) {
      if (t.isAlive()) {
        anyAlive = true;
        if (waits.waitingOn(t) == null) {
          return false;
        }
      }
    }
    return anyAlive;
  }

  private String describe() {
    List<String> parts = new ArrayList<>();
    for (int i = 0; i < workers.size(); i++) {
      Thread t = workers.get(i);
      if (t.isAlive()) {
        parts.add(probes.get(i).thread() + " " + probes.get(i).position() + ", waiting on " + waits.waitingOn(t));
      }
    }
    return "no thread can move: " + String.join("; ", parts);
  }
}
