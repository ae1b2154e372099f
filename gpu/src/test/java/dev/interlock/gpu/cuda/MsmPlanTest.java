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
  void refusesEmptyAndInconsistentPlans() {
    assertThatThrownBy(() -> MsmPlan.of(0)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new MsmPlan(10, 12, 20, 2048, 128)).hasMessageContaining("inconsistent");
  }
}
