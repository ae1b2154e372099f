package dev.interlock.impl.api;

import java.util.Objects;
import java.util.regex.Pattern;

/**
 * A driver's error as a real device reported it, e.g. CUDA's {@code CUDA_ERROR_OUT_OF_MEMORY} (2); a simulated device
 * has no driver and reports none.
 *
 * @param name the driver's name of the code, e.g. {@code CUDA_ERROR_OUT_OF_MEMORY}
 * @param code the driver's number (a CUresult for CUDA), never 0 (success)
 */
public record DriverError(String name, int code) {
  private static final Pattern NAME = Pattern.compile("[A-Z][A-Z0-9_]*");

  public DriverError {
    Objects.requireNonNull(name, "name");
    if (!NAME.matcher(name).matches()) {
      throw new IllegalArgumentException("a driver error's name is upper case, digits and _, got '" + name + "'");
    }
    if (code == 0) {
      throw new IllegalArgumentException(name + ": code 0 is success, not an error");
    }
  }
}
