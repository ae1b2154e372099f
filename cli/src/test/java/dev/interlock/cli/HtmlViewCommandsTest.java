package dev.interlock.cli;

import static dev.interlock.cli.CliTest.run;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code show} and the {@code --html} options: pages written, never clobbered without --force, bad input exit 2. */
class HtmlViewCommandsTest {
  @TempDir
  Path tmp;

  @Test
  void checkWritesTheCounterexampleAsAPage() throws Exception {
    Path page = tmp.resolve("c.html");
    CliTest.Run r = run("check", "designs/two-lock.design", "--html", page.toString());
    assertThat(r.status()).as(r.describe()).isEqualTo(1);
    String html = Files.readString(page);
    assertThat(html).contains("id=\"verdict-0\">OOM at transition 9: gpu_worker#1 alloc staged 12GiB")
        .doesNotContain("http://").doesNotContain("https://");
  }

  @Test
  void anExistingPageIsReplacedOnlyWithForce() throws Exception {
    Path page = tmp.resolve("c.html");
    Files.writeString(page, "mine");
    CliTest.Run r = run("check", "designs/two-lock.design", "--html", page.toString());
    assertThat(r.status()).isEqualTo(2);
    assertThat(r.err()).startsWith("interlock: " + page + ": exists; not overwritten (pass --force to replace it)");
    assertThat(Files.readString(page)).isEqualTo("mine");
    assertThat(run("check", "designs/two-lock.design", "--html", page.toString(), "--force").status()).isEqualTo(1);
    assertThat(Files.readString(page)).startsWith("<!DOCTYPE html>");
  }

  @Test
  void showPutsTracesOneUnderTheOther() throws Exception {
    Path page = tmp.resolve("s.html");
    CliTest.Run r = run("show", "traces/two-lock.oom.trace", "traces/single-lock.overlap.trace", "--html", page.toString());
    assertThat(r.status()).as(r.describe()).isZero();
    assertThat(r.out()).contains("html written to " + page + " (2 traces)");
    String html = Files.readString(page);
    assertThat(html).contains("id=\"verdict-0\">OOM at transition 9").contains("id=\"verdict-1\">OVERLAP b_g2_msm ntt_msm");
  }

  @Test
  void showRejectsBadInputInOneLine() throws Exception {
    Path bad = tmp.resolve("bad.trace");
    Files.writeString(bad, "not a trace\n");
    CliTest.Run r = run("show", bad.toString(), "--html", tmp.resolve("x.html").toString());
    assertThat(r.status()).isEqualTo(2);
    assertThat(r.errLines()).hasSize(1);
    assertThat(r.err()).startsWith("interlock: " + bad);
    assertThat(tmp.resolve("x.html")).doesNotExist();
    assertThat(run("show", "traces/two-lock.oom.trace").status()).isEqualTo(2);
  }

  @Test
  void replayOnTheEngineShowsTheTraceAndTheRunAligned() throws Exception {
    Path page = tmp.resolve("r.html");
    CliTest.Run r = run("replay", "traces/two-lock.oom.trace", "--on", "impl", "--html", page.toString());
    assertThat(r.status()).as(r.describe()).isZero();
    String html = Files.readString(page);
    assertThat(html).contains("id=\"verdict-0\">OOM at transition 9").contains("id=\"verdict-1\">OOM at transition 9");
  }

  @Test
  void aRunIsDrawnOnItsClock() throws Exception {
    Path page = tmp.resolve("run.html");
    CliTest.Run r = run("run", "designs/single-lock.design", "--html", page.toString());
    assertThat(r.status()).as(r.describe()).isZero();
    assertThat(Files.readString(page)).contains("\"axis\":\"time\"").contains("COMPLETED");
  }

  @Test
  void aProofRunIsDrawnOnItsClockAndAnExistingPageStopsItBeforeItStarts() throws Exception {
    Path page = tmp.resolve("prove.html");
    String[] args = {"prove", "--design", "designs/single-lock.design", "--n", "2^8", "--partitions", "2", "--seed", "1",
        "--keys", tmp.resolve("keys").toString(), "--no-timeline", "--html", page.toString()};
    CliTest.Run r = run(args);
    assertThat(r.status()).as(r.describe()).isZero();
    assertThat(Files.readString(page)).contains("\"axis\":\"time\"").contains("COMPLETED").contains("synthesize");
    CliTest.Run again = run(args);
    assertThat(again.status()).isEqualTo(2);
    assertThat(again.err()).contains("exists; not overwritten");
    assertThat(again.out()).doesNotContain("request");
  }

  @Test
  void randomModeDrawsTheShrunkScheduleItPrints() throws Exception {
    Path page = tmp.resolve("random.html");
    CliTest.Run r = run("check", "designs/two-lock.design", "--threads", "gpu_worker=3", "--random", "100", "--seed", "7",
        "--html", page.toString());
    assertThat(r.status()).as(r.describe()).isEqualTo(1);
    assertThat(r.out()).contains("shrunk violating schedule (9 transitions");
    assertThat(Files.readString(page)).contains("shrunk violating schedule").contains("OOM at transition 9");
  }

  @Test
  void anExistingOutputStopsACheckBeforeItSearches() throws Exception {
    Path page = tmp.resolve("exists.html");
    Files.writeString(page, "mine");
    Path trace = tmp.resolve("t.trace");
    CliTest.Run r = run("check", "designs/two-lock.design", "--trace-out", trace.toString(), "--html", page.toString());
    assertThat(r.status()).isEqualTo(2);
    assertThat(r.err()).contains(page + ": exists; not overwritten");
    assertThat(r.out()).doesNotContain("verdict");
    assertThat(trace).doesNotExist();
    assertThat(Files.readString(page)).isEqualTo("mine");
  }
}
