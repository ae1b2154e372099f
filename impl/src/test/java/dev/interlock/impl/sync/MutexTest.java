package dev.interlock.impl.sync;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.interlock.model.state.Phase;
import dev.interlock.model.state.Violation;
import dev.interlock.model.state.ViolationKind;
import dev.interlock.model.step.Step;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The non-reentrant mutex: misuse is the model's violations, waiting is visible and wakes up. */
@Timeout(30)
class MutexTest {
  private final WaitRegistry waits = new WaitRegistry();
  private final GatedMutex m = new GatedMutex("m", StepGate.FREE, waits);
  private final String me = Thread.currentThread().getName();

  @Test
  void lockAndUnlock() throws Exception {
    assertThat(m.name()).isEqualTo("m");
    assertThat(m.ownerName()).isNull();
    m.lock();
    assertThat(m.heldByCurrentThread()).isTrue();
    assertThat(m.ownerName()).isEqualTo(me);
    m.unlock();
    assertThat(m.heldByCurrentThread()).isFalse();
    assertThat(m.ownerName()).isNull();
    assertThat(m.permitFree()).isTrue();
    m.lockInterruptibly();
    assertThat(m.ownerName()).isEqualTo(me);
    assertThat(m.permitFree()).isFalse();
    m.unlock();
    assertThat(m.permitFree()).isTrue();
  }

  @Test
  void lockingItAgainFromTheOwnerIsADeadlockNotAHang() throws Exception {
    m.lock();
    SyncException e = catchThrowableOfType(SyncException.class, m::lock);
    assertThat(e.kind()).isEqualTo(ViolationKind.DEADLOCK);
    assertThat(e.getMessage()).isEqualTo(me + " locks m, which it already holds");
    assertThat(e.violation()).isEqualTo(new Violation(ViolationKind.DEADLOCK, me + " locks m, which it already holds"));
    assertThat(catchThrowableOfType(SyncException.class, m::lockInterruptibly).kind()).isEqualTo(ViolationKind.DEADLOCK);
    // the try forms are not the model's: they do not wait (nor take the mutex)
    assertThatThrownBy(m::tryLock).isInstanceOf(UnsupportedOperationException.class);
    assertThatThrownBy(() -> m.tryLock(1, TimeUnit.MILLISECONDS)).isInstanceOf(UnsupportedOperationException.class);
    // still held once: one unlock frees it
    assertThat(m.heldByCurrentThread()).isTrue();
    m.unlock();
    assertThat(m.ownerName()).isNull();
    assertThat(catchThrowableOfType(SyncException.class, m::unlock).kind()).isEqualTo(ViolationKind.UNLOCK_NOT_HELD);
  }

  @Test
  void unlockingAMutexNobodyHolds() {
    SyncException e = catchThrowableOfType(SyncException.class, m::unlock);
    assertThat(e.kind()).isEqualTo(ViolationKind.UNLOCK_NOT_HELD);
    assertThat(e.getMessage()).isEqualTo(me + " unlocks m, held by nobody");
  }

  @Test
  void unlockingAnotherThreadsMutex() throws Exception {
    m.lock();
    AtomicReference<Throwable> thrown = new AtomicReference<>();
    Thread other = new Thread(() -> {
      try {
        m.unlock();
      } catch (Throwable t) {
        thrown.set(t);
      }
    }, "w#1");
    other.start();
    other.join();
    assertThat(thrown.get()).isInstanceOf(SyncException.class);
    assertThat(((SyncException) thrown.get()).kind()).isEqualTo(ViolationKind.UNLOCK_NOT_HELD);
    assertThat(thrown.get()).hasMessage("w#1 unlocks m, held by " + me);
    assertThat(m.ownerName()).as("still held by its owner").isEqualTo(me);
    m.unlock();
  }

  @Test
  void aWaitingThreadIsVisibleAndWakesUpWhenTheOwnerUnlocks() throws Exception {
    m.lock();
    CountDownLatch acquired = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    AtomicReference<Throwable> error = new AtomicReference<>();
    Thread waiter = new Thread(() -> {
      try {
        m.lock();
        acquired.countDown();
        release.await();
        m.unlock();
      } catch (Throwable t) {
        error.set(t);
      }
    }, "w#1");
    waiter.start();
    awaitWaitingOn(waits, waiter, "lock m");
    long progress = waits.progress();
    assertThat(acquired.getCount()).as("the waiter cannot have the mutex").isOne();
    assertThat(m.ownerName()).isEqualTo(me);

    m.unlock();
    assertThat(acquired.await(10, TimeUnit.SECONDS)).isTrue();
    assertThat(m.ownerName()).isEqualTo("w#1");
    assertThat(waits.waitingOn(waiter)).isNull();
    assertThat(waits.progress()).as("leaving a wait counts as progress").isGreaterThan(progress);
    assertThat(m.permitFree()).isFalse();

    release.countDown();
    waiter.join();
    assertThat(error.get()).isNull();
    assertThat(m.ownerName()).isNull();
  }

