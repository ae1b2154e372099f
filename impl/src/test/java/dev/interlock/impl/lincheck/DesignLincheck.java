package dev.interlock.impl.lincheck;

import static org.assertj.core.api.Assertions.assertThat;

import dev.interlock.impl.device.SimulatedDevice;
import dev.interlock.impl.engine.SharedEngine;
import dev.interlock.impl.pipeline.InterpretedPipeline;
import dev.interlock.model.TestDesigns;
import dev.interlock.model.design.Design;
import org.jetbrains.lincheck.datastructures.Operation;

/**
 * What each shipped design's Lincheck test shares: the engine running the design on a simulated device, its one
 * operation (a worker runs a job), and the model as the sequential specification.
 *
 * <p>Public, as are its operation and its Spec's, because Lincheck calls them reflectively.
 */
public abstract class DesignLincheck {
  static final String ROLE = "gpu_worker";

  private final SharedEngine engine;

  protected DesignLincheck(String design) {
    Design d = TestDesigns.shipped(design);
    engine = new SharedEngine(d, new SimulatedDevice(d.vram()), InterpretedPipeline::new);
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
