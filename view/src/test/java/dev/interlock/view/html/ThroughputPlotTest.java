package dev.interlock.view.html;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.interlock.model.sim.SimRun;
import dev.interlock.model.sim.Simulation;
import dev.interlock.model.state.ViolationKind;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The throughput page built from simulation summaries: its points' data attributes, unsafe counts, fastest, escaping. */
class ThroughputPlotTest {
  private static final Pattern POINT = Pattern.compile("<g class=\"point ([a-z ]+)\"([^>]*)>");
  private static final Pattern ATTR = Pattern.compile("data-([a-z0-9-]+)=\"([^\"]*)\"");

  /** A summary of {@code workers} with the given throughput, from two runs, compute_mtx held 0.3 s. */
  static Simulation.Point point(int workers, double jobsPerMinute, double ci) {
    SimRun run = new SimRun(1, 60, 1, List.of(1.05), 30, Map.of(), Map.of(), 14L << 30, 14L << 30, Optional.empty());
    return new Simulation.Point(workers, List.of(run, run), jobsPerMinute, ci, 1.05, 1.35, 0.552,
        Map.of("compute_mtx", Optional.of(0.3)), Map.of("compute_mtx", Optional.of(0.0)), 14L << 30, Optional.empty());
  }

  static Simulation.Point stopped(int workers) {
    SimRun.Stop stop = new SimRun.Stop(ViolationKind.OOM, 0.84, "gpu_worker#2", "gpu_worker#2 alloc staged 12GiB: too much");
    SimRun run = new SimRun(1, 0.84, 0, List.of(), 0.3, Map.of(), Map.of(), 12L << 30, 12L << 30, Optional.of(stop));
    return new Simulation.Point(workers, List.of(run), 0, 0, 0, 0, 0.3, Map.of("compute_mtx", Optional.empty()),
        Map.of("compute_mtx", Optional.empty()), 12L << 30, Optional.of(stop));
  }

  /** Each drawn point's classes and data attributes, in page order. */
  static List<Map<String, String>> points(String html) {
    List<Map<String, String>> out = new ArrayList<>();
    Matcher m = POINT.matcher(html);
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

  static ThroughputPlot.Plot compare(String firstName) {
    ThroughputPlot.Series a = new ThroughputPlot.Series(firstName, "designs/a.design", List.of("compute_mtx"), List.of(
        ThroughputPlot.Cell.of(point(1, 57.14, 0)), ThroughputPlot.Cell.of(point(2, 110.34, 1.5)),
        ThroughputPlot.Cell.unsafe(3, "OOM", "check: gpu_worker#1 alloc staged 12GiB: 12GiB live + 12GiB requested > 16GiB"),
        ThroughputPlot.Cell.of(point(4, 185.51, 0))));
    ThroughputPlot.Series b = new ThroughputPlot.Series("late", "designs/b.design", List.of("compute_mtx"), List.of(
        ThroughputPlot.Cell.of(point(1, 57.14, 0)), ThroughputPlot.Cell.of(point(2, 120.0, 0)),
        ThroughputPlot.Cell.of(point(3, 114.74, 0)), ThroughputPlot.Cell.of(point(4, 114.45, 2.65))));
    return new ThroughputPlot.Plot("throughput", List.of("5 runs"), "workers (gpu_worker threads)", List.of(a, b), true);
  }

  @Test
  void everyPointCarriesItsDesignWorkersAndThroughput() {
    List<Map<String, String>> ps = points(ThroughputPlot.render(compare("early")));
    assertThat(ps).hasSize(8);
    assertThat(ps.get(1)).containsEntry("class", "safe").containsEntry("design", "early").containsEntry("workers", "2")
        .containsEntry("verdict", "SAFE").containsEntry("jobs-per-minute", "110.34").containsEntry("ci95", "1.5");
    assertThat(ps.stream().filter(p -> p.get("design").equals("late")).map(p -> p.get("jobs-per-minute")))
        .containsExactly("57.14", "120.0", "114.74", "114.45");
  }

  @Test
  void anUnsafeCountShowsItsVerdictAndNoThroughputAndBreaksTheCurve() {
    String html = ThroughputPlot.render(compare("early"));
    Map<String, String> oom = points(html).get(2);
    assertThat(oom).containsEntry("class", "unsafe").containsEntry("workers", "3").containsEntry("verdict", "OOM")
        .doesNotContainKeys("jobs-per-minute", "ci95");
    assertThat(html).containsPattern("data-workers=\"3\" data-verdict=\"OOM\"><title>early, 3 workers\nOOM: check: "
        + "gpu_worker#1 alloc staged 12GiB: 12GiB live \\+ 12GiB requested &gt; 16GiB\nno throughput: unsafe at this count"
        + "</title>.*<text class=\"verdictlabel\"[^>]*>OOM</text></g>");
    // early's curve: 1-2, then 4 alone (a move, no line through 3); late's: one line through all four
    assertThat(curve(html, "early")).matches("M[0-9. ]+ L[0-9. ]+ M[0-9. ]+");
    assertThat(curve(html, "late")).matches("M[0-9. ]+ L[0-9. ]+ L[0-9. ]+ L[0-9. ]+");
    assertThat(html).contains("<td class=\"bad\">OOM</td>");
  }

  @Test
  void aStoppedSimulatedRunIsUnsafeWithWhereItStopped() {
    ThroughputPlot.Cell c = ThroughputPlot.Cell.of(stopped(3));
    assertThat(c.point()).isEmpty();
    assertThat(c.verdict()).isEqualTo("OOM");
    assertThat(c.detail()).isEqualTo("a simulated run stopped at 0.840 s (gpu_worker#2): gpu_worker#2 alloc staged 12GiB: too much");
    String html = ThroughputPlot.render(new ThroughputPlot.Plot("t", List.of(), "workers", List.of(new ThroughputPlot.Series(
        "two-lock", "two-lock.design", List.of("compute_mtx"), List.of(c))), false));
    assertThat(points(html)).singleElement().satisfies(p -> assertThat(p).containsEntry("verdict", "OOM")
        .doesNotContainKey("jobs-per-minute"));
    assertThat(html).contains("no worker count is safe: no throughput to draw");
    assertThatThrownBy(() -> new ThroughputPlot.Cell(3, "SAFE", "", Optional.empty()))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new ThroughputPlot.Cell(3, "OOM", "", Optional.of(point(3, 1, 0))))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new ThroughputPlot.Cell(3, "SAFE", "", Optional.of(stopped(3))))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void theFastestSafeDesignIsMarkedPerCountWhenAsked() {
    ThroughputPlot.Plot plot = compare("early");
    List<String> fastest = points(ThroughputPlot.render(plot)).stream().filter(p -> "true".equals(p.get("fastest")))
        .map(p -> p.get("design") + "@" + p.get("workers")).toList();
    // a tie at 1 goes to the first given; at 3 only late is safe
    assertThat(fastest).containsExactly("early@1", "early@4", "late@2", "late@3");
    ThroughputPlot.Plot unmarked = new ThroughputPlot.Plot(plot.title(), plot.notes(), plot.xLabel(), plot.series(), false);
    String html = ThroughputPlot.render(unmarked);
    assertThat(html).doesNotContain("data-fastest").doesNotContain("fastest safe");
  }

