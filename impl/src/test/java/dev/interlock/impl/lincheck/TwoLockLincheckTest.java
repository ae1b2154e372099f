package dev.interlock.impl.lincheck;

import static org.assertj.core.api.Assertions.assertThat;

import dev.interlock.impl.device.SimulatedDevice;
import dev.interlock.impl.engine.SharedEngine;
import dev.interlock.impl.pipeline.InterpretedPipeline;
import dev.interlock.model.TestDesigns;
import dev.interlock.model.design.Design;
import org.jetbrains.lincheck.LincheckAssertionError;
import org.jetbrains.lincheck.datastructures.Operation;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * designs/two-lock.design on the engine is not linearizable against the model's sequential
 * specification: jobs run one after another never fail, but Lincheck finds the interleaving in
 * which a second worker stages while the first worker's 12 GiB staged buffer is live, and that job
 * ends out of memory.
 */
@Tag("lincheck")
public class TwoLockLincheckTest {
  static final String ROLE = "gpu_worker";
  static final Design DESIGN = TestDesigns.shipped("two-lock");

  private final SharedEngine engine = new SharedEngine(DESIGN, new SimulatedDevice(DESIGN.vram()), InterpretedPipeline::new);

  @Operation
  public String runJob() {
    return engine.runJob(ROLE);
  }

  /** The sequential specification: the model, one worker. */
  public static final class Spec extends ModelJobSpec {
    public Spec() {
      super(DESIGN);
    }

    public String runJob() {
      return runJob(ROLE);
    }
  }

  @Test
  void jobsOneAfterAnotherNeverFailOnTheModelOrTheEngine() {
    Spec spec = new Spec();
    for (int i = 0; i < 4; i++) {
      assertThat(spec.runJob()).isEqualTo("ok");
      assertThat(runJob()).isEqualTo("ok");
    }
    assertThat(engine.device().memory().live()).isZero();
  }

  @Test
  void lincheckFindsTheOutOfMemoryInterleaving() {
    LincheckAssertionError failure = LincheckRuns.check(TwoLockLincheckTest.class, Spec.class,
        new LincheckBudget(1, 200, 2, 1, 0, 0));
    assertThat(failure).as("Lincheck finds no interleaving that is not linearizable").isNotNull();
    assertThat(failure.getMessage()).contains("OOM at alloc staged 12GiB");
  }
}
