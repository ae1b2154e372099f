package dev.interlock.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.interlock.impl.device.SimulatedDevice;
import dev.interlock.impl.engine.Engine;
import dev.interlock.impl.engine.RunReport;
import dev.interlock.impl.pipeline.InterpretedPipeline;
import dev.interlock.impl.sync.StepGate;
import dev.interlock.model.design.Design;
import dev.interlock.model.design.DesignParser;
import dev.interlock.observe.CaptureWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code interlock validate} and {@code infer} end to end on a capture written from an engine run. */
class ObserveCommandsTest {
  @TempDir
  Path tmp;

  private Path capture(String designFile) throws Exception {
    Design d = DesignParser.parse(Path.of(designFile));
    RunReport r = new Engine(new SimulatedDevice(d.vram()), StepGate.FREE).run(d, designFile, InterpretedPipeline::new);
    Path c = tmp.resolve("run.capture");
    Files.writeString(c, CaptureWriter.text(CaptureWriter.records(d, r.events(), false)));
    return c;
  }

  @Test
  void validateConformsInferWritesADesignThatChecksSafe() throws Exception {
    Path c = capture("designs/single-lock.design");
    CliTest.Run v = CliTest.run("validate", "designs/single-lock.design", c.toString());
    assertThat(v.status()).as(v.describe()).isEqualTo(0);
    assertThat(v.out()).startsWith("CONFORMS: ");
    Path out = tmp.resolve("inferred.design");
    CliTest.Run i = CliTest.run("infer", c.toString(), "-o", out.toString());
    assertThat(i.status()).as(i.describe()).isEqualTo(0);
    CliTest.Run again = CliTest.run("infer", c.toString(), "-o", out.toString());
    assertThat(again.status()).isEqualTo(2);
    assertThat(again.err()).contains(": exists; not overwritten (pass --force to replace it)");
    CliTest.Run check = CliTest.run("check", out.toString());
    assertThat(check.status()).as(check.describe()).isEqualTo(0);
    CliTest.Run self = CliTest.run("validate", out.toString(), c.toString());
    assertThat(self.status()).as(self.describe()).isEqualTo(0);
  }

  /**
   * bug-every-N's H200 capture: infer warns on standard error, with the capture line, where the jobs part with nothing
   * to decide (choose), and the design conforms to the run up to its real OOM.
   */
  @Test
  void inferWarnsWithCaptureLinesWhereJobsPartAndTheDesignConforms() throws Exception {
    Path map = tmp.resolve("main.map");
    Files.writeString(map, "ignore thread main\n");
    String bug = "observe/src/test/resources/h200/bug.capture";
    Path out = tmp.resolve("bug.design");
    CliTest.Run i = CliTest.run("infer", bug, "--map", map.toString(), "--vram", "16GiB", "-o", out.toString());
    assertThat(i.status()).as(i.describe()).isEqualTo(0);
    assertThat(i.err()).contains("warning: jobs part at " + bug + ":").contains("choose/or");
    assertThat(Files.readString(out)).contains("\n  choose  #");
    CliTest.Run v = CliTest.run("validate", out.toString(), bug, "--map", map.toString());
    assertThat(v.status()).as(v.describe()).isEqualTo(0);
    assertThat(v.out()).startsWith("CONFORMS: ").contains("the run ran out of memory at line 411");
  }

  @Test
  void cuzkPhase9sRunWithA20GiBBudgetConformsAt20GiBAndNotAt16() throws Exception {
    String capture = "observe/src/test/resources/cuzk/phase9-20gib.capture";
    CliTest.Run at20 = CliTest.run("validate", "designs/cuzk/phase9.design", capture, "--map", "engines/cuzk/cuzk.map",
        "--vram", "20GiB");
    assertThat(at20.status()).as(at20.describe()).isEqualTo(0);
    assertThat(at20.out()).startsWith("CONFORMS: 43 events on 1 threads").doesNotContain("ran out of memory");
    CliTest.Run at16 = CliTest.run("validate", "designs/cuzk/phase9.design", capture, "--map", "engines/cuzk/cuzk.map");
    assertThat(at16.status()).as(at16.describe()).isEqualTo(1);
    assertThat(at16.out()).contains("succeeded, but the design runs out of memory at 'alloc h_temp 4544MiB async'");
    CliTest.Run bad = CliTest.run("validate", "designs/cuzk/phase9.design", capture, "--vram", "twenty");
    assertThat(bad.status()).isEqualTo(2);
    assertThat(bad.err()).contains("--vram");
  }

