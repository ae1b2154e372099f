package dev.interlock.gpu.cuda;

import dev.interlock.impl.engine.SharedEngine;
import dev.interlock.impl.lincheck.ModelJobSpec;
import dev.interlock.impl.pipeline.InterpretedPipeline;
import dev.interlock.model.TestDesigns;
import dev.interlock.model.design.Design;
import org.jetbrains.lincheck.datastructures.Operation;

/**
 * What each design's Lincheck test on the GPU shares: the engine running the design on the JVM's one CudaDevice
 * ({@link LincheckGpu}, reset for each Lincheck invocation), its one operation (a worker runs a job), and the model as
 * the sequential specification. The GPU twin of impl's DesignLincheck, whose engine runs on a SimulatedDevice.
 *
 * <p>Public, as are its operation and its Spec's, because Lincheck calls them reflectively.
 */
public abstract class CudaDesignLincheck {
  static final String ROLE = "gpu_worker";

  private final SharedEngine engine;

  /** A fresh engine for {@code design} on the shared device, reset: nothing live or cached. */
  protected CudaDesignLincheck(String design) {
    CudaDevice device = LincheckGpu.device();
    Design d = TestDesigns.shipped(design);
    if (device != null) {
      device.reset();
    }
    engine = device == null ? null : new SharedEngine(d, device, InterpretedPipeline::new);
  }

  @Operation
  public String runJob() {
    return engine.runJob(ROLE);
  }

  /** The sequential specification: the model of the design, one worker; each test names its own for Lincheck. */
  public abstract static class Spec extends ModelJobSpec {
    protected Spec(String design) {
      super(TestDesigns.shipped(design));
    }

    public String runJob() {
      return runJob(ROLE);
    }
  }
}
