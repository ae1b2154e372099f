package dev.interlock.impl.engine;

import dev.interlock.model.state.Phase;
import dev.interlock.model.state.Violation;
import dev.interlock.model.step.IfFree;
import dev.interlock.model.step.Step;
import java.util.Objects;
import java.util.Optional;

/**
 * One transition as the engine took it: thread, job, the design's step, phase, device bytes after it, when
 * (nanoseconds on the run's clock), the violation when it failed, and for an {@code if free} step the free
 * bytes it read.
 *
 * <p>An {@code if free} step's phase is the branch it took ({@link Phase#THEN} or {@link Phase#ELSE}) and
 * {@code free} the bytes it read (vram minus live and cached bytes, before the step), as in a trace.
 */
public record Event(long seq, String thread, int job, Step step, Optional<Phase> phase, long used, long cached, long nanos,
    Optional<Violation> failure, Optional<Long> free) {
  public Event {
    Objects.requireNonNull(thread, "thread");
    Objects.requireNonNull(step, "step");
    Objects.requireNonNull(phase, "phase");
    Objects.requireNonNull(failure, "failure");
    Objects.requireNonNull(free, "free");
    if (free.isPresent() && !(step instanceof IfFree)) {
      throw new IllegalArgumentException("only an if free step reads free bytes: " + step.text());
    }
  }

  /** A transition of a step that is not an {@code if free}. */
  public Event(long seq, String thread, int job, Step step, Optional<Phase> phase, long used, long cached, long nanos,
      Optional<Violation> failure) {
    this(seq, thread, job, step, phase, used, cached, nanos, failure, Optional.empty());
  }
}
