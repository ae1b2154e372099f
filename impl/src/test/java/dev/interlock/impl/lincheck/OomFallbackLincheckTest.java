package dev.interlock.impl.lincheck;

import static org.assertj.core.api.Assertions.assertThat;

import org.jetbrains.lincheck.LincheckAssertionError;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * designs/oom-fallback.design on the engine is linearizable against the model's sequential specification: a worker
 * whose 10 GiB allocation fails beside another's runs its handler (the 4 GiB tiles) and its job still ends ok, as
 * every job does alone. A handled out-of-memory is the design's own branch, not a failure.
 */
@Tag("lincheck")
public class OomFallbackLincheckTest extends DesignLincheck {
  public OomFallbackLincheckTest() {
    super("oom-fallback");
  }

  /** The model of designs/oom-fallback.design, one worker. */
  public static final class Spec extends DesignLincheck.Spec {
    public Spec() {
      super("oom-fallback");
    }
  }

  @Test
  void jobsOneAfterAnotherNeverFailOnTheModelOrTheEngine() {
    assertJobsOneAfterAnotherEndOk(new Spec());
  }

  @Test
  void everyExploredInterleavingIsLinearizable() {
    LincheckAssertionError failure = LincheckRuns.check(OomFallbackLincheckTest.class, Spec.class,
        new LincheckBudget(1, 30, 2, 1, 0, 0));
    assertThat(failure).as("Lincheck's report").isNull();
  }
}
