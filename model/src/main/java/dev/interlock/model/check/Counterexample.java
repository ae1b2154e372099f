package dev.interlock.model.check;

import dev.interlock.model.state.Violation;
import dev.interlock.model.trace.Outcome;
import dev.interlock.model.trace.Trace;
import java.util.Map;
import java.util.Objects;

/**
 * One violation kind the check found, at the fewest threads that show it: what the checker ranks
 * to pick the primary counterexample and lists as the others.
 *
 * @param violation the violation, explained at the end of {@code trace}
 * @param trace     a shortest trace to a violation of this kind, in the configuration of its parameters
 */
public record Counterexample(Violation violation, Trace trace) {
  public Counterexample {
    Objects.requireNonNull(violation, "violation");
    Objects.requireNonNull(trace, "trace");
    if (!(trace.outcome() instanceof Outcome.Violated v) || !v.violation().equals(violation)) {
      throw new IllegalArgumentException("the trace must end in " + violation + ", it ends in " + trace.outcome());
    }
  }

  /** Per-role thread counts of the configuration the trace runs in: the trace's own. */
  public Map<String, Integer> threads() {
    return trace.params().threads();
  }

  /** Threads over all roles: the first key of the checker's ranking. */
  public int totalThreads() {
    return threads().values().stream().mapToInt(Integer::intValue).sum();
  }

  /** Transitions of the trace: the second key of the ranking. */
  public int length() {
    return trace.length();
  }
}
