package dev.interlock.impl.device;

import dev.interlock.impl.ViolationException;
import dev.interlock.impl.api.DriverError;
import java.util.Optional;

/** A device call that failed in one of the ways the model names. */
public abstract class DeviceException extends ViolationException {
  private static final long serialVersionUID = 1L;

  private final DriverError driverError;

  protected DeviceException(String message) {
    this(message, null);
  }

  /** A failure that the device's driver reported as {@code driverError} (null: none, as on a simulated device). */
  protected DeviceException(String message, DriverError driverError) {
    super(message);
    this.driverError = driverError;
  }

  /** The driver's error, where a real device's driver made this failure; empty for a simulated device. */
  public Optional<DriverError> driverError() {
    return Optional.ofNullable(driverError);
  }
}
