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
 * designs/reservation.design on the engine is linearizable against the model's sequential
 * specification: in every interleaving Lincheck explores, each job ends as it would alone. The
 * design is SAFE: a worker reserves 14 of the 16 VRAM units before it stages, so a second
 * reservation waits (blocked in the semaphore) until the first is given back.
 */
@Tag("lincheck")
public class ReservationLincheckTest {
  static final String ROLE = "gpu_worker";
  static final Design DESIGN = TestDesigns.shipped("reservation");

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
  void everyExploredInterleavingIsLinearizable() {
    LincheckAssertionError failure = LincheckRuns.check(ReservationLincheckTest.class, Spec.class,
        new LincheckBudget(1, 50, 3, 1, 0, 0));
    assertThat(failure).as("Lincheck's report").isNull();
  }
}
