package dev.interlock.properties.engine;

import java.util.Arrays;
import java.util.Objects;

/**
 * What a shrink produced: the simplest failing choices found, how many candidates were accepted
 * ({@code steps}) and how many were run ({@code attempts}).
 */
public record ShrinkResult(int[] choices, int steps, int attempts) {

  /** Validates and copies the choices in. */
  public ShrinkResult {
    Objects.requireNonNull(choices, "choices");
    choices = choices.clone();
    if (steps < 0 || attempts < 0 || steps > attempts) {
      throw new IllegalArgumentException(
          "need 0 <= steps <= attempts, got steps=" + steps + " attempts=" + attempts);
    }
  }

  /** A copy of the shrunk choices. */
  @Override
  public int[] choices() {
    return choices.clone();
  }

  /** Equal when the choices (by content) and the counts are. */
  @Override
  public boolean equals(Object o) {
    return o instanceof ShrinkResult r
        && Arrays.equals(choices, r.choices)
        && steps == r.steps
        && attempts == r.attempts;
  }

  /** Consistent with {@link #equals}. */
  @Override
  public int hashCode() {
    return Objects.hash(Arrays.hashCode(choices), steps, attempts);
  }

  /** All components, choices by content. */
  @Override
  public String toString() {
    return "ShrinkResult[choices=" + Arrays.toString(choices) + ", steps=" + steps
        + ", attempts=" + attempts + "]";
  }
}
