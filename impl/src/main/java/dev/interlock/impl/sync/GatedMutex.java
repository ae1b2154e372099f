package dev.interlock.impl.sync;

import dev.interlock.impl.api.Mutex;
import dev.interlock.model.state.ViolationKind;
import java.util.Map;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;

/**
 * The engine's {@link Mutex}: a non-reentrant lock whose waits go through the step gate, used like a ReentrantLock.
 *
 * <p>Non-reentrant because the designs' mutexes are (std::mutex in the prover): locking it again
 * from its owner is a deadlock, reported at once as {@link SyncException} (DEADLOCK) rather than
 * hanging; unlocking it from another thread is UNLOCK_NOT_HELD.
 *
 * <p>Only the operations the model has a step for are supported: {@link #lock()} and
 * {@link #lockInterruptibly()} (both the model's lock step, waiting through the step gate) and
 * {@link #unlock()}. The model has no try-lock and no condition variables, so {@link #tryLock()},
 * {@link #tryLock(long, TimeUnit)} and {@link #newCondition()} throw UnsupportedOperationException:
 * a pipeline using them could not be checked against its design.
 */
public final class GatedMutex implements Mutex, Holdable {
  private final String name;
  private final StepGate gate;
  private final WaitRegistry waits;
  private final Semaphore permit = new Semaphore(1, true);
  private volatile Thread owner;

  public GatedMutex(String name, StepGate gate, WaitRegistry waits) {
    this.name = name;
    this.gate = gate;
    this.waits = waits;
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public String describe() {
    return "mutex " + name;
  }

  @Override
  public int units() {
    return 1;
  }

  /** Its owner, if any. */
  @Override
  public Map<Thread, Integer> holders() {
    Thread o = owner;
    return o == null ? Map.of() : Map.of(o, 1);
  }

  /** The owning thread's name, or null. */
  public String ownerName() {
    Thread o = owner;
    return o == null ? null : o.getName();
  }

  @Override
  public void lock() {
    Thread me = notHeldByMe();
    Blocking.until(gate, waits, "lock " + name, this, 1, permit::tryAcquire, permit::acquire);
    owner = me;
  }

  /** The model's lock step, like {@link #lock()}, except that an interrupt ends the wait with InterruptedException. */
  @Override
  public void lockInterruptibly() throws InterruptedException {
    Thread me = notHeldByMe();
    Blocking.untilInterruptibly(gate, waits, "lock " + name, this, 1, permit::tryAcquire, permit::acquire);
    owner = me;
  }

  /** The calling thread, after checking that it does not hold the mutex already. */
  private Thread notHeldByMe() {
    Thread me = Thread.currentThread();
    if (owner == me) {
      throw new SyncException(ViolationKind.DEADLOCK, me.getName() + " locks " + name + ", which it already holds");
    }
    return me;
  }

  /** Unsupported: the model has no try-lock step. */
  @Override
  public boolean tryLock() {
    throw unsupported("tryLock", "try-lock");
  }

  /** Unsupported: the model has no try-lock step, timed or not. */
  @Override
  public boolean tryLock(long time, TimeUnit unit) {
    throw unsupported("tryLock", "try-lock");
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
  @Override
  public boolean heldByCurrentThread() {
    return owner == Thread.currentThread();
  }

  /** Unsupported: the model has no condition variables. */
  @Override
  public Condition newCondition() {
    throw unsupported("newCondition", "condition-variable");
  }

  private UnsupportedOperationException unsupported(String operation, String step) {
    return new UnsupportedOperationException("mutex " + name + " has no " + operation + ": the model has no " + step
        + " step, so a pipeline using it could not be checked against its design");
  }

  /** Whether its permit is free, which must agree with {@code ownerName() == null} whenever no lock or unlock is under way. */
  boolean permitFree() {
    return permit.availablePermits() == 1;
  }
}
