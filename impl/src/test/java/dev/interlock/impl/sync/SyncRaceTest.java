package dev.interlock.impl.sync;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Many threads released at once on one mutex or semaphore: mutual exclusion and permit counts hold under contention.
 *
 * <p>Why: an acquire that checks and then sets (two threads both pass the check) or a release that publishes its permits
 * before its bookkeeping shows only under many threads starting together; a latch starts them, no sleeps.
 */
@Timeout(60)
class SyncRaceTest {
  private static final int THREADS = 8;
  private static final int ROUNDS = 5_000;

  private static void race(Runnable body) throws InterruptedException {
    CountDownLatch start = new CountDownLatch(1);
    AtomicReference<Throwable> failure = new AtomicReference<>();
    List<Thread> threads = new ArrayList<>();
    for (int t = 0; t < THREADS; t++) {
      Thread th = new Thread(() -> {
        try {
          start.await();
          for (int i = 0; i < ROUNDS; i++) {
            body.run();
          }
        } catch (Throwable e) {
          failure.compareAndSet(null, e);
        }
      }, "racer#" + t);
      threads.add(th);
      th.start();
    }
    start.countDown();
    for (Thread th : threads) {
      th.join();
    }
    assertThat(failure.get()).isNull();
  }

  @Test
  void theMutexAdmitsOneThreadAtATime() throws InterruptedException {
    GatedMutex m = new GatedMutex("m", StepGate.FREE, new WaitRegistry());
    AtomicInteger inside = new AtomicInteger();
    AtomicInteger most = new AtomicInteger();
    int[] counter = {0};
    race(() -> {
      m.lock();
      try {
        most.accumulateAndGet(inside.incrementAndGet(), Math::max);
        counter[0]++;
        inside.decrementAndGet();
      } finally {
        m.unlock();
      }
    });
    assertThat(most.get()).isEqualTo(1);
    assertThat(counter[0]).isEqualTo(THREADS * ROUNDS);
    assertThat(m.ownerName()).isNull();
    assertThat(m.permitFree()).isTrue();
  }

  @Test
  void theSemaphoreNeverGivesOutMoreThanItsPermits() throws InterruptedException {
    GatedSemaphore s = new GatedSemaphore("s", 3, StepGate.FREE, new WaitRegistry());
    AtomicInteger out = new AtomicInteger();
    AtomicInteger most = new AtomicInteger();
    race(() -> {
      int n = 1 + (int) (Thread.currentThread().getId() % 2);
      s.acquire(n);
      most.accumulateAndGet(out.addAndGet(n), Math::max);
      assertThat(s.heldByCurrentThread()).isEqualTo(n);
      out.addAndGet(-n);
      s.release(n);
    });
    assertThat(most.get()).isLessThanOrEqualTo(3);
    assertThat(s.available()).isEqualTo(3);
    assertThat(s.waiting()).isZero();
    assertThat(s.heldByCurrentThread()).isZero();
  }
}
