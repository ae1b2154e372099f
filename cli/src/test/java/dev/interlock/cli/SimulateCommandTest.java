package dev.interlock.cli;

import static dev.interlock.cli.CliTest.design;
import static dev.interlock.cli.CliTest.parseJson;
import static dev.interlock.cli.CliTest.run;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code interlock simulate} end to end: the sweep's table and JSON, a stopped run, bad input. */
class SimulateCommandTest {
  private static final String[] TIMES = {"--time", "synthesize=500ms", "--time", "ntt_msm=300ms", "--time",
      "b_g2_msm=200ms", "--time", "epilogue=50ms"};

  @Test
  void singleLockOverlapsHostWorkWithTheNextWorkersKernelsUpToItsLock() {
    CliTest.Run r = run(CliTest.concat(new String[] {"simulate", design("single-lock"), "--workers", "1..4"}, TIMES));
    assertThat(r.status()).as(r.describe()).isZero();
    assertThat(r.out()).contains("plan      gpu_worker x 1..4, 8 jobs per thread, 5 runs each, seeds 1..5")
        .containsPattern("(?m)^1 +57\\.14 \\+- 0\\.00 +1\\.050 +1\\.050 +28\\.6% +14GiB +0\\.300/0\\.000");
  }

  @Test
  @SuppressWarnings("unchecked")
  void theJsonHasEveryCountsThroughputLatencyAndLocks() {
    CliTest.Run r = run(CliTest.concat(new String[] {"simulate", design("single-lock"), "--workers", "1..3", "--json",
        "--runs", "3"}, TIMES));
    assertThat(r.status()).as(r.describe()).isZero();
    Map<String, Object> m = (Map<String, Object>) parseJson(r.out());
    assertThat(m).containsEntry("role", "gpu_worker").containsEntry("runs", 3L).containsEntry("jobs_per_thread", 8L)
        .containsEntry("untimed", List.of());
    List<Map<String, Object>> points = (List<Map<String, Object>>) m.get("points");
    assertThat(points).hasSize(3);
    double one = ((Number) points.get(0).get("jobs_per_minute")).doubleValue();
    double three = ((Number) points.get(2).get("jobs_per_minute")).doubleValue();
    assertThat(one).isCloseTo(60 / 1.05, within(0.01));
    assertThat(three).isGreaterThan(2 * one).isLessThanOrEqualTo(200.0);
    assertThat(points.get(0)).containsKeys("jobs_per_minute_ci95", "job_latency_median_seconds", "job_latency_p95_seconds",
        "gpu_busy_fraction", "peak_used_bytes", "locks").containsEntry("stop", null);
    assertThat((Map<String, Object>) ((Map<String, Object>) points.get(0).get("locks")).get("compute_mtx"))
        .containsKeys("hold_median_seconds", "wait_median_seconds");
  }

  @Test
  void anUnsafeDesignShowsWhereItsRunStoppedAndNoThroughput() {
    CliTest.Run r = run("simulate", design("two-lock"), "--workers", "3", "--runs", "2");
    assertThat(r.status()).as(r.describe()).isEqualTo(1);
    assertThat(r.out()).containsPattern("(?m)^3 +OOM at 0\\.000 s \\(gpu_worker#[0-9]\\): ")
        .contains("untimed   synthesize, ntt_msm, b_g2_msm, epilogue");
  }

  @Test
  void badInputIsOneLineAndExitTwo() {
    for (String[] bad : List.of(new String[] {"--workers", "0"}, new String[] {"--workers", "3..2"},
        new String[] {"--time", "nothing=1ms"}, new String[] {"--time", "ntt_msm=fast"},
        new String[] {"--scale", "ntt_msm=-1"}, new String[] {"--role", "nobody"}, new String[] {"--cores", "0"})) {
      CliTest.Run r = run(CliTest.concat(new String[] {"simulate", design("single-lock")}, bad));
      assertThat(r.status()).as(String.join(" ", bad) + ": " + r.describe()).isEqualTo(2);
      assertThat(r.errLines()).as(String.join(" ", bad)).hasSize(1);
      assertThat(r.err()).startsWith("interlock: ").doesNotContain("Exception");
    }
  }
}
