package dev.interlock.gpu.cuda;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The committed PTX is what nvcc makes of the committed CUDA source (checked where nvcc exists). */
class PtxTest {
  @TempDir
  Path tmp;

  @Test
  void committedPtxIsNotStale() throws Exception {
    Path source = Path.of("gpu/src/main/cuda/touch.cu");
    Path nvcc = Path.of("/usr/local/bin/nvcc");
    if (!Files.isExecutable(nvcc)) {
      System.out.println("[interlock] PTX staleness check skipped: no nvcc at " + nvcc);
    }
    Assumptions.assumeTrue(Files.isExecutable(nvcc), "no nvcc here");
    Path out = tmp.resolve("touch.ptx");
    Process p = new ProcessBuilder(nvcc.toString(), "-arch=sm_90", "-ptx", source.toString(), "-o", out.toString())
        .redirectErrorStream(true).start();
    assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).as(new String(p.getInputStream().readAllBytes())).isZero();
    assertThat(new String(CudaDevice.ptxBytes())).as("gpu/src/main/resources/.../touch.ptx is stale: recompile with "
        + "nvcc -arch=sm_90 -ptx gpu/src/main/cuda/touch.cu").isEqualTo(Files.readString(out));
  }
}
