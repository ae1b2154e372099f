package dev.interlock.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.interlock.model.TestDesigns;
import dev.interlock.view.html.Chromium;
import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The plot of docs/simulate.md ("The plot"), written by the example command printed there and rendered by a real
 * browser: a curve per design, a point per design and worker count, two-lock's OOM counts drawn as marks with their
 * verdict and no throughput.
 */
class ThroughputPlotBrowserTest {
  private static final int W = 1200;
  private static final int H = 1000;
  private static final Pattern POINT = Pattern.compile("<g class=\"point ([a-z ]+)\"([^>]*)>(.*?)</g>", Pattern.DOTALL);
  private static final Pattern ATTR = Pattern.compile("data-([a-z0-9-]+)=\"([^\"]*)\"");

  @TempDir
  static Path dir;

  static CliTest.Run run;
  static String dom;
  static BufferedImage shot;

  /** The example's arguments after {@code ./interlock}: the first command of the section's code, its lines joined. */
  static List<String> example() throws Exception {
    String doc = Files.readString(TestDesigns.root().resolve("docs/simulate.md"));
    int section = doc.indexOf("\n## The plot\n");
    assertThat(section).as("docs/simulate.md has a section 'The plot'").isNotNegative();
    Matcher m = Pattern.compile("\n    \\./interlock ((?:[^\n]*\\\\\n)*[^\n]*)\n").matcher(doc);
    assertThat(m.find(section)).as("an indented ./interlock command in 'The plot'").isTrue();
    List<String> args = new ArrayList<>();
    for (String a : m.group(1).replace("\\\n", " ").trim().split("\\s+")) {
      args.add(a.endsWith(".design") ? TestDesigns.root().resolve(a).toString() : a);
    }
    return args;
  }

  /** Per test, so that a machine without chromium reports each test skipped with the reason; run and rendered once. */
  @BeforeEach
  void render() throws Exception {
    Chromium chromium = Chromium.require(dir);
    if (shot != null) {
      return;
    }
    List<String> args = example();
    int html = args.indexOf("--html");
    assertThat(html).as("the example writes --html: %s", args).isPositive();
    Path page = dir.resolve(args.get(html + 1));
    args.set(html + 1, page.toString());
    run = CliTest.run(args.toArray(String[]::new));
    assertThat(page).as(run.describe()).isRegularFile();
    dom = chromium.dumpDom(page, W, H);
    shot = ImageIO.read(chromium.screenshot(page, W, H, dir.resolve("compare.png")).toFile());
  }

  /** The drawn points in the rendered DOM: class, data attributes, and their inner markup under {@code inner}. */
  static List<Map<String, String>> points() {
    List<Map<String, String>> out = new ArrayList<>();
    Matcher m = POINT.matcher(dom);
    while (m.find()) {
      Map<String, String> a = new LinkedHashMap<>();
      a.put("class", m.group(1));
      Matcher d = ATTR.matcher(m.group(2));
      while (d.find()) {
        a.put(d.group(1), d.group(2));
      }
      a.put("inner", m.group(3));
      out.add(a);
    }
    return out;
  }

  static int[] rgb(Map<String, String> p) {
    assertThat(p).as("the page's script placed the point (data-px, data-py)").containsKeys("px", "py");
    int c = shot.getRGB((int) Math.round(Double.parseDouble(p.get("px"))), (int) Math.round(Double.parseDouble(p.get("py"))));
    return new int[] {(c >> 16) & 0xff, (c >> 8) & 0xff, c & 0xff};
  }

  @Test
  void theExampleRunsAndNamesTheFastestSafeDesign() {
    assertThat(run.status()).as(run.describe()).isZero();
    assertThat(run.out()).containsPattern("(?m)^2 .* OOM  single-lock$");
    assertThat(dom).containsPattern("<body[^>]*data-plotted=\"true\"");
  }

  @Test
  void theSvgHasOneCurvePerDesign() {
    Matcher m = Pattern.compile("<path class=\"curve\" data-design=\"([^\"]+)\"").matcher(dom);
    List<String> curves = new ArrayList<>();
    while (m.find()) {
      curves.add(m.group(1));
    }
    assertThat(curves).containsExactly("single-lock", "single-lock-late-release", "two-lock");
    assertThat(dom).containsPattern("<g class=\"entry\" data-design=\"two-lock\">");
  }

  @Test
  void everyDesignHasAPointPerWorkerCount() {
    List<Map<String, String>> ps = points();
    assertThat(ps).extracting(p -> p.get("design") + "@" + p.get("workers") + " " + p.get("verdict")).containsExactly(
        "single-lock@1 SAFE", "single-lock@2 SAFE", "single-lock@3 SAFE", "single-lock@4 SAFE",
        "single-lock-late-release@1 SAFE", "single-lock-late-release@2 SAFE", "single-lock-late-release@3 SAFE",
        "single-lock-late-release@4 SAFE", "two-lock@1 SAFE", "two-lock@2 OOM", "two-lock@3 OOM", "two-lock@4 OOM");
    // single-lock's throughput grows with workers, and is drawn higher for each (its blue dot at its place)
    double lastRate = 0;
    double lastY = Double.MAX_VALUE;
    for (Map<String, String> p : ps.subList(0, 4)) {
      double rate = Double.parseDouble(p.get("jobs-per-minute"));
      double y = Double.parseDouble(p.get("py"));
      assertThat(rate).isGreaterThan(lastRate);
      assertThat(y).isLessThan(lastY);
      int[] c = rgb(p);
      assertThat(c[2]).as("blue at %s", p).isGreaterThan(140);
      assertThat(c[0]).as("blue at %s", p).isLessThan(60);
      lastRate = rate;
      lastY = y;
    }
    assertThat(ps.get(0)).containsEntry("fastest", "true");
  }

  @Test
  void anUnsafeCountShowsItsVerdictAndNoThroughput() {
    List<Map<String, String>> unsafe = points().stream().filter(p -> p.get("class").equals("unsafe")).toList();
    assertThat(unsafe).hasSize(3);
    for (Map<String, String> p : unsafe) {
      assertThat(p).containsEntry("design", "two-lock").containsEntry("verdict", "OOM").doesNotContainKey("jobs-per-minute");
      assertThat(p.get("inner")).contains("OOM: check: gpu_worker#1 alloc staged 12GiB")
          .containsPattern("<text class=\"verdictlabel\"[^>]*>OOM</text>$");
      int[] c = rgb(p);
      assertThat(c[0] > 180 && c[1] < 60 && c[2] < 60).as("the red cross at %s: rgb %d,%d,%d", p.get("workers"), c[0], c[1],
          c[2]).isTrue();
    }
  }
}
