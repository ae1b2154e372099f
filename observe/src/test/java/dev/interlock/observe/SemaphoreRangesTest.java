package dev.interlock.observe;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The acquire/release SEM N range rule that validate and infer share. */
class SemaphoreRangesTest {
  @Test
  void aCallInsideItsRangeIsNPermitsElseOne() {
    assertThat(SemaphoreRanges.permits("acquire", "vram_units", List.of("job", "acquire vram_units 14"))).isEqualTo(14);
    assertThat(SemaphoreRanges.permits("release", "vram_units", List.of("acquire vram_units 14"))).isEqualTo(1);
    assertThat(SemaphoreRanges.permits("acquire", "other", List.of("acquire vram_units 14"))).isEqualTo(1);
    assertThat(SemaphoreRanges.permits("acquire", "vram_units", List.of("acquire vram_units many"))).isEqualTo(1);
  }

  @Test
  void rangesAndGuardNames() {
    assertThat(SemaphoreRanges.isSemaphoreRange("release vram_units 14")).isTrue();
    assertThat(SemaphoreRanges.isSemaphoreRange("alloc staged")).isFalse();
    assertThat(SemaphoreRanges.namedGuard("vram_units.guard", Set.of("vram_units"))).isTrue();
    assertThat(SemaphoreRanges.namedGuard("compute_mtx", Set.of("vram_units"))).isFalse();
    assertThat(SemaphoreRanges.namedGuard("other.guard", Set.of("vram_units"))).isFalse();
  }
}
