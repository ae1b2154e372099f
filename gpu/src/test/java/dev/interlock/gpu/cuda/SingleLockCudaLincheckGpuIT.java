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
 * designs/single-lock.design on the engine on real VRAM is linearizable against the model's sequential specification:
 * in every interleaving Lincheck explores, each job ends as it would alone, and the driver never runs out of memory.
 */
public class SingleLockCudaLincheckGpuIT extends CudaDesignLincheck {
  public SingleLockCudaLincheckGpuIT() {
    super("single-lock");
  }

  /** The model of designs/single-lock.design, one worker. */
  public static final class Spec extends DesignLincheck.Spec {
    public Spec() {
      super("single-lock");
    }
  }

  @BeforeAll
  static void open() {
    LincheckGpu.open(TestDesigns.shipped("single-lock").vram());
  }

  @AfterAll
  static void close() {
    LincheckGpu.close();
  }

  @Test
  void everyExploredInterleavingIsLinearizable() {
    Gpu.assumePresent();
    long before = LincheckGpu.device().outOfMemoryErrors();
    LincheckAssertionError failure = GpuLincheckRuns.modelCheck(SingleLockCudaLincheckGpuIT.class, Spec.class,
        1, 50, 3, 1, 0, 0, LincheckGpu.guarantees());
    assertThat(failure).as("Lincheck's report").isNull();
    assertThat(LincheckGpu.device().outOfMemoryErrors()).as("the driver's out-of-memory errors").isEqualTo(before);
  }
}
