package dev.interlock.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code --timeline-json} on run, replay and prove: a Chrome trace event file, never over a user's file without --force. */
class TimelineCommandsTest {
  @TempDir
  Path tmp;

  private static JsonNode read(Path p) throws Exception {
    return new ObjectMapper().readTree(p.toFile());
  }

  /** Values of {@code field} of the events of phase {@code ph} (and, when not null, of name {@code name}). */
  private static List<String> names(JsonNode root, String ph, String name) {
    List<String> out = new ArrayList<>();
    root.get("traceEvents").forEach(e -> {
      if (e.get("ph").asText().equals(ph) && (name == null || e.get("name").asText().equals(name))) {
        out.add(ph.equals("M") ? e.get("args").get("name").asText() : e.get("name").asText());
      }
    });
    return out;
  }

  @Test
  void runWritesATimelineAndReplacesOneOnlyWithForce() throws Exception {
    Path out = tmp.resolve("run.json");
    CliTest.Run r = CliTest.run("run", "designs/single-lock.design", "--jobs", "gpu_worker=2", "--timeline-json", out.toString());
    assertThat(r.status()).as(r.describe()).isZero();
    JsonNode root = read(out);
    assertThat(root.get("displayTimeUnit").asText()).isEqualTo("ms");
    assertThat(names(root, "M", "thread_name")).contains("gpu_worker#0", "gpu_worker#1", "gpu_worker#2", "compute_mtx");
    assertThat(names(root, "X", null)).contains("ntt_msm", "wait compute_mtx");
    assertThat(names(root, "C", null)).contains("used bytes", "cached bytes");

    Files.writeString(out, "mine");
    CliTest.Run again = CliTest.run("run", "designs/single-lock.design", "--timeline-json", out.toString());
    assertThat(again.status()).as(again.describe()).isEqualTo(2);
    assertThat(again.err()).contains(out + ": exists; not overwritten (pass --force to replace it)").doesNotContain("Exception");
    assertThat(again.out()).as("refused before the run").isEmpty();
    assertThat(Files.readString(out)).isEqualTo("mine");
    CliTest.Run forced = CliTest.run("run", "designs/single-lock.design", "--timeline-json", out.toString(), "--force");
    assertThat(forced.status()).as(forced.describe()).isZero();
    assertThat(read(out).get("traceEvents").size()).isPositive();
  }

  @Test
  void replayWritesTheEnginesRunAndRefusesAModelReplay() throws Exception {
    Path out = tmp.resolve("replay.json");
    CliTest.Run model = CliTest.run("replay", "traces/two-lock.oom.trace", "--timeline-json", out.toString());
    assertThat(model.status()).as(model.describe()).isEqualTo(2);
    assertThat(model.err()).contains("--timeline-json needs --on impl or gpu: a replay on the model has no times");
    assertThat(out).doesNotExist();
    CliTest.Run impl = CliTest.run("replay", "traces/two-lock.oom.trace", "--on", "impl", "--timeline-json", out.toString());
    assertThat(impl.status()).as(impl.describe()).isZero();
    assertThat(names(read(out), "i", null)).contains("alloc staged 12GiB FAILED OOM");
  }

  @Test
  void proveWritesTheStagesAsSlices() throws Exception {
    Path out = tmp.resolve("prove.json");
    CliTest.Run r = CliTest.run("prove", "--n", "2^6", "--partitions", "2", "--workers", "2", "--design", "designs/single-lock.design",
        "--keys", tmp.resolve("keys").toString(), "--seed", "3", "--no-timeline", "--timeline-json", out.toString());
    assertThat(r.status()).as(r.describe()).isZero();
    JsonNode root = read(out);
    assertThat(names(root, "X", null)).contains("synthesize", "ntt_msm", "b_g2_msm", "wait compute_mtx");
    assertThat(root.get("otherData").get("design").asText()).isEqualTo("single-lock");
  }

