package dev.interlock.impl.sync;

import dev.interlock.model.state.ViolationKind;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;

/**
 * A counting semaphore that knows how many permits each thread holds, so that releasing more than
 * you hold is caught (RELEASE_EXCESS) instead of silently inflating the count.
 */
public final class PermitSemaphore {
  private final String name;
  private final StepGate gate;
  private final WaitRegistry waits;
  private final Semaphore permits;
  private final Map<Thread, Integer> held = new ConcurrentHashMap<>();

  public PermitSemaphore(String name, int permits, StepGate gate, WaitRegistry waits) {
    if (permits < 0) {
      throw new IllegalArgumentException("semaphore " + name + " needs 0 or more permits, got " + permits);
    }
    this.name = name;
    this.gate = gate;
    this.waits = waits;
    this.permits = new Semaphore(permits, true);
  }

  public String name() {
    return name;
  }

  /** Takes n permits at once, waiting until all are free. */
  public void acquire(int n) {
    if (n < 1) {
      throw new IllegalArgumentException("acquire needs at least 1 permit, got " + n);
    }
    Blocking.until(gate, waits, "acquire " + name + " " + n, () -> permits.tryAcquire(n), () -> permits.acquire(n));
    held.merge(Thread.currentThread(), n, Integer::sum);
  }

  /** Gives back n permits the calling thread holds. */
  public void release(int n) {
    Thread me = Thread.currentThread();
    int mine = held.getOrDefault(me, 0);
    if (n > mine) {
      throw new SyncException(ViolationKind.RELEASE_EXCESS, me.getName() + " releases " + n + " permits of " + name
          + " but holds " + mine);
    }
    if (mine == n) {
      held.remove(me);
    } else {
      held.put(me, mine - n);
    }
    permits.release(n);
  }

  /** Permits the calling thread holds. */
  public int heldByCurrentThread() {
    return held.getOrDefault(Thread.currentThread(), 0);
  }

  /** Permits free now. */
  public int available() {
    return permits.availablePermits();
  }
}
