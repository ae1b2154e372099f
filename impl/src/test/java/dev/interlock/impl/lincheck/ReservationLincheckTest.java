package dev.interlock.impl.lincheck;

import static org.assertj.core.api.Assertions.assertThat;

import org.jetbrains.lincheck.LincheckAssertionError;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * designs/reservation.design on the engine is linearizable against the model's sequential
 * specification: in every interleaving Lincheck explores, each job ends as it would alone. The
 * design is SAFE: a worker reserves 14 of the 16 VRAM units before it stages, so a second
 * reservation waits (blocked in the semaphore) until the first is given back.
 */
@Tag("lincheck")
public class ReservationLincheckTest extends DesignLincheck {
  public ReservationLincheckTest() {
    super("reservation");
  }

  /** The model of designs/reservation.design, one worker. */
  public static final class Spec extends DesignLincheck.Spec {
    public Spec() {
      super("reservation");
    }
  }

  @Test
  void jobsOneAfterAnotherNeverFailOnTheModelOrTheEngine() {
    assertJobsOneAfterAnotherEndOk(new Spec());
  }

  @Test
  void everyExploredInterleavingIsLinearizable() {
    LincheckAssertionError failure = LincheckRuns.check(ReservationLincheckTest.class, Spec.class,
        new LincheckBudget(1, 30, 3, 1, 0, 0));
    assertThat(failure).as("Lincheck's report").isNull();
  }
}
