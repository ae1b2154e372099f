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

  public TraceRecorder(Model model) {
    this.model = model;
  }

  /** Records thread t's transition from {@code before}; {@code after} is the state step() left. */
  public void record(long[] before, int t, long[] after) {
    Step step = model.nextStep(before, t).orElseThrow(() -> new IllegalStateException(model.threadName(t) + " has finished"));
    steps.add(new TraceStep(steps.size() + 1, model.threadName(t), step, model.nextPhase(before, t),
        model.used(after), model.cached(after),
        step instanceof IfFree ? Optional.of(model.free(before)) : Optional.empty()));
  }

  /** Transitions recorded so far. */
  public int length() {
    return steps.size();
  }

  /** The finished trace. */
  public Trace finish(String source, Optional<Long> seed, Outcome outcome) {
    return new Trace(model.design().name(), source, Parameters.of(model.design()), seed, outcome, steps);
  }
}
