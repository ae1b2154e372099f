package dev.interlock.properties.shrink;

import dev.interlock.model.state.ViolationKind;
import dev.interlock.model.trace.Outcome;
import dev.interlock.model.trace.Trace;
import java.util.Objects;

/**
 * What shrinking a violating schedule gave: the schedule as found, the shrunk one (a trace the
 * model recorded, at the thread and job counts in its parameters) and how many candidate
 * schedules were run to get there.
 *
 * @param original the violating schedule as found
 * @param shrunk   the shrunk schedule, ending in the same violation kind
 * @param attempts candidate schedules run, over all stages
 */
public record ShrunkSchedule(Trace original, Trace shrunk, int attempts) {
  public ShrunkSchedule {
    Objects.requireNonNull(original, "original");
    Objects.requireNonNull(shrunk, "shrunk");
    if (kind(original) != kind(shrunk)) {
      throw new IllegalArgumentException("shrinking changed the violation: " + kind(original) + " to " + kind(shrunk));
    }
    if (attempts < 0) {
      throw new IllegalArgumentException("attempts must be >= 0, got " + attempts);
    }
  }

  /** The violation kind of a trace that ends in one. */
  static ViolationKind kind(Trace t) {
    if (t.outcome() instanceof Outcome.Violated v) {
      return v.violation().kind();
    }
    throw new IllegalArgumentException("the trace does not end in a violation: " + t.outcome());
  }

  /** The violation kind both end in. */
  public ViolationKind kind() {
    return kind(shrunk);
  }
}
