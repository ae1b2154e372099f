package dev.interlock.junit.api;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.interlock.junit.api.ConformanceDemoPipeline.Bug;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * {@link PipelineConformance#linearizable()} on a small user pipeline: linearizable against the model when its design
 * is safe, not when two workers' buffers can meet (which no run of one job after another shows), and a pipeline that
 * fails even alone is reported before Lincheck runs. Small designs, so that the module's build stays quick; the
 * shipped designs' Lincheck tests are impl's *LincheckTest.
 */
@Tag("lincheck")
class PipelineConformanceLincheckTest {
  @Test
  void aSafeDesignsPipelineIsLinearizable() {
    PipelineConformance.of(ConformanceDemoPipeline.SAFE, () -> new ConformanceDemoPipeline(Bug.NONE)).linearizable();
  }

  @Test
  void anUnsafeDesignsPipelineIsNotLincheckFindsTheOutOfMemory() {
    assertThatThrownBy(() -> PipelineConformance.of(ConformanceDemoPipeline.UNSAFE,
        () -> new ConformanceDemoPipeline(Bug.NONE, true)).linearizable())
        .isInstanceOf(AssertionError.class).hasMessageContaining("pipeline conformance of design demo-unsafe")
        .hasMessageContaining("OOM at alloc buf 3GiB");
  }

  @Test
  void aPipelineThatFailsAloneFailsBeforeLincheckRuns() {
    assertThatThrownBy(() -> PipelineConformance.of(ConformanceDemoPipeline.SAFE,
        () -> new ConformanceDemoPipeline(Bug.FREES_TWICE)).linearizable())
        .isInstanceOf(AssertionError.class).hasMessageContaining("run alone after the ones before")
        .hasMessageContaining("BAD_FREE at free buf");
  }
}