  @Test
  void aRunOfAnotherDesignDiverges() throws Exception {
    Path c = capture("designs/two-lock.design");
    CliTest.Run v = CliTest.run("validate", "designs/single-lock.design", c.toString());
    assertThat(v.status()).as(v.describe()).isEqualTo(1);
    assertThat(v.out()).startsWith("DIVERGES: thread ").contains("run.capture:").contains("designs/single-lock.design:");
  }

  @Test
  void validateHtmlOfARealOomRunShowsTheModelTraceEndingInOom() throws Exception {
    String capture = "observe/src/test/resources/h200/two-lock-1.capture";
    Path map = tmp.resolve("main.map");
    Files.writeString(map, "ignore thread main\n");
    Path html = tmp.resolve("v.html");
    CliTest.Run v = CliTest.run("validate", "designs/two-lock.design", capture, "--map", map.toString(), "--html", html.toString());
    assertThat(v.status()).as(v.describe()).isEqualTo(0);
    int matched = Integer.parseInt(v.out().replaceFirst("(?s)^CONFORMS: (\\d+) events.*", "$1"));
    assertThat(v.out()).contains("html written to " + html + " (" + matched + " transitions)");
    assertThat(verdictLine(Files.readString(html))).startsWith("OOM at transition " + matched + ": ");
    Files.writeString(html, "keep");
    CliTest.Run again = CliTest.run("validate", "designs/two-lock.design", "no-such.capture", "--html", html.toString());
    assertThat(again.status()).isEqualTo(2);
    assertThat(again.err()).contains(html + ": exists").doesNotContain("no-such.capture");
    assertThat(Files.readString(html)).isEqualTo("keep");
  }

  @Test
  void validateHtmlOfADivergingRunShowsTheConformingPrefixAndTheVerdict() throws Exception {
    Path c = capture("designs/two-lock.design");
    Path html = tmp.resolve("d.html");
    CliTest.Run v = CliTest.run("validate", "designs/single-lock.design", c.toString(), "--html", html.toString());
    assertThat(v.status()).as(v.describe()).isEqualTo(1);
    String message = v.out().lines().findFirst().orElseThrow().substring("DIVERGES: ".length());
    String line = verdictLine(Files.readString(html));
    assertThat(line).startsWith("STOPPED after transition ").endsWith(": DIVERGES: " + message.replace("&", "&amp;")
        .replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;"));
  }

  /** The first view's verdict line, as written in the page (HTML-escaped). */
  private static String verdictLine(String page) {
    int at = page.indexOf("id=\"verdict-0\">");
    assertThat(at).as("verdict line").isPositive();
    return page.substring(page.indexOf('>', at) + 1, page.indexOf("</p>", at));
  }

  @Test
  void badCaptureAndMapLinesArePositionedExit2() throws Exception {
    Path c = tmp.resolve("bad.capture");
    Files.writeString(c, "# interlock capture v1\n# pid=1 program=x clock=CLOCK_MONOTONIC start_ns=0\n5 7 alloc ptr=0x1 bytes=12x async=0 stream=- rc=0 api=a\n");
    CliTest.Run v = CliTest.run("validate", "designs/single-lock.design", c.toString());
    assertThat(v.status()).isEqualTo(2);
    assertThat(v.err()).contains(c + ":3:25: bytes must be a decimal number, got '12x'").doesNotContain("Exception");
    Path good = capture("designs/single-lock.design");
    Path map = tmp.resolve("x.map");
    Files.writeString(map, "# names\nmutex@0x5000 = compute_mtx\n  ignore alloc 12QiB\n");
    CliTest.Run m = CliTest.run("validate", "designs/single-lock.design", good.toString(), "--map", map.toString());
    assertThat(m.status()).isEqualTo(2);
    assertThat(m.err()).contains(map + ":3:16: bad size '12QiB'");
  }
}
