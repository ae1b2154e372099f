package dev.interlock.gpu.cuda;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class MsmPlanTest {
  @Test
  void windowsCoverEveryScalarBitWithoutALastCarryAndTheTopWindowIsNotEmpty() {
    for (int log = 0; log <= 26; log++) {
      MsmPlan p = MsmPlan.of(1 << log);
      assertThat(p.windows() * p.c()).isGreaterThanOrEqualTo(256);
      int topBits = 255 - p.c() * (p.windows() - 1);
      assertThat(topBits).as("bits of the top window at 2^%d (c=%d)", log, p.c()).isGreaterThanOrEqualTo(Math.min(p.c() - 1, 7));
      assertThat(p.buckets() % p.segments()).isZero();
      assertThat(p.segments() % p.windowThreads()).isZero();
    }
  }

  @Test
  void scratchGrowsWithSizeAndCoversEverySizeUpToTheMaximum() {
    long most = MsmPlan.maxScratchBytes(1 << 20);
    for (int n : new int[] {1, 5, 1000, (1 << 17) - 1, 1 << 17, 999_999, 1 << 20}) {
      assertThat(MsmPlan.of(n).scratchBytes()).isLessThanOrEqualTo(most);
    }
    assertThat(MsmPlan.of(1 << 24).scratchBytes()).isGreaterThan(16L * (1 << 24) * 4);
  }

  @Test
  void anArenaSizedForAMaximumServesEverySmallerMsm() {
    java.util.SplittableRandom rng = new java.util.SplittableRandom(3);
    int[] maxima = {1, 100, 1 << 16, (1 << 20) - 1, 1 << 20, (1 << 20) + 2, 1_146_881, 3_000_000, 1 << 22, (1 << 24) + 2};
    for (int max : maxima) {
      long arena = MsmPlan.maxScratchBytes(max);
      java.util.List<Integer> sizes = new java.util.ArrayList<>(java.util.List.of(1, max, Math.max(1, max - 1), Math.max(1, max / 2)));
      for (int log = 0; (1L << log) <= max; log++) {
        sizes.add(1 << log);
        sizes.add((int) Math.min(max, (2L << log) - 1));
      }
      for (int i = 0; i < 2000; i++) {
        sizes.add(1 + rng.nextInt(max));
      }
      for (int n : sizes) {
        assertThat(MsmPlan.of(n).scratchBytes()).as("MSM of %d points in an arena for %d", n, max).isLessThanOrEqualTo(arena);
        assertThat(MsmPlan.of(n).slotsA()).isGreaterThanOrEqualTo(2 * MsmPlan.of(n).chunkThreads());
      }
    }
  }

  @Test
  void refusesEmptyInconsistentAndOversizedPlans() {
    assertThatThrownBy(() -> MsmPlan.of(MsmPlan.MAX_POINTS + 1)).hasMessageContaining("points");
    assertThatThrownBy(() -> new KernelScratch(20, MsmPlan.MAX_POINTS + 1, 1)).hasMessageContaining("maxMsmPoints");
    assertThatThrownBy(() -> MsmPlan.of(0)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new MsmPlan(10, 12, 20, 2048, 128)).hasMessageContaining("inconsistent");
  }
}
