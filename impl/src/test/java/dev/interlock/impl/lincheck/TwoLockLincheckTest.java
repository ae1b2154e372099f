package dev.interlock.impl.lincheck;

import static org.assertj.core.api.Assertions.assertThat;

import org.jetbrains.lincheck.LincheckAssertionError;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * designs/two-lock.design on the engine is not linearizable against the model's sequential
 * specification: jobs run one after another never fail, but Lincheck finds the interleaving in
 * which a second worker stages while the first worker's 12 GiB staged buffer is live, and that job
 * ends out of memory.
 */
@Tag("lincheck")
public class TwoLockLincheckTest extends DesignLincheck {
  public TwoLockLincheckTest() {
    super("two-lock");
  }

  /** The model of designs/two-lock.design, one worker. */
  public static final class Spec extends DesignLincheck.Spec {
    public Spec() {
      super("two-lock");
    }
  }

  @Test
  void jobsOneAfterAnotherNeverFailOnTheModelOrTheEngine() {
    assertJobsOneAfterAnotherEndOk(new Spec());
  }

  @Test
  void lincheckFindsTheOutOfMemoryInterleaving() {
    LincheckAssertionError failure = LincheckRuns.check(TwoLockLincheckTest.class, Spec.class,
        new LincheckBudget(1, 200, 2, 1, 0, 0));
    assertThat(failure).as("Lincheck finds no interleaving that is not linearizable").isNotNull();
    assertThat(failure.getMessage()).contains("OOM at alloc staged 12GiB");
  }
}
