package dev.interlock.properties.model;

import dev.interlock.model.check.Schedules;
import dev.interlock.model.state.Model;
import dev.interlock.model.trace.Outcome;
import dev.interlock.model.trace.Trace;
import dev.interlock.model.trace.TraceFormat;
import dev.interlock.properties.engine.Gen;
import java.util.Objects;
import java.util.Optional;

/** A schedule of a model run to its end; prints as a trace so failure reports are readable. */
public record Schedule(Trace trace) {
  public Schedule {
    Objects.requireNonNull(trace, "trace");
  }

  /**
   * Random schedules of {@code model}: at each point, which thread that can move takes the next step.
   *
   * <p>Choice 0 picks the lowest-numbered thread that can move, so shrinking prefers few thread
   * switches; as each transition consumes one choice, a shortlex-smaller choice sequence is first
   * of all a shorter trace.
   */
  public static Gen<Schedule> of(Model model, String source) {
    return src -> new Schedule(Schedules.run(model, source, Optional.empty(), n -> src.choose(n - 1)));
  }

  /** Whether the schedule ended in a violation. */
  public boolean violates() {
    return trace.outcome() instanceof Outcome.Violated;
  }

  @Override
  public String toString() {
    return "\n" + TraceFormat.print(trace);
  }
}
