package dev.interlock.impl.lincheck;

import org.jetbrains.lincheck.LincheckAssertionError;
import org.jetbrains.lincheck.datastructures.ManagedStrategyGuarantee;
import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;
import org.jetbrains.lincheck.datastructures.Options;
import org.jetbrains.lincheck.datastructures.StressOptions;

/**
 * impl's Lincheck budget ({@link LincheckBudget}: the same {@code -Dinterlock.lincheck.*} knobs and the same printed
 * line) for the GPU module's Lincheck tests, which live in another module and package: impl keeps the budget
 * package-private, so this class, in impl's package but the GPU module's test sources, hands it on. It adds what a test
 * on the real driver needs: extra guarantees for model checking, and stress runs on real threads.
 */
public final class GpuLincheckRuns {
  private GpuLincheckRuns() {}

  /**
   * Model-checks {@code test} against {@code spec} with the default budget (overridden by system properties) and
   * {@code guarantees} added to impl's.
   *
   * @return Lincheck's failure, or null when every explored interleaving was linearizable
   */
  public static LincheckAssertionError modelCheck(Class<?> test, Class<?> spec, int iterations, int invocations,
      int threads, int actors, int actorsBefore, int actorsAfter, ManagedStrategyGuarantee... guarantees) {
    String name = test.getSimpleName() + " (model checking)";
    LincheckBudget budget = new LincheckBudget(iterations, invocations, threads, actors, actorsBefore, actorsAfter)
        .fromSystemProperties().print(name);
    ModelCheckingOptions options = budget.modelChecking().sequentialSpecification(spec);
    for (ManagedStrategyGuarantee g : guarantees) {
      options = options.addGuarantee(g);
    }
    return run(name, test, options);
  }

  /**
   * Runs {@code test}'s operations on real threads at once (Lincheck's stress mode, no instrumentation of the code under
   * test) and checks the results against {@code spec}, with the same budget.
   *
   * @return Lincheck's failure, or null when every run was linearizable
   */
  public static LincheckAssertionError stress(Class<?> test, Class<?> spec, int iterations, int invocations, int threads,
      int actors, int actorsBefore, int actorsAfter) {
    String name = test.getSimpleName() + " (stress, real threads)";
    LincheckBudget b = new LincheckBudget(iterations, invocations, threads, actors, actorsBefore, actorsAfter)
        .fromSystemProperties();
    System.out.printf("[lincheck] %s: stress, iterations=%d invocations=%d threads=%d actors=%d actorsBefore=%d"
        + " actorsAfter=%d (the same -D%s* as model checking)%n", name, b.iterations(), b.invocations(), b.threads(),
        b.actors(), b.actorsBefore(), b.actorsAfter(), LincheckBudget.PREFIX);
    StressOptions options = new StressOptions().iterations(b.iterations()).invocationsPerIteration(b.invocations())
        .threads(b.threads()).actorsPerThread(b.actors()).actorsBefore(b.actorsBefore()).actorsAfter(b.actorsAfter())
        .sequentialSpecification(spec);
    return run(name, test, options);
  }

  private static LincheckAssertionError run(String name, Class<?> test, Options<?, ?> options) {
    long start = System.nanoTime();
    try {
      options.check(test);
      System.out.printf("[lincheck] %s: no violation of linearizability found (%.1fs)%n", name, seconds(start));
      return null;
    } catch (LincheckAssertionError e) {
      System.out.printf("[lincheck] %s: Lincheck reports a failure (%.1fs):%n%s%n", name, seconds(start), e.getMessage());
      return e;
    }
  }

  private static double seconds(long startNanos) {
    return (System.nanoTime() - startNanos) / 1e9;
  }
}
