package dev.interlock.model.trace;

import dev.interlock.model.state.Phase;
import dev.interlock.model.step.Step;
import java.util.Objects;
import java.util.Optional;

/**
 * One transition of a trace.
 *
 * @param index  1-based position in the trace
 * @param thread {@code role#i}
 * @param step   the step of the design, e.g. {@code alloc staged 12GiB}; trace files hold its text
 * @param phase  begin or end for interval steps, empty otherwise
 * @param used   device bytes in use after the transition (live plus pool-cached: cudaMemGetInfo's view)
 * @param cached bytes the pool keeps cached after the transition
 */
public record TraceStep(int index, String thread, Step step, Optional<Phase> phase, long used, long cached) {
  public TraceStep {
    if (index < 1) {
      throw new IllegalArgumentException("trace index must be positive, got " + index);
    }
    Objects.requireNonNull(thread, "thread");
    Objects.requireNonNull(step, "step");
    Objects.requireNonNull(phase, "phase");
    if (!thread.matches("[A-Za-z_][A-Za-z0-9_.-]*#[0-9]+")) {
      throw new IllegalArgumentException("thread must be role#i, got '" + thread + "'");
    }
    if (cached < 0 || used < cached) {
      throw new IllegalArgumentException("need 0 <= cached <= used, got used=" + used + " cached=" + cached);
    }
  }
}
