package dev.interlock.model.trace;

import dev.interlock.model.step.Names;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A schedule of the model and how it ends: the unit the checker reports, replay re-executes and
 * traces/ stores. {@link TraceFormat} is the one place it is read and written.
 *
 * @param design  the design's name
 * @param source  the design file as given to the checker, for replay
 * @param params  the parameters the model ran with
 * @param seed    the seed of a random schedule, empty for an exhaustive search
 * @param outcome how the trace ends
 * @param steps   the transitions, indexed from 1
 */
public record Trace(String design, String source, Parameters params, Optional<Long> seed, Outcome outcome, List<TraceStep> steps) {
  public Trace {
    Names.require("design", design);
    Objects.requireNonNull(source, "source");
    if (source.isBlank() || !source.equals(source.strip()) || source.contains("\n")) {
      throw new IllegalArgumentException("bad source path '" + source + "'");
    }
    Objects.requireNonNull(params, "params");
    Objects.requireNonNull(seed, "seed");
    Objects.requireNonNull(outcome, "outcome");
    steps = List.copyOf(steps);
    for (int i = 0; i < steps.size(); i++) {
      if (steps.get(i).index() != i + 1) {
        throw new IllegalArgumentException("step " + (i + 1) + " has index " + steps.get(i).index());
      }
    }
  }

  /** Number of transitions. */
  public int length() {
    return steps.size();
  }
}
