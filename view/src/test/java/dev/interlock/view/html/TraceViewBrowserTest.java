package dev.interlock.view.html;

import static org.assertj.core.api.Assertions.assertThat;

import java.awt.image.BufferedImage;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The two-lock counterexample rendered by a real browser: the violation marker at transition 9's column, the failed
 * request crossing the vram line there, and the verdict line in the DOM.
 */
class TraceViewBrowserTest {
  private static final int W = 1400;
  private static final int H = 1000;

  @TempDir
  static Path dir;

  static Chromium chromium;
  static Path page;
  static String dom;
  static BufferedImage shot;

  /** Per test, so that a machine without chromium reports each test skipped with the reason; rendered once. */
  @BeforeEach
  void render() throws Exception {
    chromium = Chromium.require(dir);
    if (shot != null) {
      return;
    }
    page = dir.resolve("two-lock.html");
    Files.writeString(page, HtmlPage.render("two-lock", List.of(TraceViewsTest.twoLock())), StandardCharsets.UTF_8);
    dom = chromium.dumpDom(page, W, H);
    shot = ImageIO.read(chromium.screenshot(page, W, H, dir.resolve("two-lock.png")).toFile());
  }

  static double attr(String name) {
    Matcher m = Pattern.compile("<svg[^>]*id=\"svg-0\"[^>]*\\s" + name + "=\"([0-9.]+)\"").matcher(dom);
    assertThat(m.find()).as("attribute %s on the drawn svg (did the script run?)", name).isTrue();
    return Double.parseDouble(m.group(1));
  }

  /** The x of a column's center in page pixels. */
  static double column(int i) {
    return attr("data-col-left") + (i - 0.5) * attr("data-col-width");
  }

  static boolean red(int x, int y) {
    int rgb = shot.getRGB(x, y);
    int r = (rgb >> 16) & 0xff;
    int g = (rgb >> 8) & 0xff;
    return r > 180 && g < 50;
  }

  static boolean dark(int x, int y) {
    int rgb = shot.getRGB(x, y);
    return ((rgb >> 16) & 0xff) < 80 && ((rgb >> 8) & 0xff) < 80 && (rgb & 0xff) < 80;
  }

  @Test
  void theDomHasTheVerdictLine() {
    Matcher m = Pattern.compile("<p class=\"verdict bad\" id=\"verdict-0\">([^<]*)</p>").matcher(dom);
    assertThat(m.find()).isTrue();
    assertThat(m.group(1)).isEqualTo("OOM at transition 9: gpu_worker#1 alloc staged 12GiB: 12GiB live + 12GiB requested "
        + "&gt; 16GiB vram (live: gpu_worker#0.staged=12GiB)");
    assertThat(dom).contains("requested 12GiB · live 12GiB · free 4GiB · vram 16GiB");
    assertThat(dom).containsPattern("<body[^>]*data-rendered-ms=\"[0-9.]+\"");
  }

  @Test
  void theViolationMarkerIsAtTransitionNinesColumn() {
    double x = attr("data-marker-x");
    assertThat(x).isCloseTo(column(9), org.assertj.core.data.Offset.offset(0.6));
    int y = (int) Math.round(attr("data-marker-y"));
    assertThat(red((int) Math.round(x), y)).as("marker pixels at column 9").isTrue();
    for (int c = 1; c <= 8; c++) {
      assertThat(red((int) Math.round(column(c)), y)).as("no marker at column %d", c).isFalse();
    }
  }

  @Test
  void theFailedRequestCrossesTheVramLineThere() {
    int x = (int) Math.round(column(9));
    int vram = (int) Math.round(attr("data-vram-y"));
    double top = attr("data-request-top");
    double bottom = attr("data-request-bottom");
    assertThat(top).isLessThan(vram - 5);
    assertThat(bottom).isGreaterThan(vram + 5);
    assertThat(red(x, vram - 4)).as("request above the vram line").isTrue();
    assertThat(red(x, vram + 4)).as("request below the vram line").isTrue();
    assertThat(red(x, (int) Math.round(top) - 3)).as("nothing above the request").isFalse();
    // the vram line itself is drawn across the other columns, and nothing red crosses it there
    int c3 = (int) Math.round(column(3));
    boolean line = false;
    for (int dx = -4; dx <= 4; dx++) {
      line |= dark(c3 + dx, vram);
    }
    assertThat(line).as("vram line at column 3").isTrue();
    assertThat(red(c3, vram - 4)).isFalse();
  }

  @Test
  void eachMarksClassIsItsStepsCategory() {
    // cpu synthesize (begin), lock mem_mtx, alloc staged: drawn by category, which the model's step type decided
    assertThat(dom).contains("class=\"mk mk-interval\" data-k=\"0\"").contains("class=\"mk mk-lock\" data-k=\"2\"")
        .contains("class=\"mk mk-memory\" data-k=\"3\"").contains("class=\"mk mk-failed\" data-k=\"8\"");
  }
}
