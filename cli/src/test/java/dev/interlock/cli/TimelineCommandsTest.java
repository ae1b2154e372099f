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
}
