package dev.interlock.gpu.cuda;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The committed kernel images are what nvcc makes of the committed CUDA sources. */
class KernelImagesTest {
  private static final Path CUDA = Path.of("gpu/src/main/cuda");
  private static final String RECOMPILE = "recompile with gpu/src/main/cuda/compile.sh";

  @TempDir
  Path tmp;

  @Test
  void recordedSourceHashMatchesTheSources() throws Exception {
    MessageDigest sha = MessageDigest.getInstance("SHA-256");
    for (String f : new String[] {"touch.cu", "field.cuh", "curve.cuh", "g1.cuh", "g2.cuh", "kernels.cu"}) {
      sha.update(Files.readAllBytes(CUDA.resolve(f)));
    }
    String recorded = new String(Kernels.resource("kernels.sources.sha256")).strip();
    assertThat(recorded).as("kernel images were compiled from other sources: " + RECOMPILE)
        .isEqualTo(HexFormat.of().formatHex(sha.digest()));
  }

  @Test
  void imagesArePresentAndForSm90() {
    assertThat(new String(Kernels.resource("kernels.ptx"))).contains(".target sm_90").contains(".entry msm_accumulate")
        .contains(".entry msm_accumulate_g2");
    byte[] cubin = Kernels.resource("kernels.cubin");
    assertThat(cubin).startsWith(0x7f, 'E', 'L', 'F');
  }

  /**
   * Recompiles the PTX and compares: only under {@code mvn verify -Pkernel-images} (it takes ~70 s of nvcc on two
   * cores, most of the CI's margin); {@link #recordedSourceHashMatchesTheSources} covers the usual mistake, sources
   * edited without running compile.sh, in every build.
   */
  @Test
  void committedPtxIsWhatNvccMakesOfTheSources() throws Exception {
    boolean asked = Boolean.getBoolean("interlock.kernelImages.recompile");
    if (!asked) {
      System.out.println("[interlock] PTX recompilation check skipped: run mvn verify -Pkernel-images to include it");
    }
    Assumptions.assumeTrue(asked, "PTX recompilation runs only with -Pkernel-images");
    Path nvcc = Path.of("/usr/local/bin/nvcc");
    if (!Files.isExecutable(nvcc)) {
      System.out.println("[interlock] PTX recompilation check skipped: no nvcc at " + nvcc);
    }
    Assumptions.assumeTrue(Files.isExecutable(nvcc), "no nvcc here");
    for (String name : new String[] {"touch", "kernels"}) {
      Path out = tmp.resolve(name + ".ptx");
      Process p = new ProcessBuilder(nvcc.toString(), "-arch=sm_90", "-ptx", CUDA.resolve(name + ".cu").toString(), "-o", out.toString())
          .redirectErrorStream(true).start();
      assertThat(p.waitFor(300, TimeUnit.SECONDS)).isTrue();
      assertThat(p.exitValue()).as(new String(p.getInputStream().readAllBytes())).isZero();
      assertThat(new String(Kernels.resource(name + ".ptx"))).as(name + ".ptx is stale: " + RECOMPILE).isEqualTo(Files.readString(out));
    }
  }
}
