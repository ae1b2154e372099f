package dev.interlock.model.design;

import dev.interlock.model.step.Names;

/**
 * {@code buffer NAME SIZE}: a device buffer allocated once before any thread runs and live for the
 * whole run, like the d_a that cuzk keeps per GPU. Any thread's kernels may use it.
 */
public record ResidentBuffer(String name, long bytes) {
  public ResidentBuffer {
    Names.require("buffer", name);
    if (bytes < 1) {
      throw new IllegalArgumentException("buffer " + name + " needs a positive size, got " + bytes);
    }
  }
}
