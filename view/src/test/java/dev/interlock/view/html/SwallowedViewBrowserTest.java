package dev.interlock.view.html;

import static org.assertj.core.api.Assertions.assertThat;

import dev.interlock.model.TestDesigns;
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
 * cuzk phase 9's swallowed failure rendered by a real browser: the failed allocation striped at transition 14, the
 * H-MSM kernel that ran without h_temp striped red in its lane at 15, the legend and the line that name them.
 */
class SwallowedViewBrowserTest {
  private static final int W = 1400;
  private static final int H = 800;

  @TempDir
  static Path dir;

  static Chromium chromium;
  static String dom;
  static BufferedImage shot;

  @BeforeEach
  void render() throws Exception {
    chromium = Chromium.require(dir);
    if (shot != null) {
      return;
    }
    Path page = dir.resolve("phase9.html");
    TraceView v = TraceViews.ofTrace("counterexample", TraceViewsTest.trace("cuzk-phase9.swallowed.trace"),
        TestDesigns.shipped("cuzk/phase9"));
    Files.writeString(page, HtmlPage.render("phase9", List.of(v)), StandardCharsets.UTF_8);
    dom = chromium.dumpDom(page, W, H);
    shot = ImageIO.read(chromium.screenshot(page, W, H, dir.resolve("phase9.png")).toFile());
  }

  static double attr(String name) {
    Matcher m = Pattern.compile("<svg[^>]*id=\"svg-0\"[^>]*\\s" + name + "=\"([0-9.]+)\"").matcher(dom);
    assertThat(m.find()).as("attribute %s on the drawn svg (did the script run?)", name).isTrue();
    return Double.parseDouble(m.group(1));
  }

  static double column(int i) {
    return attr("data-col-left") + (i - 0.5) * attr("data-col-width");
  }

  /** Whether column c's first lane (just under the violation marker) has stripe-red pixels. */
  static boolean redInFirstLane(int c) {
    int x = (int) Math.round(column(c));
    int y0 = (int) Math.round(attr("data-marker-y"));
    for (int y = y0 + 4; y < y0 + 26; y++) {
      for (int dx = -3; dx <= 3; dx++) {
        int rgb = shot.getRGB(x + dx, y);
        if (((rgb >> 16) & 0xff) > 180 && ((rgb >> 8) & 0xff) < 50 && (rgb & 0xff) < 50) {
          return true;
        }
      }
    }
    return false;
  }

  @Test
  void theIgnoredFailureAndTheKernelWithoutItsBufferAreMarked() {
    assertThat(dom).contains("class=\"mk mk-oom-ignored mk-failed-oom\" data-k=\"13\"")
        .contains("class=\"box-kernel box-without\"").contains("class=\"stripes\"")
        .contains("after the violation: the job goes on without h_temp")
        .contains("failed allocation, on oom ignore").contains("kernel ran without a buffer");
    assertThat(dom).containsOnlyOnce("class=\"box-kernel box-without\""); // the H MSM alone: the tails' d_temps fit
    assertThat(dom).contains("<p class=\"without\" id=\"without-0\">on oom ignore: the job goes on without h_temp; these "
        + "steps run without it: gpu_worker#0: kernel ntt_msm uses d_a h_buckets h_temp (#15, marked in their lanes)</p>");
  }

  @Test
  void theStripesAreWhereTheFailureAndTheKernelAre() {
    assertThat(redInFirstLane(14)).as("the failed allocation at 14").isTrue();
    assertThat(redInFirstLane(15)).as("the kernel that ran without h_temp at 15").isTrue();
    assertThat(redInFirstLane(12)).as("alloc h_buckets at 12").isFalse();
    assertThat(redInFirstLane(28)).as("a batch addition that had its buffer, at 28").isFalse();
  }
}
