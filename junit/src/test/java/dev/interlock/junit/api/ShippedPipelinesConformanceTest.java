package dev.interlock.junit.api;

import static org.assertj.core.api.Assertions.assertThat;

import dev.interlock.impl.pipeline.ReservationPipeline;
import dev.interlock.impl.pipeline.SingleLockLateReleasePipeline;
import dev.interlock.impl.pipeline.SingleLockPipeline;
import dev.interlock.impl.pipeline.TwoLockPipeline;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The shipped hand-written pipelines conform to their design files: what this repository checks of its own pipelines,
 * through the public API. (That their traces equal the interpreter's is ConformanceProperties' business.)
 */
class ShippedPipelinesConformanceTest {
  private static final int SCHEDULES = 40;

  private static Path design(String name) {
    return Path.of("designs/" + name + ".design");
  }

  @Test
  void singleLockConformsOnEverySchedule() {
    PipelineConformance.ScheduleSummary s =
        PipelineConformance.of(design("single-lock"), SingleLockPipeline::new).randomSchedules(SCHEDULES).check();
    assertThat(s.completed()).isEqualTo(SCHEDULES);
    assertThat(s.violated()).isEmpty();
  }

  @Test
  void singleLockLateReleaseConformsOnEverySchedule() {
    PipelineConformance.ScheduleSummary s = PipelineConformance.of(design("single-lock-late-release"),
        SingleLockLateReleasePipeline::new).randomSchedules(SCHEDULES).check();
    assertThat(s.completed()).isEqualTo(SCHEDULES);
  }

  @Test
  void reservationConformsOnEverySchedule() {
    PipelineConformance.ScheduleSummary s =
        PipelineConformance.of(design("reservation"), ReservationPipeline::new).randomSchedules(SCHEDULES).check();
    assertThat(s.completed()).isEqualTo(SCHEDULES);
  }

  @Test
  void twoLockConformsUpToItsOutOfMemory() {
    PipelineConformance.ScheduleSummary s =
        PipelineConformance.of(design("two-lock"), TwoLockPipeline::new).randomSchedules(SCHEDULES).check();
    assertThat(s.violated()).as("two-lock runs out of memory on some of the %d schedules, as the model does", SCHEDULES)
        .containsOnlyKeys("OOM");
    assertThat(s.violated().get("OOM")).isPositive();
  }

  @Test
  void twoLockCounterexampleReplaysAsOutOfMemoryOnTwoLockPipeline() {
    PipelineConformance.ReplaySummary r =
        PipelineConformance.of(design("two-lock"), TwoLockPipeline::new).replaysCounterexamples();
    assertThat(r.verdict()).isEqualTo("OOM");
    assertThat(r.safe()).isFalse();
    assertThat(r.replayed()).first().asString().startsWith("OOM in ").endsWith("threads gpu_worker=2");
  }

  @Test
  void aSafeDesignHasNoCounterexampleAndSaysSo() {
    PipelineConformance.ReplaySummary r =
        PipelineConformance.of(design("single-lock"), SingleLockPipeline::new).replaysCounterexamples();
    assertThat(r).isEqualTo(new PipelineConformance.ReplaySummary("single-lock", "SAFE", java.util.List.of()));
    assertThat(r.safe()).isTrue();
  }

  @Test
  void overridesChangeTheRun() {
    // one worker of two-lock cannot run out of memory: every schedule completes
    PipelineConformance.ScheduleSummary s = PipelineConformance.of(design("two-lock"), TwoLockPipeline::new)
        .threads("gpu_worker", 1).jobs("gpu_worker", 2).randomSchedules(5).check();
    assertThat(s.completed()).isEqualTo(5);
    assertThat(s.violated()).isEqualTo(Map.of());
  }
}
