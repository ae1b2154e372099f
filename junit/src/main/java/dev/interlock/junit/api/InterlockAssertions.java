package dev.interlock.junit.api;

/**
 * The AssertJ entry point for Interlock's results; import it statically beside AssertJ's own {@code Assertions}.
 *
 * <pre>{@code
 * assertThat(Interlock.check(design).run()).hasViolation(Violation.OOM).withMinimalThreads("gpu_worker", 2);
 * }</pre>
 */
public final class InterlockAssertions {
  private InterlockAssertions() {}

  /** The assertions on {@code actual}. */
  public static CheckResultAssert assertThat(CheckResult actual) {
    return new CheckResultAssert(actual);
  }

  /** The assertions on {@code actual}, a fidelity comparison. */
  public static FidelityResultAssert assertThat(FidelityResult actual) {
    return new FidelityResultAssert(actual);
  }
}
