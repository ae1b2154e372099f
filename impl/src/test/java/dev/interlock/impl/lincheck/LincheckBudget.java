package dev.interlock.impl.lincheck;

import static org.jetbrains.lincheck.datastructures.ManagedStrategyGuaranteeKt.forClasses;

import dev.interlock.model.design.Sizes;
import dev.interlock.model.step.Names;
import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;

/**
 * How much a Lincheck test explores: each value comes from a system property
 * ({@code -Dinterlock.lincheck.iterations=N}, {@code .invocations}, {@code .threads}, {@code .actors},
 * {@code .actorsBefore}, {@code .actorsAfter}) or the test's small default, so that {@code mvn verify}
 * stays quick on CI and a longer search is one flag away. The values in force are printed.
 *
 * @param iterations   scenarios generated
 * @param invocations  interleavings explored per scenario
 * @param threads      parallel threads per scenario
 * @param actors       operations per thread in the parallel part
 * @param actorsBefore operations run sequentially before the parallel part
 * @param actorsAfter  operations run sequentially after it
 */
record LincheckBudget(int iterations, int invocations, int threads, int actors, int actorsBefore, int actorsAfter) {
  static final String PREFIX = "interlock.lincheck.";

  LincheckBudget {
    if (iterations < 1 || invocations < 1 || threads < 1 || actors < 1 || actorsBefore < 0 || actorsAfter < 0) {
      throw new IllegalArgumentException(String.format("bad Lincheck budget: iterations=%d invocations=%d threads=%d"
          + " actors=%d actorsBefore=%d actorsAfter=%d", iterations, invocations, threads, actors, actorsBefore, actorsAfter));
    }
  }

  /** The defaults, each overridden by its system property when set. */
  LincheckBudget fromSystemProperties() {
    return new LincheckBudget(
        property("iterations", iterations),
        property("invocations", invocations),
        property("threads", threads),
        property("actors", actors),
        property("actorsBefore", actorsBefore),
        property("actorsAfter", actorsAfter));
  }

  private static int property(String name, int fallback) {
    String v = System.getProperty(PREFIX + name);
    if (v == null || v.isBlank()) {
      return fallback;
    }
    try {
      return Integer.parseInt(v.trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("-D" + PREFIX + name + " must be an integer, got '" + v + "'", e);
    }
  }

  /**
   * Model-checking options with this budget.
   *
   * <p>Pure helpers that touch no shared mutable state are left out of the analysis: name
   * validation ({@link Names}: a regex match on a static Pattern, whose node fields Lincheck would
   * otherwise count as thousands of shared-memory switch points in every DeviceBuffer and Job
   * constructor, burying the few switch points that matter), size formatting ({@link Sizes}) and
   * the probe's parsing of step text ({@code engine.StepTexts}: a pure function of the text, whose
   * cache would otherwise add switch points at every step of a pipeline written with step text).
   */
  /**
   * Wall time after which Lincheck calls an invocation hung. Its default, 30 s, is what one invocation of a design's
   * engine takes on two loaded cores (Lincheck's waiting threads spin), so CI saw false hangs; a real deadlock Lincheck
   * finds by itself, from the threads it manages. (Lincheck marks the option internal: the name is its JVM name.)
   */
  static final long INVOCATION_TIMEOUT_MS = 180_000;

  /** The engine's package-private step-text parser and cache. */
  private static final String STEP_TEXTS = "dev.interlock.impl.engine.StepTexts";

  ModelCheckingOptions modelChecking() {
    return new ModelCheckingOptions()
        .invocationTimeout$lincheck(INVOCATION_TIMEOUT_MS)
        .addGuarantee(forClasses(Names.class.getName(), Sizes.class.getName(), STEP_TEXTS).allMethods().ignore())
        .iterations(iterations)
        .invocationsPerIteration(invocations)
        .threads(threads)
        .actorsPerThread(actors)
        .actorsBefore(actorsBefore)
        .actorsAfter(actorsAfter);
  }

  /** Prints the budget, so that test output says how far the search went. */
  LincheckBudget print(String test) {
    System.out.printf("[lincheck] %s: model checking, iterations=%d invocations=%d threads=%d actors=%d"
        + " actorsBefore=%d actorsAfter=%d (override with -D%s{iterations,invocations,threads,actors,actorsBefore,actorsAfter})%n",
        test, iterations, invocations, threads, actors, actorsBefore, actorsAfter, PREFIX);
    return this;
  }
}
