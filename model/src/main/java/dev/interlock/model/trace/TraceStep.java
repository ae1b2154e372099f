package dev.interlock.model.trace;

import dev.interlock.model.state.Phase;
import dev.interlock.model.step.IfFree;
import dev.interlock.model.step.Step;
import dev.interlock.model.step.Kernel;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One transition of a trace.
 *
 * @param index  1-based position in the trace
 * @param thread {@code role#i}
 * @param step   the step of the design, e.g. {@code alloc staged 12GiB}; trace files hold its text (an {@code if free}
 *               step is kept without its branches, an alloc without its {@code on oom} lines, as its trace line has
 *               it)
 * @param phase  begin or end for interval steps, then or else for {@code if free}, oom for an allocation that failed
 *               and whose {@code on oom} took over; empty otherwise
 * @param used   device bytes in use after the transition (live plus pool-cached: cudaMemGetInfo's view)
 * @param cached bytes the pool keeps cached after the transition
 * @param free   for an {@code if free} step, the free bytes it read (vram minus live and cached bytes before it)
 * @param without for a kernel's begin, the buffers it uses that are missing (their allocation failed and was ignored):
 *               it ran without them, and its result is wrong; empty otherwise
 */
public record TraceStep(int index, String thread, Step step, Optional<Phase> phase, long used, long cached,
    Optional<Long> free, List<String> without) {
  /** Thread names: {@code role#i}, or {@code role#i/TASK@J} and {@code role#i/TASK@J.k} for task threads. */
  public static final String THREAD_NAME = "[A-Za-z_][A-Za-z0-9_.-]*#[0-9]+(/[A-Za-z_][A-Za-z0-9_.-]*@[0-9]+(\\.[0-9]+)?)?";

  public TraceStep {
    if (index < 1) {
      throw new IllegalArgumentException("trace index must be positive, got " + index);
    }
    Objects.requireNonNull(thread, "thread");
    Objects.requireNonNull(step, "step");
    Objects.requireNonNull(phase, "phase");
    Objects.requireNonNull(free, "free");
    step = dev.interlock.model.step.Steps.header(step);
    if (!thread.matches(THREAD_NAME)) {
      throw new IllegalArgumentException("thread must be role#i or role#i/TASK@J, got '" + thread + "'");
    }
    if (free.isPresent() != (step instanceof IfFree)) {
      throw new IllegalArgumentException("the free bytes read belong to if free steps, and only to them: " + step.text());
    }
    if (cached < 0 || used < cached) {
      throw new IllegalArgumentException("need 0 <= cached <= used, got used=" + used + " cached=" + cached);
    }
    without = List.copyOf(without);
    if (!without.isEmpty() && !(step instanceof Kernel k && phase.equals(Optional.of(Phase.BEGIN))
        && k.uses().containsAll(without))) {
      throw new IllegalArgumentException("only a kernel's begin runs without buffers, and only ones it uses: "
          + step.text() + ", without " + without);
    }
  }

  /** A step that ran with all its buffers. */
  public TraceStep(int index, String thread, Step step, Optional<Phase> phase, long used, long cached,
      Optional<Long> free) {
    this(index, thread, step, phase, used, cached, free, List.of());
  }

  /** This step at another index (a continuation's steps are numbered on from the violation). */
  public TraceStep at(int newIndex) {
    return new TraceStep(newIndex, thread, step, phase, used, cached, free, without);
  }

  /** A step that is not an {@code if free}. */
  public TraceStep(int index, String thread, Step step, Optional<Phase> phase, long used, long cached) {
    this(index, thread, step, phase, used, cached, Optional.empty());
  }
}
