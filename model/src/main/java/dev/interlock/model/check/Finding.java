package dev.interlock.model.check;

import dev.interlock.model.state.Violation;
import dev.interlock.model.trace.Trace;
import java.util.Objects;

/** A violation the search reached, with the shortest trace to it. */
public record Finding(Violation violation, Trace trace) {
  public Finding {
    Objects.requireNonNull(violation, "violation");
    Objects.requireNonNull(trace, "trace");
  }
}
