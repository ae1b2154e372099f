package dev.interlock.model.design;

import dev.interlock.model.step.Names;

/** {@code semaphore S N}: a counting semaphore with N initial permits. */
public record Semaphore(String name, int permits) {
  public Semaphore {
    Names.require("semaphore", name);
    if (permits < 0) {
      throw new IllegalArgumentException("semaphore " + name + " needs a non-negative permit count, got " + permits);
    }
  }
}
