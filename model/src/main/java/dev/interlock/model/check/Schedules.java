package dev.interlock.model.check;

import dev.interlock.model.state.Model;
import dev.interlock.model.state.Violation;
import dev.interlock.model.state.ViolationKind;
import dev.interlock.model.trace.Outcome;
import dev.interlock.model.trace.Trace;
import dev.interlock.model.trace.TraceRecorder;
import java.util.Optional;
import java.util.SplittableRandom;

/** Runs single schedules of a model, each a sequence of choices among the threads that can move. */
public final class Schedules {
  private Schedules() {}

  /** Picks one of n threads that can move (0 .. n - 1); the order is by thread index. */
  @FunctionalInterface
  public interface Chooser {
    int choose(int n);
  }

  /**
   * Runs one schedule to its end: every thread finished, a violation, or a deadlock.
   *
   * <p>A thread "can move" when its step is enabled or fails; a failing step ends the schedule,
   * so a chooser that picks it finds the violation.
   */
  public static Trace run(Model model, String source, Optional<Long> seed, Chooser chooser) {
    int n = model.threads();
    long[] s = model.initial();
    long[][] outs = new long[n][s.length];
    int[] codes = new int[n];
    int[] movable = new int[n];
    TraceRecorder rec = new TraceRecorder(model);
    while (true) {
      int count = 0;
      boolean unfinished = false;
      for (int t = 0; t < n; t++) {
        codes[t] = model.step(s, t, outs[t]);
        if (codes[t] != Model.FINISHED) {
          unfinished = true;
          if (codes[t] != Model.BLOCKED) {
            movable[count++] = t;
          }
        }
      }
      if (!unfinished) {
        return rec.finish(source, seed, new Outcome.Completed());
      }
      if (count == 0) {
        return rec.finish(source, seed, new Outcome.Violated(new Violation(ViolationKind.DEADLOCK, model.explainDeadlock(s))));
      }
      int pick = chooser.choose(count);
      if (pick < 0 || pick >= count) {
        throw new IllegalArgumentException("chooser returned " + pick + " for " + count + " choices");
      }
      int t = movable[pick];
      rec.record(s, t, outs[t]);
      ViolationKind v = Model.violation(codes[t]);
      if (v != null) {
        return rec.finish(source, seed, new Outcome.Violated(new Violation(v, model.explain(s, t, v))));
      }
      s = outs[t].clone();
    }
  }

  /**
   * Runs up to {@code count} uniformly random schedules from {@code seed} and returns the first
   * that ends in a violation; schedule i uses the seed {@code seed + i} so it can be rerun alone.
   */
  public static RandomResult random(Model model, String source, long seed, int count) {
    long start = System.nanoTime();
    long transitions = 0;
    for (int i = 0; i < count; i++) {
      SplittableRandom rnd = new SplittableRandom(seed + i);
      Trace t = run(model, source, Optional.of(seed + i), rnd::nextInt);
      transitions += t.length();
      if (t.outcome() instanceof Outcome.Violated) {
        return new RandomResult(seed, i + 1, Optional.of(t), transitions, (System.nanoTime() - start) / 1e9);
      }
    }
    return new RandomResult(seed, count, Optional.empty(), transitions, (System.nanoTime() - start) / 1e9);
  }

  /**
   * Result of random schedules.
   *
   * @param seed        the seed of the first schedule
   * @param schedules   schedules run (up to and including the violating one)
   * @param violating   the first schedule that violated, its own seed in the trace
   * @param transitions transitions over all schedules run
   * @param seconds     wall time
   */
  public record RandomResult(long seed, int schedules, Optional<Trace> violating, long transitions, double seconds) {}
}
