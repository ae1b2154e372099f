package com.example.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.interlock.junit.api.PipelineConformance;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The engine's Java code against its designs, under controlled random schedules on a simulated 12 GiB card. */
class PipelineTest {
  private static final Path SOLVER = Path.of("src/main/designs/solver.design");
  private static final Path PRESTAGE = Path.of("src/main/designs/prestage.design");

  @Test
  void theSolverDoesWhatItsDesignSays() {
    PipelineConformance.of(SOLVER, SolverPipeline::new).randomSchedules(100).seed(1).check();
  }

  @Test
  void theSolverIsLinearizableAgainstTheModel() {
    PipelineConformance.of(SOLVER, SolverPipeline::new).linearizable();
  }

  @Test
  void thePrestagingBugIsCaughtAgainstTheSolverDesign() {
    assertThatThrownBy(() -> PipelineConformance.of(SOLVER, PrestagingSolverPipeline::new)
        .randomSchedules(20).seed(1).check())
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("alloc input 6GiB");
  }

  @Test
  void thePrestagingCodeRunsOutOfMemoryWhereTheCheckerSaysItWill() {
    PipelineConformance.ReplaySummary replays =
        PipelineConformance.of(PRESTAGE, PrestagingSolverPipeline::new).replaysCounterexamples();
    assertThat(replays.verdict()).isEqualTo("OOM");
    assertThat(replays.replayed()).isNotEmpty();
  }
}
