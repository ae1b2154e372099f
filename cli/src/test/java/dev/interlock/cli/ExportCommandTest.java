package dev.interlock.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code interlock export --promela}: writes the model, never clobbers without --force, refuses what Spin cannot run. */
class ExportCommandTest {
  @TempDir
  Path tmp;

  @Test
  void writesOneRoleProcessPerThreadWithTheOverriddenCounts() throws Exception {
    Path out = tmp.resolve("two.pml");
    CliTest.Run r = CliTest.run("export", CliTest.design("two-lock"), "--threads", "gpu_worker=2", "--jobs",
        "gpu_worker=1", "--promela", out.toString());
    assertThat(r.status()).as(r.describe()).isZero();
    String pml = Files.readString(out);
    assertThat(pml).contains("#define VRAM 8  /* 16GiB */", "run r0(0, 0);", "run r0(1, 1);", "assert(OOM)")
        .doesNotContain("run r0(2, 2);").doesNotContain("/* job 2 */");
  }

  @Test
  void neverReplacesAFileWithoutForce() throws Exception {
    Path out = tmp.resolve("x.pml");
    Files.writeString(out, "mine");
    CliTest.Run r = CliTest.run("export", CliTest.design("single-lock"), "--promela", out.toString());
    assertThat(r.status()).as(r.describe()).isEqualTo(2);
    assertThat(r.err()).contains(out + ": exists; not overwritten (pass --force to replace it)");
    assertThat(Files.readString(out)).isEqualTo("mine");
    CliTest.Run forced = CliTest.run("export", CliTest.design("single-lock"), "--promela", out.toString(), "--force");
    assertThat(forced.status()).as(forced.describe()).isZero();
    assertThat(Files.readString(out)).contains("proctype r0(byte w; byte t)");
  }

  @Test
  void refusesMoreThreadsThanSpinRuns() {
    Path out = tmp.resolve("big.pml");
    CliTest.Run r = CliTest.run("export", CliTest.design("single-lock"), "--threads", "gpu_worker=300", "--promela",
        out.toString());
    assertThat(r.status()).as(r.describe()).isEqualTo(2);
    assertThat(r.err()).contains("300 threads").contains("Spin runs at most 254").doesNotContain("Exception");
    assertThat(out).doesNotExist();
  }
}
