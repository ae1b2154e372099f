package dev.interlock.impl.lincheck;

import static org.assertj.core.api.Assertions.assertThat;

import org.jetbrains.lincheck.LincheckAssertionError;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * designs/oom-ignore.design on the engine is not linearizable against the model's sequential specification: jobs
 * run one after another are ok, but Lincheck finds the interleaving in which a worker's scratch does not fit beside
 * the other's buffers, the failure is ignored, and the job ends having run its msm without the scratch
 * (SWALLOWED_OOM), an answer no sequential order gives.
 */
@Tag("lincheck")
public class OomIgnoreLincheckTest extends DesignLincheck {
  public OomIgnoreLincheckTest() {
    super("oom-ignore");
  }

  /** The model of designs/oom-ignore.design, one worker. */
  public static final class Spec extends DesignLincheck.Spec {
    public Spec() {
      super("oom-ignore");
    }
  }

  @Test
  void jobsOneAfterAnotherNeverFailOnTheModelOrTheEngine() {
    assertJobsOneAfterAnotherEndOk(new Spec());
  }

  @Test
  void lincheckFindsTheSwallowedOutOfMemoryInterleaving() {
    LincheckAssertionError failure = LincheckRuns.check(OomIgnoreLincheckTest.class, Spec.class,
        new LincheckBudget(1, 200, 2, 1, 0, 0));
    assertThat(failure).as("Lincheck finds no interleaving that is not linearizable").isNotNull();
    assertThat(failure.getMessage()).contains("SWALLOWED_OOM at alloc d_temp 8GiB");
  }
}
