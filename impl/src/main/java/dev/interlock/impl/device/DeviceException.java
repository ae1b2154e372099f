package dev.interlock.impl.device;

import dev.interlock.impl.ViolationException;

/** A device call that failed in one of the ways the model names. */
public abstract class DeviceException extends ViolationException {
  private static final long serialVersionUID = 1L;

  protected DeviceException(String message) {
    super(message);
  }
}