  @Test
  void theHoverAndTheTableHaveEveryNumber() {
    String html = ThroughputPlot.render(compare("early"));
    assertThat(html).contains("<title>early, 2 workers\njobs/min 110.34 \u00b1 1.50 (95% CI, 2 runs)\n"
        + "latency median 1.050 s, p95 1.350 s\nGPU busy 55.2%\npeak device 14GiB (live and cached)\n"
        + "compute_mtx hold 0.300 s, wait 0.000 s (medians)</title>");
    assertThat(html).contains("<tr data-design=\"late\" data-workers=\"2\" data-verdict=\"SAFE\" class=\"fastest\">")
        .contains("<td class=\"num\">110.34 \u00b1 1.50</td><td class=\"num\">1.050 s</td><td class=\"num\">1.350 s</td>"
            + "<td class=\"num\">55.2%</td><td class=\"num\">14GiB</td><td>compute_mtx 0.300 s / 0.000 s</td>");
  }

  @Test
  void namesAreEscapedEverywhere() {
    String name = "a<b>&\"c\"";
    String html = ThroughputPlot.render(compare(name));
    assertThat(html).doesNotContain(name).contains("data-design=\"a&lt;b&gt;&amp;&quot;c&quot;\"")
        .contains(">a&lt;b&gt;&amp;&quot;c&quot;</text>");
    assertThat(points(html).stream().map(p -> p.get("design")).distinct()).containsExactly("a&lt;b&gt;&amp;&quot;c&quot;",
        "late");
  }

  @Test
  void thePageIsSelfContained() {
    String html = ThroughputPlot.render(compare("early"));
    assertThat(html).doesNotContainPattern("(?i)(src|href)=\"(https?:)?//").doesNotContain("@import").doesNotContain("url(")
        .contains("<svg class=\"plot\"").contains("<table class=\"points\"");
  }

  private static String curve(String html, String design) {
    Matcher m = Pattern.compile("<path class=\"curve\" data-design=\"" + Pattern.quote(design) + "\"[^>]* d=\"([^\"]*)\"")
        .matcher(html);
    assertThat(m.find()).as("curve of %s", design).isTrue();
    return m.group(1);
  }
}
