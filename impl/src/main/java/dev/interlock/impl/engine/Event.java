package dev.interlock.impl.engine;

import dev.interlock.model.state.Phase;
import dev.interlock.model.state.Violation;
import java.util.Objects;
import java.util.Optional;

/**
 * One transition as the engine took it: thread, step text, phase, device bytes after it, and the
 * violation when it failed.
 */
public record Event(long seq, String thread, String step, Optional<Phase> phase, long used, long cached, Optional<Violation> failure) {
  public Event {
    Objects.requireNonNull(thread, "thread");
    Objects.requireNonNull(step, "step");
    Objects.requireNonNull(phase, "phase");
    Objects.requireNonNull(failure, "failure");
  }
}
