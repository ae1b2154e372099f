package dev.interlock.model.design;

import static org.assertj.core.api.Assertions.assertThat;

import dev.interlock.model.TestDesigns;
import org.junit.jupiter.api.Test;

/** {@link Design#parametersLine()}: the one line every report prints for the checked parameters. */
class DesignParametersLineTest {
  @Test
  void namesVramEachRolesThreadsAndJobsAndEachSemaphoresPermits() {
    Design d = TestDesigns.parse("""
        design p
        vram 16GiB
        semaphore units 4
        role w x3 jobs 2
          acquire units 1
          release units 1
        role h x1 jobs 1
          cpu idle
        """);
    assertThat(d.parametersLine()).isEqualTo("vram 16GiB, w x3 jobs 2, h x1 jobs 1, units 4 permits");
    assertThat(d.withJobs("h", Role.FOREVER).parametersLine()).contains("h x1 jobs any");
    assertThat(d.withThreads("w", 1).parametersLine()).startsWith("vram 16GiB, w x1 jobs 2");
  }
}
