package dev.interlock.impl.sync;

import dev.interlock.model.state.ViolationKind;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.Lock;

/**
 * A non-reentrant mutex, as a {@link Lock}: code uses it like a ReentrantLock.
 *
 * <p>Non-reentrant because the designs' mutexes are (std::mutex in the prover): locking it again
 * from its owner is a deadlock, reported at once as {@link SyncException} (DEADLOCK) rather than
 * hanging; unlocking it from another thread is UNLOCK_NOT_HELD.
 */
public final class Mutex implements Lock {
  private final String name;
  private final StepGate gate;
  private final WaitRegistry waits;
  private final Semaphore permit = new Semaphore(1, true);
  private volatile Thread owner;

  public Mutex(String name, StepGate gate, WaitRegistry waits) {
    this.name = name;
    this.gate = gate;
    this.waits = waits;
  }

  public String name() {
    return name;
  }

  /** The owning thread's name, or null. */
  public String ownerName() {
    Thread o = owner;
    return o == null ? null : o.getName();
  }

  @Override
  public void lock() {
    Thread me = Thread.currentThread();
    if (owner == me) {
      throw new SyncException(ViolationKind.DEADLOCK, me.getName() + " locks " + name + ", which it already holds");
    }
    Blocking.until(gate, waits, "lock " + name, permit::tryAcquire, permit::acquire);
    owner = me;
  }

  @Override
  public void lockInterruptibly() throws InterruptedException {
    if (owner == Thread.currentThread()) {
      throw new SyncException(ViolationKind.DEADLOCK, Thread.currentThread().getName() + " locks " + name + ", which it already holds");
    }
    permit.acquire();
    owner = Thread.currentThread();
  }

  @Override
  public boolean tryLock() {
    if (owner != Thread.currentThread() && permit.tryAcquire()) {
      owner = Thread.currentThread();
      return true;
    }
    return false;
  }

  @Override
  public boolean tryLock(long time, TimeUnit unit) throws InterruptedException {
    if (owner != Thread.currentThread() && permit.tryAcquire(time, unit)) {
      owner = Thread.currentThread();
      return true;
    }
    return false;
  }

  @Override
  public void unlock() {
    Thread me = Thread.currentThread();
    if (owner != me) {
      throw new SyncException(ViolationKind.UNLOCK_NOT_HELD, me.getName() + " unlocks " + name + ", held by "
          + (owner == null ? "nobody" : owner.getName()));
    }
    owner = null;
    permit.release();
  }

  /** Whether the calling thread holds it. */
  public boolean heldByCurrentThread() {
    return owner == Thread.currentThread();
  }

  @Override
  public Condition newCondition() {
    throw new UnsupportedOperationException("Mutex has no conditions");
  }
}
