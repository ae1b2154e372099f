package dev.interlock.gpu.cuda;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/** Lanes follow the threads that run at once, not every thread that ever ran. */
class ThreadLanesTest {

  /** A lane: just its serial number. */
  private record Lane(int serial) {}

  private static ThreadLanes<Lane> lanes(AtomicInteger made) {
    return new ThreadLanes<>(() -> new Lane(made.incrementAndGet()));
  }

  /** Runs {@code work} on a new thread and waits for it to end. */
  private static <T> T onNewThread(Supplier<T> work) throws InterruptedException {
    AtomicReference<T> got = new AtomicReference<>();
    Thread t = new Thread(() -> got.set(work.get()));
    t.start();
    t.join();
    return got.get();
  }

  @Test
  void aThreadKeepsItsLane() {
    ThreadLanes<Lane> lanes = lanes(new AtomicInteger());
    assertThat(lanes.lane()).isSameAs(lanes.lane());
    assertThat(lanes.threadsServed()).isEqualTo(1);
  }

  @Test
  void anEndedThreadsLaneGoesToTheNextThread() throws InterruptedException {
    AtomicInteger made = new AtomicInteger();
    ThreadLanes<Lane> lanes = lanes(made);
    Lane first = onNewThread(lanes::lane);
    Lane second = onNewThread(lanes::lane);
    assertThat(second).isSameAs(first);
    assertThat(made).hasValue(1);
  }

  @Test
  void aThousandThreadsOneAfterAnotherShareOneLane() throws InterruptedException {
    AtomicInteger made = new AtomicInteger();
    ThreadLanes<Lane> lanes = lanes(made);
    for (int i = 0; i < 1000; i++) {
      onNewThread(lanes::lane);
    }
    assertThat(lanes.all()).hasSize(1);
    assertThat(made).hasValue(1);
    assertThat(lanes.threadsServed()).isEqualTo(1000);
  }

  @Test
  void threadsAliveAtOnceHaveLanesOfTheirOwn() throws InterruptedException {
    int n = 8;
    AtomicInteger made = new AtomicInteger();
    ThreadLanes<Lane> lanes = lanes(made);
    CyclicBarrier allHold = new CyclicBarrier(n);
    Set<Lane> seen = Collections.synchronizedSet(Collections.newSetFromMap(new IdentityHashMap<>()));
    List<Thread> threads = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      Thread t = new Thread(() -> {
        seen.add(lanes.lane());
        try {
          allHold.await(); // no thread ends before every one has its lane
        } catch (InterruptedException | BrokenBarrierException e) {
          throw new IllegalStateException(e);
        }
      });
      threads.add(t);
      t.start();
    }
    for (Thread t : threads) {
      t.join();
    }
    assertThat(seen).hasSize(n);
    assertThat(made).hasValue(n);
    // and once they have ended, the next n threads at once reuse those n lanes
    CyclicBarrier again = new CyclicBarrier(n);
    Set<Lane> seenAgain = Collections.synchronizedSet(Collections.newSetFromMap(new IdentityHashMap<>()));
    threads.clear();
    for (int i = 0; i < n; i++) {
      Thread t = new Thread(() -> {
        seenAgain.add(lanes.lane());
        try {
          again.await();
        } catch (InterruptedException | BrokenBarrierException e) {
          throw new IllegalStateException(e);
        }
      });
      threads.add(t);
      t.start();
    }
    for (Thread t : threads) {
      t.join();
    }
    assertThat(seenAgain).hasSameElementsAs(seen).hasSize(n);
    assertThat(made).hasValue(n);
    assertThat(lanes.threadsServed()).isEqualTo(2L * n);
  }

  @Test
  void closeHandsBackEveryLane() throws InterruptedException {
    AtomicInteger made = new AtomicInteger();
    ThreadLanes<Lane> lanes = lanes(made);
    lanes.lane();
    onNewThread(lanes::lane);
    List<Lane> released = new ArrayList<>();
    lanes.close(released::add);
    assertThat(released).containsExactlyInAnyOrder(new Lane(1), new Lane(2)).hasSize(made.get());
    assertThat(lanes.all()).isEmpty();
  }
}
