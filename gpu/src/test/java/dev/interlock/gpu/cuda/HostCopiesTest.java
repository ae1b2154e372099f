package dev.interlock.gpu.cuda;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicIntegerArray;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Host copies split into parts: every long covered once, parts aligned, a failure reported only after every part ends. */
class HostCopiesTest {
  private final HostCopies copies = new HostCopies();

  @AfterEach
  void close() {
    copies.close();
  }

  @Test
  void partsCoverEveryLongOnceOnAlignedBoundaries() {
    for (int threads : new int[] {1, 2, 3, 4, 7}) {
      copies.threads(threads);
      for (int n : new int[] {0, 5, HostCopies.MIN_PART_LONGS - 4, 2 * HostCopies.MIN_PART_LONGS,
          Staging.HALF_LONGS, 5 * HostCopies.MIN_PART_LONGS + 8}) {
        AtomicIntegerArray seen = new AtomicIntegerArray(n);
        ConcurrentLinkedQueue<int[]> parts = new ConcurrentLinkedQueue<>();
        copies.run(n, (off, len) -> {
          parts.add(new int[] {off, len});
          for (int i = off; i < off + len; i++) {
            seen.incrementAndGet(i);
          }
        });
        for (int i = 0; i < n; i++) {
          assertThat(seen.get(i)).as("long %d of %d, %d threads", i, n, threads).isEqualTo(1);
        }
        assertThat(parts).as("%d longs, %d threads", n, threads).hasSizeLessThanOrEqualTo(threads)
            .allSatisfy(p -> assertThat(p[0] % HostCopies.ALIGN).isZero());
        if (n >= threads * HostCopies.MIN_PART_LONGS) {
          assertThat(parts).as("%d longs, %d threads", n, threads).hasSize(threads);
        }
      }
    }
  }

  @Test
  void aFailedPartIsRethrownOnlyAfterTheOtherPartsEnd() throws Exception {
    copies.threads(2);
    CountDownLatch failedFirst = new CountDownLatch(1);
    CountDownLatch runReturned = new CountDownLatch(1);
    CountDownLatch otherEnded = new CountDownLatch(1);
    AtomicBoolean returnedWhileOtherRan = new AtomicBoolean();
    assertThatThrownBy(() -> copies.run(2 * HostCopies.MIN_PART_LONGS, (off, len) -> {
      if (off == 0) {
        failedFirst.countDown();
        throw new IllegalStateException("part 0 failed");
      }
      try {
        assertThat(failedFirst.await(10, TimeUnit.SECONDS)).isTrue();
        // run() must not return while this part runs: if it did, the test thread would count runReturned down now
        returnedWhileOtherRan.set(runReturned.await(300, TimeUnit.MILLISECONDS));
      } catch (InterruptedException e) {
        throw new AssertionError(e);
      } finally {
        otherEnded.countDown();
      }
    })).isInstanceOf(IllegalStateException.class).hasMessage("part 0 failed");
    runReturned.countDown();
    assertThat(otherEnded.await(10, TimeUnit.SECONDS)).isTrue();
    assertThat(returnedWhileOtherRan).as("run() returned while another part still ran").isFalse();
  }

  @Test
  void threadCountsBelowOneAreRejected() {
    assertThatThrownBy(() -> copies.threads(0)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("at least 1");
  }
}
