package dev.interlock.impl.engine;

import dev.interlock.model.state.Phase;
import dev.interlock.model.state.Violation;
import dev.interlock.model.step.Step;
import java.util.Objects;
import java.util.Optional;

/**
 * One transition as the engine took it: thread, job, the design's step, phase, device bytes after it, when
 * (nanoseconds on the run's clock), and the violation when it failed.
 */
public record Event(long seq, String thread, int job, Step step, Optional<Phase> phase, long used, long cached, long nanos,
    Optional<Violation> failure) {
  public Event {
    Objects.requireNonNull(thread, "thread");
    Objects.requireNonNull(step, "step");
    Objects.requireNonNull(phase, "phase");
    Objects.requireNonNull(failure, "failure");
  }
}
