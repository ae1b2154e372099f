package com.example.engine;

import static dev.interlock.junit.api.InterlockAssertions.assertThat;

import dev.interlock.junit.api.Interlock;
import dev.interlock.junit.api.Violation;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** Questions about the designs, asked through the checker. */
class CheckTest {
  private static final Path SOLVER = Path.of("src/main/designs/solver.design");
  private static final Path PRESTAGE = Path.of("src/main/designs/prestage.design");

  @Test
  void prestagingRunsTheCardOutOfMemoryWithTwoWorkers() {
    assertThat(Interlock.check(PRESTAGE).run())
        .hasViolation(Violation.OOM)
        .withMinimalThreads("gpu_worker", 2)
        .withCounterexampleOfLength(8);
  }

  @Test
  void prestagingFitsA14GiBCard() {
    assertThat(Interlock.check(PRESTAGE).vram("14GiB").threads("gpu_worker", 2).run()).isSafe();
  }

  @Test
  void theSolverIsSafeForAnyNumberOfWorkersAndStillOverlapsFinishWithTheNextSolve() {
    assertThat(Interlock.check(SOLVER).threadsAny("gpu_worker").run()).isSafe();
    assertThat(Interlock.check(SOLVER).threads("gpu_worker", 3).run())
        .isSafe()
        .overlapIsReachable("finish", "solve");
  }
}
