package dev.interlock.impl.sync;

import dev.interlock.impl.api.Semaphore;
import dev.interlock.model.state.ViolationKind;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The engine's {@link Semaphore}: a counting semaphore whose waits go through the step gate and that knows how many
 * permits each thread holds, so that releasing more than you hold is caught (RELEASE_EXCESS).
 *
 * <p>Admission is the model's: an acquire of n may proceed whenever n permits are free, whoever
 * waited first. A release wakes every waiter and each one whose request now fits may take it, so a
 * waiting {@code acquire 1} is never held up behind a waiting {@code acquire 12}, as it would be in
 * {@link java.util.concurrent.Semaphore}, fair or not, which only wakes the head of its queue.
 */
public final class GatedSemaphore implements Semaphore, Holdable {
  private final String name;
  private final StepGate gate;
  private final WaitRegistry waits;
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition released = lock.newCondition();
  private final Map<Thread, Integer> held = new ConcurrentHashMap<>();
  private final int permits;
  /** Permits free now; guarded by lock. */
  private int available;
  /** Threads parked in acquire now; guarded by lock. */
  private int waiting;

  public GatedSemaphore(String name, int permits, StepGate gate, WaitRegistry waits) {
    if (permits < 0) {
      throw new IllegalArgumentException("semaphore " + name + " needs 0 or more permits, got " + permits);
    }
    this.name = name;
    this.gate = gate;
    this.waits = waits;
    this.available = permits;
    this.permits = permits;
  }

  @Override
  public String name() {
    return name;
  }

  /** Takes n permits at once, waiting until all are free. */
  @Override
  public void acquire(int n) {
    if (n < 1) {
      throw new IllegalArgumentException("acquire needs at least 1 permit, got " + n);
    }
    Blocking.until(gate, waits, "acquire " + name + " " + n, this, n, () -> tryTake(n), () -> take(n));
    held.merge(Thread.currentThread(), n, Integer::sum);
  }

  /** Takes n permits if they are free now. */
  private boolean tryTake(int n) {
    lock.lock();
    try {
      if (available < n) {
        return false;
      }
      available -= n;
      return true;
    } finally {
      lock.unlock();
    }
  }

  /** Takes n permits, parking until they are free. */
  private void take(int n) throws InterruptedException {
    lock.lockInterruptibly();
    try {
      waiting++;
      try {
        while (available < n) {
          released.await();
        }
      } finally {
        waiting--;
      }
      available -= n;
    } finally {
      lock.unlock();
    }
  }

  /** Gives back n permits the calling thread holds. */
  @Override
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
    lock.lock();
    try {
      available += n;
      released.signalAll();
    } finally {
      lock.unlock();
    }
  }

  @Override
  public String describe() {
    return "semaphore " + name;
  }

  /** Its permits in all. */
  @Override
  public int units() {
    return permits;
  }

  /** The threads holding permits now, with how many each holds. */
  @Override
  public Map<Thread, Integer> holders() {
    return Map.copyOf(held);
  }

  /** Permits the calling thread holds. */
  @Override
  public int heldByCurrentThread() {
    return held.getOrDefault(Thread.currentThread(), 0);
  }

  /** Permits free now. */
  @Override
  public int available() {
    lock.lock();
    try {
      return available;
    } finally {
      lock.unlock();
    }
  }

  /**
   * Threads parked in {@link #acquire} now (not those a controlled gate holds in blocked()). A
   * thread counted here is already waiting for a release: one that follows will reach it.
   */
  int waiting() {
    lock.lock();
    try {
      return waiting;
    } finally {
      lock.unlock();
    }
  }
}
