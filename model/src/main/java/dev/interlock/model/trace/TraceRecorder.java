package dev.interlock.model.trace;

import dev.interlock.model.state.Model;
import dev.interlock.model.step.IfFree;
import dev.interlock.model.step.Step;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Builds a trace from concrete states as a schedule runs; the one place transitions become trace lines. */
public final class TraceRecorder {
  private final Model model;
  private final List<TraceStep> steps = new ArrayList<>();
  private final List<TraceStep> after = new ArrayList<>();

  public TraceRecorder(Model model) {
    this.model = model;
  }

  /** Records move t's transition from {@code before}; {@code after} is the state step() left. */
  public void record(long[] before, int t, long[] after) {
    steps.add(line(steps.size() + 1, before, t, after));
  }

  /**
   * Records move t's transition as one of the trace's steps after its violation ({@link Trace#after}): what the
   * failing job does after an ignored failure.
   */
  public void recordAfter(long[] before, int t, long[] next) {
    after.add(line(steps.size() + after.size() + 1, before, t, next));
  }

  private TraceStep line(int index, long[] before, int t, long[] next) {
    Step step = model.nextStep(before, t).orElseThrow(() -> new IllegalStateException(model.threadName(t) + " has finished"));
    return new TraceStep(index, model.threadName(t), step, model.nextPhase(before, t), model.used(next), model.cached(next),
        step instanceof IfFree ? Optional.of(model.free(before)) : Optional.empty(), model.missingUses(before, t));
  }

  /** Transitions recorded so far. */
  public int length() {
    return steps.size();
  }

  /** The finished trace. */
  public Trace finish(String source, Optional<Long> seed, Outcome outcome) {
    return new Trace(model.design().name(), source, Parameters.of(model.design()), seed, outcome, steps, after);
  }
}
