package dev.interlock.model.check;

import dev.interlock.model.state.Model;
import dev.interlock.model.state.Violation;
import dev.interlock.model.state.ViolationKind;
import dev.interlock.model.trace.Outcome;
import dev.interlock.model.trace.Trace;
import dev.interlock.model.trace.TraceRecorder;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;

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
    TraceRecorder rec = new TraceRecorder(model);
    End end = walk(model, chooser, rec);
    return rec.finish(source, seed, end.violation() == null ? new Outcome.Completed() : new Outcome.Violated(end.violation()));
  }

  /** How a schedule ended: its transitions, and its violation (null when every thread finished). */
  private record End(int length, Violation violation) {}

  /** Runs one schedule; records its transitions when {@code rec} is not null (random schedules skip that, for speed). */
  private static End walk(Model model, Chooser chooser, TraceRecorder rec) {
    int n = model.moves();
    long[] s = model.initial();
    long[][] outs = new long[n][s.length];
    int[] codes = new int[n];
    int[] movable = new int[n];
    int length = 0;
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
        return new End(length, null);
      }
      if (count == 0) {
        return new End(length, new Violation(ViolationKind.DEADLOCK, model.explainDeadlock(s)));
      }
      int pick = chooser.choose(count);
      if (pick < 0 || pick >= count) {
        throw new IllegalArgumentException("chooser returned " + pick + " for " + count + " choices");
      }
      int t = movable[pick];
      if (rec != null) {
        rec.record(s, t, outs[t]);
      }
      length++;
      ViolationKind v = Model.violation(codes[t]);
      if (v != null) {
        return new End(length, new Violation(v, model.explain(s, t, v)));
      }
      System.arraycopy(outs[t], 0, s, 0, s.length);
    }
  }

  /**
   * Runs up to {@code count} uniformly random schedules from {@code seed} on one thread and returns the first that ends
   * in a violation; schedule i uses the seed {@code seed + i} so it can be rerun alone.
   */
  public static RandomResult random(Model model, String source, long seed, int count) {
    return random(model, source, seed, count, 1, SearchListener.NONE);
  }

  /**
   * As {@link #random(Model, String, long, int)} on {@code threads} threads: the violation reported is the one of the
   * smallest schedule index, whatever the number of threads and their timing, so the result is the one thread's.
   * Threads take indices in increasing order and stop taking them past the smallest violating index found so far, so
   * every schedule below the one reported has run and not violated.
   */
  public static RandomResult random(Model model, String source, long seed, int count, int threads, SearchListener listener) {
    if (count < 1 || threads < 1) {
      throw new IllegalArgumentException("need at least 1 schedule and 1 thread, got " + count + " and " + threads);
    }
    long start = System.nanoTime();
    RandomRun run = new RandomRun(model, seed, count, listener);
    if (threads == 1) {
      run.work();
    } else {
      Thread[] workers = new Thread[threads];
      for (int k = 0; k < threads; k++) {
        workers[k] = new Thread(run::work, "interlock-random-" + k);
        workers[k].setDaemon(true);
        workers[k].start();
      }
      for (Thread w : workers) {
        joinUninterruptibly(w);
      }
    }
    run.rethrow();
    double seconds = (System.nanoTime() - start) / 1e9;
    int first = run.firstViolating.get();
    // the schedules ran unrecorded; the one reported runs again, recorded, from its own seed: the same choices
    Optional<Trace> violating = first < count
        ? Optional.of(run(model, source, Optional.of(seed + first), new SplittableRandom(seed + first)::nextInt))
        : Optional.empty();
    int schedules = first < count ? first + 1 : count;
    return new RandomResult(seed, schedules, violating, run.transitions.sum(), run.run.sum(), threads, seconds);
  }

  private static void joinUninterruptibly(Thread t) {
    boolean interrupted = false;
    while (true) {
      try {
        t.join();
        break;
      } catch (InterruptedException e) {
        interrupted = true;
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }

  /** Random schedules shared by the threads that run them: the next index to take, and the smallest violating one. */
  private static final class RandomRun {
    private final Model model;
    private final long seed;
    private final int count;
    private final SearchListener listener;
    private final AtomicInteger next = new AtomicInteger();
    private final AtomicInteger firstViolating;
    private final LongAdder run = new LongAdder();
    private final LongAdder transitions = new LongAdder();
    private final AtomicReference<RuntimeException> failure = new AtomicReference<>();

    RandomRun(Model model, long seed, int count, SearchListener listener) {
      this.model = model;
      this.seed = seed;
      this.count = count;
      this.listener = listener;
      this.firstViolating = new AtomicInteger(count);
    }

    void work() {
      try {
        int mine = 0;
        for (int i = next.getAndIncrement(); i < count && i < firstViolating.get(); i = next.getAndIncrement()) {
          End end = walk(model, new SplittableRandom(seed + i)::nextInt, null);
          transitions.add(end.length());
          run.increment();
          if (end.violation() != null) {
            firstViolating.accumulateAndGet(i, Math::min);
          }
          if (++mine % 64 == 0) {
            listener.schedules(run.sum(), transitions.sum());
          }
        }
      } catch (RuntimeException e) {
        failure.compareAndSet(null, e);
        firstViolating.set(-1);
      }
    }

    void rethrow() {
      if (failure.get() != null) {
        throw failure.get();
      }
    }
  }

  /**
   * Result of random schedules.
   *
   * @param seed        the seed of the first schedule
   * @param schedules   schedules up to and including the first violating one (by index), or all when none violated:
   *                    the same whatever the number of threads
   * @param violating   the violating schedule of the smallest index, its own seed in the trace
   * @param transitions transitions over all schedules run
   * @param run         schedules run: with several threads, schedules past the violating one may have run too
   * @param threads     threads that ran them
   * @param seconds     wall time
   */
  public record RandomResult(long seed, int schedules, Optional<Trace> violating, long transitions, long run, int threads,
      double seconds) {
    public RandomResult {
      if (schedules < 1 || run < schedules || threads < 1 || transitions < 0 || seconds < 0) {
        throw new IllegalArgumentException("bad statistics: schedules=" + schedules + " run=" + run + " threads=" + threads
            + " transitions=" + transitions + " seconds=" + seconds);
      }
    }

    /** Schedules run per second of wall time. */
    public double schedulesPerSecond() {
      return seconds > 0 ? run / seconds : run;
    }
  }
}
