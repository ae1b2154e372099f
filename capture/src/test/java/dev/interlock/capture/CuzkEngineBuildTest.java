package dev.interlock.capture;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * engines/cuzk/build.sh: without the user's checkouts it skips with the reason (and fails under --require); with them
 * (CURIO, SPPARK and BLST set, as docs/real-engines.md says) it builds phase 9's engine with the harness, which then
 * answers --help and, on a machine without a GPU, says so with exit 2.
 */
class CuzkEngineBuildTest {
  private static final Path ROOT = Path.of(System.getProperty("interlock.root", ".")).toAbsolutePath().normalize();
  private static final Path BUILD = ROOT.resolve("engines/cuzk/build.sh");

  private record Run(int status, String output) {}

  private static Run run(Map<String, String> env, String... command) throws Exception {
    ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true).directory(ROOT.toFile());
    pb.environment().keySet().removeAll(List.of("CURIO", "SPPARK", "BLST"));
    pb.environment().putAll(env);
    Process p = pb.start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(10, TimeUnit.MINUTES)).as("%s ends", String.join(" ", command)).isTrue();
    return new Run(p.exitValue(), out);
  }

  @Test
  void withoutCheckoutsTheBuildSkipsWithTheReason() throws Exception {
    Run skipped = run(Map.of(), "bash", BUILD.toString(), "599522de");
    assertThat(skipped.status()).as(skipped.output()).isZero();
    assertThat(skipped.output()).contains("[interlock] SKIP: engines/cuzk is not built: no curio checkout");
    Run required = run(Map.of(), "bash", BUILD.toString(), "--require", "599522de");
    assertThat(required.status()).as(required.output()).isEqualTo(3);
    Run bad = run(Map.of(), "bash", BUILD.toString(), "--curoi", "x");
    assertThat(bad.status()).as(bad.output()).isEqualTo(2);
    assertThat(bad.output()).contains("unknown option --curoi");
  }

  @Test
  void withCheckoutsPhase9sEngineBuildsAndTheHarnessRuns() throws Exception {
    Map<String, String> env = new java.util.HashMap<>();
    List<String> missing = new ArrayList<>();
    for (String v : List.of("CURIO", "SPPARK", "BLST")) {
      String dir = System.getenv(v);
      if (dir == null || dir.isBlank()) {
        missing.add(v);
      } else {
        env.put(v, dir);
      }
    }
    Assumptions.assumeTrue(missing.isEmpty(), () -> "cuzk's real engine is not built here: no " + String.join(", ", missing)
        + " checkout (set CURIO, SPPARK and BLST to clones of filecoin-project/curio, supranational/sppark and"
        + " supranational/blst; docs/real-engines.md)");
    Run built = run(env, "bash", BUILD.toString(), "--require", "599522de");
    assertThat(built.status()).as(built.output()).isZero();
    Path harness = ROOT.resolve("engines/cuzk/target/599522de/cuzk-harness");
    assertThat(harness).isExecutable();
    assertThat(Files.readString(ROOT.resolve("engines/cuzk/target/599522de/SOURCES.sha256")))
        .contains("groth16_cuda.cu", "groth16_ntt_h.cu", "groth16_split_msm.cu", "groth16_srs.cuh");
    Run help = run(Map.of(), harness.toString(), "--help");
    assertThat(help.status()).isZero();
    assertThat(help.output()).contains("usage: cuzk-harness", "--budget SIZE");
    Run badArg = run(Map.of(), harness.toString(), "--api", "split");
    assertThat(badArg.status()).as("phase 9 has no split API").isEqualTo(2);
    assertThat(badArg.output()).contains("599522de has no generate_groth16_proofs_start_c");
  }
}
