package dev.interlock.impl.engine;

import dev.interlock.impl.api.DriverError;
import dev.interlock.impl.api.MemoryInfo;
import dev.interlock.model.state.Violation;
import java.util.Optional;

/** Unwinds a job whose step failed; the failure is already recorded. */
public final class StepFailed extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final String step;
  private final Violation violation;
  private final MemoryInfo memory;
  private final Optional<DriverError> driverError;

  StepFailed(String step, Violation violation, MemoryInfo memory, Optional<DriverError> driverError, Throwable cause) {
    super(step + ": " + violation.kind() + ": " + violation.message(), cause);
    this.step = step;
    this.violation = violation;
    this.memory = memory;
    this.driverError = driverError;
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

  /** The driver's error, where a real device's driver made the failure. */
  public Optional<DriverError> driverError() {
    return driverError;
  }
}
