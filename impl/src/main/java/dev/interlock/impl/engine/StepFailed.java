package dev.interlock.impl.engine;

import dev.interlock.impl.api.MemoryInfo;
import dev.interlock.model.state.Violation;

/** Unwinds a job whose step failed; the failure is already recorded. */
public final class StepFailed extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final String step;
  private final Violation violation;
  private final MemoryInfo memory;

  StepFailed(String step, Violation violation, MemoryInfo memory, Throwable cause) {
    super(step + ": " + violation.kind() + ": " + violation.message(), cause);
    this.step = step;
    this.violation = violation;
    this.memory = memory;
  }

  public String step() {
    return step;
  }

  public Violation violation() {
    return violation;
  }

  /** The device when the step failed, before any cleanup. */
  public MemoryInfo memory() {
    return memory;
  }
}
