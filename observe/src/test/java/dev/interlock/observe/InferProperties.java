package dev.interlock.observe;

import dev.interlock.impl.engine.Event;
import dev.interlock.model.design.Design;
import dev.interlock.model.design.DesignException;
import dev.interlock.model.design.DesignParser;
import dev.interlock.model.state.Model;
import dev.interlock.model.state.Phase;
import dev.interlock.model.state.Violation;
import dev.interlock.model.state.ViolationKind;
import dev.interlock.model.step.IfFree;
import dev.interlock.model.step.Step;
import dev.interlock.properties.engine.Config;
import dev.interlock.properties.engine.Gen;
import dev.interlock.properties.engine.PropertyRunner;
import dev.interlock.properties.engine.Source;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Random designs with branches (if free, choose) and fallible allocations (on oom ignore, on oom handlers), run under a
 * random schedule, written as captures with job ranges: the design inferred from each capture conforms to it.
 *
 * <p>Each design runs twice: on the engine (real threads, jitter seeded by the case) and under a random schedule of the
 * model (which reaches interleavings the engine's timing rarely does); both are written through CaptureWriter.
 */
class InferProperties {
  /** A random design and the seed of the schedule it is run under. */
  record Case(String text, long runSeed) {
    @Override
    public String toString() {
      return text + "--- schedule seed " + runSeed;
    }
  }

  private static final String[] SIZES = {"2GiB", "4GiB", "6GiB", "8GiB", "10GiB"};

  /** One job-body block, numbered k so that its buffers, kernels and cpu steps have names of their own. */
  private static void block(Source s, int k, StringBuilder b) {
    String size = SIZES[s.choose(SIZES.length - 1)];
    String buf = "b" + k;
    switch (s.choose(5)) {
      case 5 -> b.append("  alloc ").append(buf).append(' ').append(size).append("\n  on oom\n  cpu oncpu").append(k)
          .append("\n  else\n  kernel k").append(k).append(" uses ").append(buf).append("\n  free ").append(buf).append("\n  end\n");
      case 0 -> b.append("  alloc ").append(buf).append(' ').append(size).append("\n  on oom\n  cpu fallback").append(k)
          .append("\n  alloc ").append(buf).append(" 1GiB\n  end\n  kernel k").append(k).append(" uses ").append(buf)
          .append("\n  free ").append(buf).append('\n');
      case 1 -> b.append("  alloc ").append(buf).append(' ').append(size).append("\n  on oom ignore\n  kernel k").append(k)
          .append(" uses ").append(buf).append("\n  free ").append(buf).append('\n');
      case 2 -> b.append("  if free >= ").append(SIZES[s.choose(SIZES.length - 1)]).append("\n  alloc ").append(buf).append(' ')
          .append(size).append("\n  kernel k").append(k).append(" uses ").append(buf).append("\n  free ").append(buf)
          .append("\n  else\n  cpu slow").append(k).append("\n  end\n");
      case 3 -> b.append("  choose\n  cpu left").append(k).append("\n  or\n  alloc ").append(buf).append(' ').append(size)
          .append("\n  on oom ignore\n  cpu right").append(k).append("\n  free ").append(buf).append("\n  end\n");
      default -> b.append("  lock m\n  alloc ").append(buf).append(' ').append(size).append("\n  kernel k").append(k)
          .append(" uses ").append(buf).append("\n  free ").append(buf).append("\n  unlock m\n");
    }
  }

  static final Gen<Case> CASES = s -> {
    StringBuilder b = new StringBuilder("design rnd\nvram 16GiB\nmutex m\nrole w x").append(2 + s.choose(1)).append(" jobs ")
        .append(2 + s.choose(2)).append("\n  cpu prep\n");
    int blocks = 1 + s.choose(2);
    for (int k = 0; k < blocks; k++) {
      block(s, k, b);
    }
    b.append("  cpu done\n");
    return new Case(b.toString(), s.choose(1_000_000));
  };

  /**
   * The events of one random schedule of {@code d} on the model: each move (a thread, or a choose's second path) picked
   * at random among those that do not block; a failure other than an ignored one ends the run.
   */
  static List<Event> randomRun(Design d, long seed) {
    Model m = new Model(d);
    long[] s = m.initial();
    Random rnd = new Random(seed);
    List<Event> out = new ArrayList<>();
    long[] next = new long[m.width()];
    for (int n = 0; n < 100_000; n++) {
      List<Integer> moves = new ArrayList<>();
      for (int mv = 0; mv < m.moves(); mv++) {
        int code = m.step(s, mv, next);
        if (code != Model.BLOCKED && code != Model.FINISHED) {
          moves.add(mv);
        }
      }
      if (moves.isEmpty()) {
        return out;
      }
      int mv = moves.get(rnd.nextInt(moves.size()));
      Step step = m.nextStep(s, mv).orElseThrow();
      Optional<Phase> phase = m.nextPhase(s, mv);
      Optional<Long> free = step instanceof IfFree ? Optional.of(m.free(s)) : Optional.empty();
      int t = mv % m.threads();
      int job = m.view(s, t).job();
      int code = m.step(s, mv, next);
      Optional<Violation> failure = Optional.empty();
      if (code != Model.MOVED && Model.violation(code) != ViolationKind.SWALLOWED_OOM) {
        ViolationKind kind = Model.violation(code);
        failure = Optional.of(new Violation(kind, m.explain(s, mv, kind)));
      }
      out.add(new Event(n, m.threadName(t), job, step, phase, m.used(next), m.cached(next), 1000L * n, failure, free));
      if (failure.isPresent()) {
        return out;
      }
      long[] swap = s;
      s = next;
      next = swap;
    }
    return out;
  }

  @Test
  void designsInferredFromRunsWithBranchesAndHandledFailuresConformToTheirRun() {
    AtomicInteger failures = new AtomicInteger();
    AtomicInteger branches = new AtomicInteger();
    PropertyRunner.assertHolds("designs inferred from runs with branches and handled failures conform", CASES, c -> {
      Design d;
      try {
        d = DesignParser.parse("random.design", c.text());
      } catch (DesignException e) {
        throw new AssertionError(e.getMessage() + "\n" + c.text(), e);
      }
      // the engine's run (real threads, jitter seeded by the case) and a random schedule of the model
      check(d, c, Runs.run(d, c.runSeed()).events(), "engine run", failures, branches);
      check(d, c, randomRun(d, c.runSeed()), "model schedule", failures, branches);
      return true;
    }, Config.defaults("observe-infer-branches").withTries(50));
    System.out.println("[interlock] observe-infer-branches: " + branches.get() + " inferred designs had branches; "
        + failures.get() + " failed allocations were stepped as handled or ignored");
    org.assertj.core.api.Assertions.assertThat(branches.get()).as("inferred designs with a branch").isGreaterThanOrEqualTo(10);
    org.assertj.core.api.Assertions.assertThat(failures.get()).as("handled or ignored failures validated").isGreaterThanOrEqualTo(5);
  }

  /** Writes {@code run} of d as a capture with job ranges, infers a design from it, and asserts that it conforms. */
  private static void check(Design d, Case c, List<Event> run, String what, AtomicInteger failures, AtomicInteger branches) {
    {
      Capture cap = Runs.capture(CaptureWriter.records(d, run, true, true));
      String inferred = Inferrer.infer(cap, Mapping.NONE, Optional.of(d.vram()));
      String shown = "\n--- design\n" + c + "\n--- inferred\n" + inferred + "--- capture\n" + CaptureWriter.text(cap.events());
      Design back;
      try {
        back = DesignParser.parse("inferred.design", inferred);
      } catch (DesignException e) {
        throw new AssertionError("the inferred design does not parse: " + e.getMessage() + shown, e);
      }
      Validation v = Validator.validate(back, "inferred.design", inferred, cap, Mapping.NONE);
      if (!(v instanceof Validation.Conforms k)) {
        if (System.getenv("INFER_DUMP") != null) {
          try {
            java.nio.file.Files.writeString(java.nio.file.Path.of(System.getenv("INFER_DUMP")), CaptureWriter.text(cap.events()));
          } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
          }
        }
        throw new AssertionError(what + ": " + v.summary() + shown);
      }
      failures.addAndGet(k.failures().size());
      if (inferred.contains("\n  on oom") || inferred.contains("\n  if free") || inferred.contains("\n  choose")) {
        branches.incrementAndGet();
      }
    }
  }
}
