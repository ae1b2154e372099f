package dev.interlock.cli;

import static dev.interlock.cli.CliTest.design;
import static dev.interlock.cli.CliTest.parseJson;
import static dev.interlock.cli.CliTest.run;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code interlock compare}: verdicts beside predicted throughput, and the fastest safe design per worker count. */
class CompareCommandTest {
  private static final String[] TIMES = {"--time", "synthesize=500ms", "--time", "ntt_msm=300ms", "--time",
      "b_g2_msm=200ms", "--time", "epilogue=50ms", "--runs", "2"};

  @Test
  @SuppressWarnings("unchecked")
  void anUnsafeDesignShowsItsVerdictAndTheFastestSafeDesignIsNamed() {
    CliTest.Run r = run(CliTest.concat(new String[] {"compare", design("single-lock"), design("two-lock"), "--workers",
        "1..3", "--json"}, TIMES));
    assertThat(r.status()).as(r.describe()).isZero();
    Map<String, Object> m = (Map<String, Object>) parseJson(r.out());
    List<Map<String, Object>> rows = (List<Map<String, Object>>) m.get("rows");
    assertThat(rows).hasSize(3);
    List<Map<String, Object>> two = (List<Map<String, Object>>) rows.get(1).get("designs");
    assertThat(two.get(0)).containsEntry("verdict", "SAFE");
    assertThat(((Number) two.get(0).get("jobs_per_minute")).doubleValue()).isPositive();
    assertThat(two.get(1)).containsEntry("verdict", "OOM").containsEntry("jobs_per_minute", null);
    assertThat(rows.get(1)).containsEntry("fastest_safe", "single-lock");
    CliTest.Run text = run(CliTest.concat(new String[] {"compare", design("single-lock"), design("two-lock"), "--workers",
        "2"}, TIMES));
    assertThat(text.out()).containsPattern("(?m)^2 +[0-9.]+ \\+- [0-9.]+ +OOM  single-lock$");
  }

  @Test
  void noSafeDesignAtSomeCountExitsOneAndUnknownTimesAreBadInput() {
    CliTest.Run r = run("compare", design("two-lock"), "--workers", "2", "--runs", "1");
    assertThat(r.status()).as(r.describe()).isEqualTo(1);
    assertThat(r.out()).containsPattern("(?m)^2 +OOM  none$");
    CliTest.Run bad = run("compare", design("two-lock"), "--time", "nothing=1ms");
    assertThat(bad.status()).isEqualTo(2);
    assertThat(bad.err()).isEqualTo("interlock: --time nothing: no design has a cpu or kernel step of that name\n");
  }
}
