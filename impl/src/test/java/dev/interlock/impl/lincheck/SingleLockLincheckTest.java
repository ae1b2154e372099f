package dev.interlock.impl.lincheck;

import static org.assertj.core.api.Assertions.assertThat;

import org.jetbrains.lincheck.LincheckAssertionError;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * designs/single-lock.design on the engine is linearizable against the model's sequential
 * specification: in every interleaving Lincheck explores, each job ends as it would alone. The
 * design is SAFE: compute_mtx guards staging, kernels and frees, so no two workers' buffers are
 * ever live together.
 */
@Tag("lincheck")
public class SingleLockLincheckTest extends DesignLincheck {
  public SingleLockLincheckTest() {
    super("single-lock");
  }

  /** The model of designs/single-lock.design, one worker. */
  public static final class Spec extends DesignLincheck.Spec {
    public Spec() {
      super("single-lock");
    }
  }

  @Test
  void jobsOneAfterAnotherNeverFailOnTheModelOrTheEngine() {
    assertJobsOneAfterAnotherEndOk(new Spec());
  }

  @Test
  void everyExploredInterleavingIsLinearizable() {
    LincheckAssertionError failure = LincheckRuns.check(SingleLockLincheckTest.class, Spec.class,
        new LincheckBudget(1, 30, 3, 1, 0, 0));
    assertThat(failure).as("Lincheck's report").isNull();
  }
}
