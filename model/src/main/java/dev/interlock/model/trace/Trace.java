package dev.interlock.model.trace;

import dev.interlock.model.state.ViolationKind;
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
 * @param after   for a {@code SWALLOWED_OOM} outcome found by the checker: what the failing job does after the ignored
 *                failure, the other threads paused (indexed on from the last step), so that the steps that ran
 *                without the buffer are in the trace; empty otherwise. Not part of {@link #length}
 */
public record Trace(String design, String source, Parameters params, Optional<Long> seed, Outcome outcome, List<TraceStep> steps,
    List<TraceStep> after) {
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
    after = List.copyOf(after);
    for (int i = 0; i < after.size(); i++) {
      if (after.get(i).index() != steps.size() + i + 1) {
        throw new IllegalArgumentException("step " + (steps.size() + i + 1) + " after the violation has index "
            + after.get(i).index());
      }
    }
    if (!after.isEmpty() && !(outcome instanceof Outcome.Violated v && v.violation().kind() == ViolationKind.SWALLOWED_OOM)) {
      throw new IllegalArgumentException("only a SWALLOWED_OOM trace goes on after its violation, not " + outcome);
    }
  }

  /** A trace that ends where its outcome is. */
  public Trace(String design, String source, Parameters params, Optional<Long> seed, Outcome outcome, List<TraceStep> steps) {
    this(design, source, params, seed, outcome, steps, List.of());
  }

  /** Number of transitions up to the outcome (the violating one included); {@link #after} is not counted. */
  public int length() {
    return steps.size();
  }
}
