package dev.interlock.impl.lincheck;

import static org.assertj.core.api.Assertions.assertThat;

import dev.interlock.impl.api.Device;
import dev.interlock.impl.device.SimulatedDevice;
import dev.interlock.impl.engine.SharedEngine;
import dev.interlock.impl.pipeline.InterpretedPipeline;
import dev.interlock.model.TestDesigns;
import dev.interlock.model.design.Design;
import org.jetbrains.lincheck.datastructures.Operation;

/**
 * What each shipped design's Lincheck test shares, on either device: the engine running the design (on a simulated
 * device here, on the GPU in gpu's Lincheck tests), its one operation (a worker runs a job), and the model as the
 * sequential specification.
 *
 * <p>Public, as are its operation and its Spec's, because Lincheck calls them reflectively.
 */
public abstract class DesignLincheck {
  static final String ROLE = "gpu_worker";

  private final SharedEngine engine;

  /** The design on a simulated device of its vram. */
  protected DesignLincheck(String design) {
    this(TestDesigns.shipped(design));
  }

  private DesignLincheck(Design d) {
    this(d, new SimulatedDevice(d.vram()));
  }

  /**
   * The design on {@code device}; null where the device the test wants is missing (no GPU), and the test skips before
   * Lincheck runs an operation.
   */
  protected DesignLincheck(Design d, Device device) {
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

  /** Jobs run one after another end ok on the model and on the engine, and leave no device memory live. */
  void assertJobsOneAfterAnotherEndOk(Spec spec) {
    for (int i = 0; i < 4; i++) {
      assertThat(spec.runJob()).isEqualTo("ok");
      assertThat(runJob()).isEqualTo("ok");
    }
    assertThat(engine.device().memory().live()).isZero();
  }
}
