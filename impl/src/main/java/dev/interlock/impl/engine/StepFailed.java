package dev.interlock.impl.engine;

import dev.interlock.model.state.Violation;

/** Unwinds a job whose step failed; the failure is already recorded. */
public final class StepFailed extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final String step;
  private final Violation violation;

  StepFailed(String step, Violation violation, Throwable cause) {
    super(step + ": " + violation.kind() + ": " + violation.message(), cause);
    this.step = step;
    this.violation = violation;
  }

  public String step() {
    return step;
  }

  public Violation violation() {
    return violation;
  }
}