  @Test
  void aWaitingThreadThatIsInterruptedGivesUpWithoutTheMutex() throws Exception {
    m.lock();
    AtomicReference<Throwable> thrown = new AtomicReference<>();
    AtomicReference<Boolean> interruptFlag = new AtomicReference<>();
    Thread waiter = new Thread(() -> {
      try {
        m.lock();
      } catch (Throwable t) {
        thrown.set(t);
        interruptFlag.set(Thread.currentThread().isInterrupted());
      }
    }, "w#1");
    waiter.start();
    awaitWaitingOn(waits, waiter, "lock m");
    waiter.interrupt();
    waiter.join();
    assertThat(thrown.get()).isInstanceOf(WorkerInterrupted.class).hasMessageContaining("lock m");
    assertThat(interruptFlag.get()).as("the interrupt stays visible").isTrue();
    assertThat(waits.waitingOn(waiter)).isNull();
    assertThat(m.ownerName()).isEqualTo(me);
    m.unlock();
    assertThat(m.permitFree()).as("no permit was lost").isTrue();
    m.lock();
    m.unlock();
  }

  @Test
  void underAControlledGateAWaitingThreadReportsBlockedInsteadOfParking() throws Exception {
    CountDownLatch blockedReported = new CountDownLatch(1);
    CountDownLatch retry = new CountDownLatch(1);
    int[] blockedCalls = new int[1];
    StepGate gate = new StepGate() {
      @Override
      public boolean controlled() {
        return true;
      }

      @Override
      public void before(Step step, Optional<Phase> phase) {}

      @Override
      public void blocked() {
        blockedCalls[0]++;
        blockedReported.countDown();
        try {
          retry.await();
        } catch (InterruptedException e) {
          throw new RunAborted("interrupted");
        }
      }

      @Override
      public void failed(Violation v) {}

      @Override
      public void finished() {}
    };
    GatedMutex cm = new GatedMutex("cm", gate, waits);
    cm.lock();
    AtomicReference<Throwable> error = new AtomicReference<>();
    Thread waiter = new Thread(() -> {
      try {
        cm.lock();
        cm.unlock();
      } catch (Throwable t) {
        error.set(t);
      }
    }, "w#1");
    waiter.start();
    assertThat(blockedReported.await(10, TimeUnit.SECONDS)).isTrue();
    assertThat(waits.waitingOn(waiter)).as("a controlled thread is not parked in the primitive").isNull();
    cm.unlock();
    retry.countDown();
    waiter.join();
    assertThat(error.get()).isNull();
    assertThat(blockedCalls[0]).isOne();
    assertThat(cm.ownerName()).isNull();
  }

  @Test
  void hasNoConditions() {
    assertThatThrownBy(m::newCondition).isInstanceOf(UnsupportedOperationException.class)
        .hasMessage("mutex m has no newCondition: the model has no condition-variable step, so a pipeline using it could"
            + " not be checked against its design");
  }

  @Test
  void hasNoTryLockBecauseTheModelHasNoTryLockStep() throws Exception {
    String why = "mutex m has no tryLock: the model has no try-lock step, so a pipeline using it could not be checked"
        + " against its design";
    assertThatThrownBy(m::tryLock).isInstanceOf(UnsupportedOperationException.class).hasMessage(why);
    assertThatThrownBy(() -> m.tryLock(0, TimeUnit.SECONDS)).isInstanceOf(UnsupportedOperationException.class)
        .hasMessage(why);
    assertThat(m.ownerName()).as("a free mutex is not taken either").isNull();
    assertThat(m.permitFree()).isTrue();
    m.lock();
    assertThatThrownBy(m::tryLock).isInstanceOf(UnsupportedOperationException.class).hasMessage(why);
    assertThat(m.ownerName()).isEqualTo(me);
    m.unlock();
    assertThat(m.permitFree()).isTrue();
  }

