package dev.interlock.cli;

import static dev.interlock.cli.CliTest.design;
import static dev.interlock.cli.CliTest.parseJson;
import static dev.interlock.cli.CliTest.run;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.nio.file.Files;
import java.nio.file.Path;
import dev.interlock.model.sim.DurationsFile;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code interlock simulate} end to end: the sweep's table, JSON and HTML plot, a stopped run, bad input. */
class SimulateCommandTest {
  private static final String[] TIMES = {"--time", "synthesize=500ms", "--time", "ntt_msm=300ms", "--time",
      "b_g2_msm=200ms", "--time", "epilogue=50ms"};
  private static final Pattern POINT = Pattern.compile("<g class=\"point ([a-z ]+)\"([^>]*)>");
  private static final Pattern ATTR = Pattern.compile("data-([a-z0-9-]+)=\"([^\"]*)\"");

  @TempDir
  Path tmp;

  /** The drawn points of a written plot: each one's class ({@code safe}, {@code unsafe}, ...) and data attributes. */
  static List<Map<String, String>> plotted(Path html) throws Exception {
    List<Map<String, String>> out = new ArrayList<>();
    Matcher m = POINT.matcher(Files.readString(html));
    while (m.find()) {
      Map<String, String> a = new LinkedHashMap<>();
      a.put("class", m.group(1));
      Matcher d = ATTR.matcher(m.group(2));
      while (d.find()) {
        a.put(d.group(1), d.group(2));
      }
      out.add(a);
    }
    return out;
  }

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
    CliTest.Run r = run("simulate", design("two-lock"), "--workers", "3", "--runs", "2", "--time", "synthesize=100ms",
        "--time", "ntt_msm=1s");
    assertThat(r.status()).as(r.describe()).isEqualTo(1);
    assertThat(r.out()).containsPattern("(?m)^3 +OOM at 0\\.100 s \\(gpu_worker#[0-9]\\): ")
        .contains("untimed   b_g2_msm, epilogue");
  }

  @Test
  void aRunsDurationsFilePredictsTheDesignAndAnother(@TempDir Path dir) throws Exception {
    // one worker of a timed design, run on the engine: its durations file, then the shipped design at 1..3 from it
    Path timed = dir.resolve("timed.design");
    Files.writeString(timed, """
        design timed
        vram 16GiB
        mutex compute_mtx
        role gpu_worker x1 jobs 3
          cpu synthesize for 40ms
          lock compute_mtx
          alloc staged 12GiB
          kernel ntt_msm uses staged for 20ms
          free staged
          unlock compute_mtx
          cpu b_g2_msm for 10ms
        """);
    Path file = dir.resolve("durations.txt");
    CliTest.Run ran = run("run", timed.toString(), "--durations", "--durations-out", file.toString());
    assertThat(ran.status()).as(ran.describe()).isZero();
    String text = Files.readString(file);
    assertThat(text).startsWith("# interlock durations").contains("# from: interlock run " + timed);
    List<DurationsFile.Measured> measured = DurationsFile.parse(file.toString(), text);
    assertThat(measured).extracting(DurationsFile.Measured::name).containsExactly("synthesize", "ntt_msm", "b_g2_msm");
    assertThat(measured.get(0).seconds()).hasSize(3).allSatisfy(x -> assertThat(x).isBetween(0.040, 0.5));
    assertThat(measured.get(1).seconds()).hasSize(3).allSatisfy(x -> assertThat(x).isBetween(0.020, 0.5));
    CliTest.Run again = run("run", timed.toString(), "--durations-out", file.toString());
    assertThat(again.status()).as("an existing file is kept without --force").isEqualTo(2);
    assertThat(Files.readString(file)).isEqualTo(text);

    CliTest.Run sim = run("simulate", design("single-lock"), "--workers", "1..3", "--durations", file.toString(), "--runs", "2");
    assertThat(sim.status()).as(sim.describe()).isZero();
    assertThat(sim.out()).contains("durations " + file + "\n", "untimed   epilogue").containsPattern("cores     synthesize [0-9.]+");
    // one worker alone makes a job per the sum of the measured means (epilogue is untimed)
    double perJob = measured.stream().mapToDouble(m -> m.timing().mean()).sum();
    CliTest.Run json = run("simulate", design("single-lock"), "--workers", "1", "--durations", file.toString(), "--runs", "1",
        "--json");
    @SuppressWarnings("unchecked")
    Map<String, Object> point = ((List<Map<String, Object>>) ((Map<String, Object>) parseJson(json.out())).get("points")).get(0);
    assertThat(((Number) point.get("jobs_per_minute")).doubleValue()).isCloseTo(60 / perJob, within(60 / perJob * 0.15));

    Path other = dir.resolve("other.txt");
    Files.writeString(other, "h2d kernel - 0.5\nsynthesize cpu 2 0.04\n");
    CliTest.Run partial = run("simulate", design("single-lock"), "--durations", other.toString());
    assertThat(partial.out()).contains("(not in this design, left out: h2d)");
  }

  @Test
  void aBadDurationsFileIsNamedByLine(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("bad.txt");
    Files.writeString(file, "# header\nsynthesize cpu 1 fast\n");
    CliTest.Run r = run("simulate", design("single-lock"), "--durations", file.toString());
    assertThat(r.status()).isEqualTo(2);
    assertThat(r.err()).isEqualTo("interlock: " + file + ":2: a time is a number of seconds, at least 0, got 'fast'\n");
    CliTest.Run missing = run("simulate", design("single-lock"), "--durations", dir.resolve("none.txt").toString());
    assertThat(missing.status()).isEqualTo(2);
    assertThat(missing.err()).startsWith("interlock: --durations " + dir.resolve("none.txt") + ": cannot read it");
  }

  @Test
  void badInputIsOneLineAndExitTwo() {
    for (String[] bad : List.of(new String[] {"--workers", "0"}, new String[] {"--workers", "3..2"},
        new String[] {"--time", "nothing=1ms"}, new String[] {"--time", "ntt_msm=fast"},
        new String[] {"--scale", "ntt_msm=-1"}, new String[] {"--role", "nobody"}, new String[] {"--cores", "0"},
        new String[] {"--step-cores", "nothing=2"}, new String[] {"--step-cores", "synthesize=0"})) {
      CliTest.Run r = run(CliTest.concat(new String[] {"simulate", design("single-lock")}, bad));
      assertThat(r.status()).as(String.join(" ", bad) + ": " + r.describe()).isEqualTo(2);
      assertThat(r.errLines()).as(String.join(" ", bad)).hasSize(1);
      assertThat(r.err()).startsWith("interlock: ").doesNotContain("Exception");
    }
  }

  @Test
  @SuppressWarnings("unchecked")
  void theHtmlPlotHasTheJsonsPoints() throws Exception {
    Path html = tmp.resolve("plot.html");
    CliTest.Run r = run(CliTest.concat(new String[] {"simulate", design("single-lock"), "--workers", "1..3", "--runs", "2",
        "--json", "--html", html.toString()}, TIMES));
    assertThat(r.status()).as(r.describe()).isZero();
    List<Map<String, Object>> points = (List<Map<String, Object>>) ((Map<String, Object>) parseJson(r.out())).get("points");
    List<Map<String, String>> drawn = plotted(html);
    assertThat(drawn).hasSize(3);
    for (int i = 0; i < 3; i++) {
      assertThat(drawn.get(i)).containsEntry("class", "safe").containsEntry("design", "single-lock")
          .containsEntry("workers", String.valueOf(i + 1)).doesNotContainKey("fastest");
      assertThat(Double.parseDouble(drawn.get(i).get("jobs-per-minute")))
          .isEqualTo(((Number) points.get(i).get("jobs_per_minute")).doubleValue());
      assertThat(Double.parseDouble(drawn.get(i).get("ci95")))
          .isEqualTo(((Number) points.get(i).get("jobs_per_minute_ci95")).doubleValue());
    }
    assertThat(Files.readString(html)).contains("<h1>throughput: single-lock</h1>")
        .contains("<p class=\"sub\">plan: gpu_worker x 1..3, 8 jobs per thread, 2 runs each, seeds 1..2</p>");
  }

  @Test
  void aStoppedRunIsDrawnWithItsVerdictAndNoThroughput() throws Exception {
    Path html = tmp.resolve("two-lock.html");
    CliTest.Run r = run(CliTest.concat(new String[] {"simulate", design("two-lock"), "--workers", "1..3", "--runs", "2",
        "--html", html.toString()}, TIMES));
    assertThat(r.status()).as(r.describe()).isEqualTo(1);
    List<Map<String, String>> drawn = plotted(html);
    assertThat(drawn).extracting(p -> p.get("class") + " " + p.get("workers") + " " + p.get("verdict"))
        .containsExactly("safe 1 SAFE", "unsafe 2 OOM", "unsafe 3 OOM");
    assertThat(drawn.get(1)).doesNotContainKey("jobs-per-minute");
    assertThat(Files.readString(html)).containsPattern("<path class=\"curve\" data-design=\"two-lock\"[^>]* d=\"M[0-9. ]+\"/>")
        .contains("OOM: a simulated run stopped at 0.500 s (gpu_worker#1): gpu_worker#1 alloc staged 12GiB");
  }

  @Test
  void theHtmlRefusesAnExistingFileBeforeTheRunsUnlessForced() throws Exception {
    Path html = tmp.resolve("kept.html");
    Files.writeString(html, "mine");
    String[] args = CliTest.concat(new String[] {"simulate", design("single-lock"), "--workers", "1..2", "--runs", "1",
        "--html", html.toString()}, TIMES);
    CliTest.Run r = run(args);
    assertThat(r.status()).as(r.describe()).isEqualTo(2);
    assertThat(r.out()).as("nothing simulated").isEmpty();
    assertThat(r.err()).isEqualTo("interlock: " + html + ": exists; not overwritten (pass --force to replace it)\n");
    assertThat(Files.readString(html)).isEqualTo("mine");
    CliTest.Run forced = run(CliTest.concat(args, "--force"));
    assertThat(forced.status()).as(forced.describe()).isZero();
    assertThat(Files.readString(html)).startsWith("<!DOCTYPE html>");
    assertThat(plotted(html)).hasSize(2);
  }

  @Test
  void anHtmlPathThatCannotBeWrittenIsBadInputNamingIt() throws Exception {
    Path html = tmp.resolve("a-directory.html"); // not empty: even --force cannot replace it
    Files.createDirectories(html);
    Files.writeString(html.resolve("inside"), "x");
    CliTest.Run r = run(CliTest.concat(new String[] {"simulate", design("single-lock"), "--workers", "1", "--runs", "1",
        "--html", html.toString(), "--force"}, TIMES));
    assertThat(r.status()).as(r.describe()).isEqualTo(2);
    assertThat(r.errLines()).singleElement().asString().startsWith("interlock: " + html + ": cannot write HTML plot: ");
  }
}
