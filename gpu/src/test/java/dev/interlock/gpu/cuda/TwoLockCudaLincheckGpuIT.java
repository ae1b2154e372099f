package dev.interlock.gpu.cuda;

import static org.assertj.core.api.Assertions.assertThat;

import dev.interlock.impl.lincheck.DesignLincheck;
import dev.interlock.impl.lincheck.GpuLincheckRuns;
import dev.interlock.model.TestDesigns;
import org.jetbrains.lincheck.LincheckAssertionError;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * designs/two-lock.design on the engine on real VRAM is not linearizable against the model's sequential specification:
 * Lincheck finds the interleaving in which a second worker stages while the first worker's 12 GiB staged buffer is
 * live, and the driver refuses that allocation (CudaDevice has no memory accounting of its own that could: every OOM
 * it reports is the driver's CUDA_ERROR_OUT_OF_MEMORY, which it counts).
 */
public class TwoLockCudaLincheckGpuIT extends CudaDesignLincheck {
  public TwoLockCudaLincheckGpuIT() {
    super("two-lock");
  }

  /** The model of designs/two-lock.design, one worker. */
  public static final class Spec extends DesignLincheck.Spec {
    public Spec() {
      super("two-lock");
    }
  }

  @BeforeAll
  static void open() {
    LincheckGpu.open(TestDesigns.shipped("two-lock").vram());
  }

  @AfterAll
  static void close() {
    LincheckGpu.close();
  }

  @Test
  void lincheckFindsTheDriversOutOfMemory() {
    Gpu.assumePresent();
    long before = LincheckGpu.device().outOfMemoryErrors();
    LincheckAssertionError failure = GpuLincheckRuns.modelCheck(TwoLockCudaLincheckGpuIT.class, Spec.class,
        1, 200, 2, 1, 0, 0, LincheckGpu.guarantees());
    assertThat(failure).as("Lincheck finds no interleaving that is not linearizable").isNotNull();
    assertThat(failure.getMessage()).contains("OOM at alloc staged 12GiB");
    assertThat(LincheckGpu.device().outOfMemoryErrors()).as("the driver's out-of-memory errors").isGreaterThan(before);
  }
}
