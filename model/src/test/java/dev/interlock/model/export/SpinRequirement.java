package dev.interlock.model.export;

import org.junit.jupiter.api.Assumptions;

/** Skips a Spin test visibly when spin or gcc is missing, and fails it instead under CI=true. */
final class SpinRequirement {
  private SpinRequirement() {}

  static void require() {
    Spin.unavailable().ifPresent(why -> {
      if ("true".equals(System.getenv("CI"))) {
        throw new AssertionError("Spin test needs spin under CI=true: " + why);
      }
      System.out.println("Spin test skipped: " + why);
      Assumptions.abort("Spin test skipped: " + why);
    });
  }
}
