package dev.interlock.impl.sync;

import static dev.interlock.impl.sync.MutexTest.awaitWaitingOn;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.interlock.model.state.ViolationKind;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The counting semaphore that knows who holds its permits. */
@Timeout(30)
class PermitSemaphoreTest {
  private final WaitRegistry waits = new WaitRegistry();
  private final String me = Thread.currentThread().getName();

  private GatedSemaphore semaphore(int permits) {
    return new GatedSemaphore("s", permits, StepGate.FREE, waits);
  }

  @Test
  void acquireAndReleaseCountPerThread() {
    GatedSemaphore s = semaphore(5);
    assertThat(s.name()).isEqualTo("s");
    s.acquire(3);
    s.acquire(1);
    assertThat(s.heldByCurrentThread()).isEqualTo(4);
    assertThat(s.available()).isEqualTo(1);
    s.release(2);
    assertThat(s.heldByCurrentThread()).isEqualTo(2);
    assertThat(s.available()).isEqualTo(3);
    s.release(2);
    assertThat(s.heldByCurrentThread()).isZero();
    assertThat(s.available()).isEqualTo(5);
  }

  @Test
  void releasingMoreThanHeldIsReleaseExcessAndChangesNothing() {
    GatedSemaphore s = semaphore(3);
    s.acquire(1);
    SyncException e = catchThrowableOfType(SyncException.class, () -> s.release(2));
    assertThat(e.kind()).isEqualTo(ViolationKind.RELEASE_EXCESS);
    assertThat(e.getMessage()).isEqualTo(me + " releases 2 permits of s but holds 1");
    assertThat(s.heldByCurrentThread()).isOne();
    assertThat(s.available()).isEqualTo(2);
    s.release(1);
    assertThat(catchThrowableOfType(SyncException.class, () -> s.release(1)).getMessage())
        .isEqualTo(me + " releases 1 permits of s but holds 0");
    assertThat(s.available()).as("the count is not inflated").isEqualTo(3);
  }

  @Test
  void permitsHeldByAnotherThreadCannotBeReleasedHere() throws Exception {
    GatedSemaphore s = semaphore(3);
    s.acquire(2);
    AtomicReference<Throwable> thrown = new AtomicReference<>();
    AtomicInteger otherHeld = new AtomicInteger(-1);
    Thread other = new Thread(() -> {
      try {
        s.acquire(1);
        otherHeld.set(s.heldByCurrentThread());
        s.release(2);
      } catch (Throwable t) {
        thrown.set(t);
      }
    }, "w#1");
    other.start();
    other.join();
    assertThat(otherHeld.get()).isOne();
    assertThat(thrown.get()).isInstanceOf(SyncException.class).hasMessage("w#1 releases 2 permits of s but holds 1");
    assertThat(((SyncException) thrown.get()).kind()).isEqualTo(ViolationKind.RELEASE_EXCESS);
    assertThat(s.heldByCurrentThread()).isEqualTo(2);
    assertThat(s.available()).isZero();
  }

  @Test
  void acquireTakesAllPermitsAtOnceAndWakesUpWhenEnoughAreReleased() throws Exception {
    GatedSemaphore s = semaphore(3);
    s.acquire(2);
    CountDownLatch acquired = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    AtomicReference<Throwable> error = new AtomicReference<>();
    AtomicInteger held = new AtomicInteger(-1);
    Thread waiter = new Thread(() -> {
      try {
        s.acquire(2);
        held.set(s.heldByCurrentThread());
        acquired.countDown();
        release.await();
        s.release(2);
      } catch (Throwable t) {
        error.set(t);
      }
    }, "w#1");
    waiter.start();
    awaitWaitingOn(waits, waiter, "acquire s 2");
    assertThat(acquired.getCount()).as("one permit free, two wanted").isOne();
    assertThat(s.available()).as("nothing taken piecemeal").isOne();

    s.release(1);
    assertThat(acquired.await(10, TimeUnit.SECONDS)).isTrue();
    assertThat(held.get()).isEqualTo(2);
    assertThat(s.available()).isZero();
    assertThat(s.heldByCurrentThread()).isOne();
    assertThat(waits.waitingOn(waiter)).isNull();

    release.countDown();
    waiter.join();
    assertThat(error.get()).isNull();
    s.release(1);
    assertThat(s.available()).isEqualTo(3);
  }