  @Test
  void lockInterruptiblyWaitsVisiblyAndWakesUpWhenTheOwnerUnlocks() throws Exception {
    m.lock();
    CountDownLatch acquired = new CountDownLatch(1);
    AtomicReference<Throwable> error = new AtomicReference<>();
    Thread waiter = new Thread(() -> {
      try {
        m.lockInterruptibly();
        acquired.countDown();
        m.unlock();
      } catch (Throwable t) {
        error.set(t);
      }
    }, "w#1");
    waiter.start();
    awaitWaitingOn(waits, waiter, "lock m");
    assertThat(acquired.getCount()).isOne();
    m.unlock();
    assertThat(acquired.await(10, TimeUnit.SECONDS)).isTrue();
    waiter.join();
    assertThat(error.get()).isNull();
    assertThat(waits.waitingOn(waiter)).isNull();
    assertThat(m.ownerName()).isNull();
    assertThat(m.permitFree()).isTrue();
  }

  @Test
  void lockInterruptiblyEndsWithInterruptedExceptionWithoutTheMutex() throws Exception {
    m.lock();
    AtomicReference<Throwable> thrown = new AtomicReference<>();
    Thread waiter = new Thread(() -> {
      try {
        m.lockInterruptibly();
      } catch (Throwable t) {
        thrown.set(t);
      }
    }, "w#1");
    waiter.start();
    awaitWaitingOn(waits, waiter, "lock m");
    waiter.interrupt();
    waiter.join();
    assertThat(thrown.get()).isInstanceOf(InterruptedException.class);
    assertThat(waits.waitingOn(waiter)).isNull();
    assertThat(m.ownerName()).isEqualTo(me);
    m.unlock();
    assertThat(m.permitFree()).as("no permit was lost").isTrue();

    Thread.currentThread().interrupt();
    assertThatThrownBy(m::lockInterruptibly).as("an interrupt pending on entry, the mutex free")
        .isInstanceOf(InterruptedException.class);
    assertThat(Thread.interrupted()).as("the interrupt is consumed, as by Semaphore.acquire").isFalse();
    assertThat(m.ownerName()).isNull();
    assertThat(m.permitFree()).isTrue();
  }

  @Test
  void underAControlledGateLockInterruptiblyReportsBlockedInsteadOfParking() throws Exception {
    HandGate gate = new HandGate();
    GatedMutex cm = new GatedMutex("cm", gate, waits);
    cm.lock();
    AtomicReference<Throwable> error = new AtomicReference<>();
    AtomicReference<String> ownerInside = new AtomicReference<>();
    Thread waiter = new Thread(() -> {
      try {
        cm.lockInterruptibly();
        ownerInside.set(cm.ownerName());
        cm.unlock();
      } catch (Throwable t) {
        error.set(t);
      }
    }, "w#1");
    waiter.start();
    gate.awaitBlocked();
    assertThat(waits.waitingOn(waiter)).as("a controlled thread is not parked in the primitive").isNull();
    gate.retry();
    gate.awaitBlocked();
    assertThat(cm.ownerName()).isEqualTo(me);
    cm.unlock();
    gate.retry();
    waiter.join();
    assertThat(error.get()).isNull();
    assertThat(ownerInside.get()).isEqualTo("w#1");
    assertThat(gate.blockedCalls()).isEqualTo(2);
    assertThat(cm.ownerName()).isNull();
    assertThat(cm.permitFree()).isTrue();
  }

  @Test
  void underAControlledGateAnInterruptEndsLockInterruptiblyAtItsNextTry() throws Exception {
    HandGate gate = new HandGate();
    GatedMutex cm = new GatedMutex("cm", gate, waits);
    cm.lock();
    AtomicReference<Throwable> thrown = new AtomicReference<>();
    Thread waiter = new Thread(() -> {
      try {
        cm.lockInterruptibly();
      } catch (Throwable t) {
        thrown.set(t);
      }
    }, "w#1");
    waiter.start();
    gate.awaitBlocked();
    waiter.interrupt();
    gate.retry();
    waiter.join();
    assertThat(thrown.get()).isInstanceOf(InterruptedException.class).hasMessageContaining("lock cm");
    assertThat(gate.blockedCalls()).isOne();
    assertThat(cm.ownerName()).isEqualTo(me);
    cm.unlock();
    assertThat(cm.permitFree()).isTrue();
  }

  /** Waits until {@code t} is registered as blocked on {@code what}. */
  static void awaitWaitingOn(WaitRegistry waits, Thread t, String what) {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (!what.equals(waits.waitingOn(t))) {
      assertThat(t.isAlive()).as("%s ended instead of waiting on %s", t.getName(), what).isTrue();
      assertThat(System.nanoTime()).as("%s never waited on %s", t.getName(), what).isLessThan(deadline);
      Thread.onSpinWait();
    }
  }
}