  @Test
  void proveOnTheGpuWritesATimelineOrSaysWhyNot() throws Exception {
    // what the GPU timeline holds is checked by gpu's TimelineGpuIT, which runs where the GPU tests run (gpu-bundle)
    Path out = tmp.resolve("gpu.json");
    CliTest.Run r = CliTest.run("prove", "--device", "gpu", "--n", "2^8", "--partitions", "3", "--workers", "2", "--design",
        "designs/single-lock.design", "--keys", tmp.resolve("keys").toString(), "--seed", "3", "--no-timeline",
        "--timeline-json", out.toString());
    var why = dev.interlock.gpu.cuda.CudaDevice.unavailable();
    if (why.isPresent()) {
      System.out.println("[interlock] GPU test skipped: " + why.get() + "; checked that --device gpu says so");
      assertThat(r.status()).as(r.describe()).isEqualTo(2);
      assertThat(out).doesNotExist();
      return;
    }
    assertThat(r.status()).as(r.describe()).isZero();
    assertThat(names(read(out), "M", "process_name")).contains("GPU (device clock)");
  }

  private static final String CAPTURE = "observe/src/test/resources/h200/two-lock-1.capture";

  @Test
  void showWritesACapturesTimelineWithoutADesignAndReplacesOneOnlyWithForce() throws Exception {
    Path out = tmp.resolve("capture.json");
    CliTest.Run r = CliTest.run("show", CAPTURE, "--timeline-json", out.toString());
    assertThat(r.status()).as(r.describe()).isZero();
    assertThat(r.out()).startsWith("timeline written to " + out + " (");
    JsonNode root = read(out);
    assertThat(names(root, "M", "process_name")).containsExactly("threads", "locks", "device memory", "GPU (device clock)");
    assertThat(names(root, "M", "thread_name")).contains("gpu_worker#0 (503)", "mem_mtx");
    assertThat(names(root, "C", "live bytes")).hasSizeGreaterThan(100);
    assertThat(names(root, "i", "alloc 12GiB FAILED rc=2")).isNotEmpty();
    Files.writeString(out, "keep");
    CliTest.Run again = CliTest.run("show", CAPTURE, "--timeline-json", out.toString());
    assertThat(again.status()).isEqualTo(2);
    assertThat(again.err()).contains(out + ": exists; not overwritten (pass --force to replace it)");
    assertThat(Files.readString(out)).isEqualTo("keep");
    CliTest.Run forced = CliTest.run("show", CAPTURE, "--timeline-json", out.toString(), "--force");
    assertThat(forced.status()).as(forced.describe()).isZero();
    assertThat(read(out).get("traceEvents").size()).isGreaterThan(100);
  }

  @Test
  void showTellsCapturesFromTracesAndSaysWhichOptionGoesWithWhich() throws Exception {
    Path json = tmp.resolve("t.json");
    CliTest.Run trace = CliTest.run("show", "traces/two-lock.oom.trace", "--timeline-json", json.toString());
    assertThat(trace.status()).isEqualTo(2);
    assertThat(trace.err()).contains("traces/two-lock.oom.trace: not a capture").contains("replay TRACE --on impl --timeline-json");
    CliTest.Run html = CliTest.run("show", CAPTURE, "--html", tmp.resolve("c.html").toString());
    assertThat(html.status()).isEqualTo(2);
    assertThat(html.err()).contains("a capture, not a trace").contains("validate DESIGN");
    CliTest.Run neither = CliTest.run("show", CAPTURE);
    assertThat(neither.status()).isEqualTo(2);
    CliTest.Run two = CliTest.run("show", CAPTURE, CAPTURE, "--timeline-json", json.toString());
    assertThat(two.status()).isEqualTo(2);
    assertThat(two.err()).contains("--timeline-json takes one capture, got 2 files");
    assertThat(json).doesNotExist();
  }

  @Test
  void validateWritesTheCapturesTimelineWithTheMappingsNames() throws Exception {
    Path map = tmp.resolve("m.map");
    Files.writeString(map, "ignore thread main\nthread 503 = first_worker\n");
    Path out = tmp.resolve("v.json");
    CliTest.Run v = CliTest.run("validate", "designs/two-lock.design", CAPTURE, "--map", map.toString(), "--timeline-json", out.toString());
    assertThat(v.status()).as(v.describe()).isZero();
    assertThat(v.out()).startsWith("CONFORMS: ").contains("timeline written to " + out);
    assertThat(names(read(out), "M", "thread_name")).contains("first_worker (503)", "main (495)");
    Files.writeString(out, "keep");
    CliTest.Run again = CliTest.run("validate", "designs/two-lock.design", CAPTURE, "--timeline-json", out.toString());
    assertThat(again.status()).isEqualTo(2);
    assertThat(Files.readString(out)).isEqualTo("keep");
  }
}