  @Test
  void aSemaphoreWithNoPermitsBlocksUntilInterrupted() throws Exception {
    GatedSemaphore s = semaphore(0);
    AtomicReference<Throwable> thrown = new AtomicReference<>();
    Thread waiter = new Thread(() -> {
      try {
        s.acquire(1);
      } catch (Throwable t) {
        thrown.set(t);
      }
    }, "w#1");
    waiter.start();
    awaitWaitingOn(waits, waiter, "acquire s 1");
    waiter.interrupt();
    waiter.join();
    assertThat(thrown.get()).isInstanceOf(WorkerInterrupted.class).hasMessageContaining("acquire s 1");
    assertThat(waits.waitingOn(waiter)).isNull();
    assertThat(s.available()).isZero();
  }

  @Test
  void aQueuedAcquireWhoseRequestFitsGetsThroughAheadOfALargerOneQueuedFirst() throws Exception {
    GatedSemaphore s = semaphore(12);
    s.acquire(12);
    AtomicReference<Throwable> error = new AtomicReference<>();
    CountDownLatch bigAcquired = new CountDownLatch(1);
    Thread big = new Thread(() -> {
      try {
        s.acquire(12);
        bigAcquired.countDown();
        s.release(12);
      } catch (Throwable t) {
        error.set(t);
      }
    }, "w#12");
    CountDownLatch smallAcquired = new CountDownLatch(1);
    CountDownLatch smallRelease = new CountDownLatch(1);
    Thread small = new Thread(() -> {
      try {
        s.acquire(1);
        smallAcquired.countDown();
        smallRelease.await();
        s.release(1);
      } catch (Throwable t) {
        error.set(t);
      }
    }, "w#1");
    big.start();
    awaitQueued(s, big, "acquire s 12", 1);
    small.start();
    awaitQueued(s, small, "acquire s 1", 2);

    s.release(1);
    assertThat(smallAcquired.await(10, TimeUnit.SECONDS)).as("one permit is free and w#1 wants one").isTrue();
    assertThat(s.available()).isZero();
    assertThat(s.waiting()).as("w#12 still waits").isOne();
    assertThat(waits.waitingOn(big)).isEqualTo("acquire s 12");
    assertThat(bigAcquired.getCount()).as("11 held here and 1 by w#1: not 12 free").isOne();

    s.release(11);
    smallRelease.countDown();
    assertThat(bigAcquired.await(10, TimeUnit.SECONDS)).as("all 12 free again").isTrue();
    big.join();
    small.join();
    assertThat(error.get()).isNull();
    assertThat(s.waiting()).isZero();
    assertThat(s.available()).isEqualTo(12);
  }

  @Test
  void underAControlledGateAnAcquireThatCannotProceedReportsBlockedInsteadOfParking() throws Exception {
    HandGate gate = new HandGate();
    GatedSemaphore s = new GatedSemaphore("cs", 3, gate, waits);
    s.acquire(2);
    AtomicReference<Throwable> error = new AtomicReference<>();
    AtomicInteger held = new AtomicInteger(-1);
    Thread waiter = new Thread(() -> {
      try {
        s.acquire(2);
        held.set(s.heldByCurrentThread());
        s.release(2);
      } catch (Throwable t) {
        error.set(t);
      }
    }, "w#1");
    waiter.start();
    gate.awaitBlocked();
    assertThat(waits.waitingOn(waiter)).as("a controlled thread is not parked in the primitive").isNull();
    assertThat(s.waiting()).isZero();
    gate.retry();
    gate.awaitBlocked();
    assertThat(s.available()).as("still one free, two wanted: nothing taken piecemeal").isOne();
    s.release(1);
    gate.retry();
    waiter.join();
    assertThat(error.get()).isNull();
    assertThat(held.get()).isEqualTo(2);
    assertThat(gate.blockedCalls()).isEqualTo(2);
    s.release(1);
    assertThat(s.available()).isEqualTo(3);
  }

  /** Waits until {@code t} is parked in an acquire of {@code s} as {@code what}, the {@code queued}th waiter. */
  private void awaitQueued(GatedSemaphore s, Thread t, String what, int queued) {
    awaitWaitingOn(waits, t, what);
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (s.waiting() != queued) {
      assertThat(t.isAlive()).as("%s ended instead of waiting on %s", t.getName(), what).isTrue();
      assertThat(System.nanoTime()).as("%s never queued on %s", t.getName(), what).isLessThan(deadline);
      Thread.onSpinWait();
    }
  }

  @Test
  void badArguments() {
    assertThatThrownBy(() -> semaphore(-1)).isInstanceOf(IllegalArgumentException.class);
    GatedSemaphore s = semaphore(1);
    assertThatThrownBy(() -> s.acquire(0)).isInstanceOf(IllegalArgumentException.class);
    assertThat(s.available()).isOne();
    assertThatThrownBy(() -> new SyncException(ViolationKind.OOM, "x")).isInstanceOf(IllegalArgumentException.class);
  }
}
