package dev.interlock.cli;

import static dev.interlock.cli.CliTest.design;
import static dev.interlock.cli.CliTest.parseJson;
import static dev.interlock.cli.CliTest.run;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code interlock compare}: verdicts beside predicted throughput, and the fastest safe design per worker count. */
class CompareCommandTest {
  private static final String[] TIMES = {"--time", "synthesize=500ms", "--time", "ntt_msm=300ms", "--time",
      "b_g2_msm=200ms", "--time", "epilogue=50ms", "--runs", "2"};

  @TempDir
  Path tmp;

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

  @Test
  void aCopyAppliesToTheDesignsWithAKernelOfThatNameEvenWhereAnotherHasACpuStepOfIt() throws Exception {
    Path kernel = tmp.resolve("kernel.design");
    Files.writeString(kernel, """
        design as-kernel
        vram 16GiB
        mutex m
        role gpu_worker x1 jobs 2
          lock m
          alloc b 1GiB
          kernel stage uses b
          free b
          unlock m
        """);
    Path cpu = tmp.resolve("cpu.design");
    Files.writeString(cpu, """
        design as-cpu
        vram 16GiB
        role gpu_worker x1 jobs 2
          cpu stage for 10ms
        """);
    CliTest.Run r = run("compare", kernel.toString(), cpu.toString(), "--workers", "1", "--runs", "1", "--copy",
        "stage=1GiB/s", "--json");
    assertThat(r.status()).as(r.describe()).isZero();
    CliTest.Run none = run("compare", cpu.toString(), "--workers", "1", "--copy", "stage=1GiB/s");
    assertThat(none.status()).isEqualTo(2);
    assertThat(none.err()).isEqualTo("interlock: --copy stage: no design has a kernel step of that name\n");
  }

  @Test
  @SuppressWarnings("unchecked")
  void theHtmlPlotHasEachDesignsCellsAndTheFastestSafeMarked() throws Exception {
    Path html = tmp.resolve("compare.html");
    CliTest.Run r = run(CliTest.concat(new String[] {"compare", design("single-lock"), design("two-lock"), "--workers",
        "1..3", "--json", "--html", html.toString()}, TIMES));
    assertThat(r.status()).as(r.describe()).isZero();
    List<Map<String, Object>> rows = (List<Map<String, Object>>) ((Map<String, Object>) parseJson(r.out())).get("rows");
    List<Map<String, String>> drawn = SimulateCommandTest.plotted(html);
    assertThat(drawn).extracting(p -> p.get("design") + "@" + p.get("workers") + " " + p.get("verdict"))
        .containsExactly("single-lock@1 SAFE", "single-lock@2 SAFE", "single-lock@3 SAFE", "two-lock@1 SAFE",
            "two-lock@2 OOM", "two-lock@3 OOM");
    for (int n = 1; n <= 3; n++) {
      Map<String, Object> cell = ((List<Map<String, Object>>) rows.get(n - 1).get("designs")).get(0);
      assertThat(Double.parseDouble(drawn.get(n - 1).get("jobs-per-minute")))
          .isEqualTo(((Number) cell.get("jobs_per_minute")).doubleValue());
      assertThat(drawn.get(n - 1)).as("single-lock is the fastest safe design at %d", n).containsEntry("fastest", "true");
    }
    assertThat(drawn.get(4)).containsEntry("class", "unsafe").doesNotContainKeys("jobs-per-minute", "fastest");
    assertThat(Files.readString(html)).contains("OOM: check: gpu_worker#1 alloc staged 12GiB: 12GiB live + 12GiB requested"
        + " &gt; 16GiB vram").containsPattern("<path class=\"curve\" data-design=\"two-lock\"[^>]* d=\"M[0-9. ]+\"/>");
  }

  @Test
  void theHtmlRefusesAnExistingFileBeforeCheckingUnlessForced() throws Exception {
    Path html = tmp.resolve("kept.html");
    Files.writeString(html, "mine");
    String[] args = {"compare", design("two-lock"), "--workers", "2", "--runs", "1", "--html", html.toString()};
    CliTest.Run r = run(args);
    assertThat(r.status()).as(r.describe()).isEqualTo(2);
    assertThat(r.out()).isEmpty();
    assertThat(r.err()).isEqualTo("interlock: " + html + ": exists; not overwritten (pass --force to replace it)\n");
    assertThat(Files.readString(html)).isEqualTo("mine");
    CliTest.Run forced = run(CliTest.concat(args, "--force"));
    assertThat(forced.status()).as(forced.describe()).isEqualTo(1);
    assertThat(Files.readString(html)).contains("no design is safe at 2 workers");
  }
}
