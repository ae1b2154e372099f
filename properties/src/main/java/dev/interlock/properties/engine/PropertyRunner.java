package dev.interlock.properties.engine;

import java.util.Objects;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * Checks properties: generates cases from per-try seeds, shrinks the first failure, and offers
 * JUnit-friendly assertions that print one line per property and throw {@link AssertionError}.
 */
public final class PropertyRunner {

  private PropertyRunner() {}

  /**
   * Checks {@code property} on {@code config.tries()} valid cases; it fails when the predicate
   * returns false or throws ({@link AssertionError} or any exception). Invalid cases ({@link
   * Overrun}, {@link Unsatisfiable}) are skipped, at most {@code tries} of them.
   *
   * @throws Unsatisfiable when not a single valid case could be generated
   * @throws IllegalStateException when the generator throws, or the shrunk failure does not
   *     reproduce (a nondeterministic property or generator)
   */
  public static <T> PropertyResult<T> check(
      String name, Gen<T> gen, Predicate<? super T> property, Config config) {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(gen, "gen");
    Objects.requireNonNull(property, "property");
    Objects.requireNonNull(config, "config");
    int valid = 0;
    int invalid = 0;
    Throwable lastInvalid = null;
    for (int i = 0; valid < config.tries() && invalid < config.tries(); i++) {
      Trial<T> trial = Trial.run(gen, property, Source.random(Seeds.forTry(config.seed(), i)));
      switch (trial.verdict()) {
        case PASSED -> valid++;
        case INVALID -> {
          invalid++;
          lastInvalid = trial.failure();
        }
        case BROKEN -> throw new IllegalStateException(
            "generator of '" + name + "' threw on try " + (i + 1) + " (seed " + config.seed() + ")",
            trial.failure());
        case FAILED -> {
          return shrunk(name, gen, property, config, i, trial);
        }
        default -> throw new AssertionError(trial.verdict());
      }
    }
    if (valid == 0) {
      throw new Unsatisfiable(
          "'" + name + "': no valid case in " + invalid + " tries (seed " + config.seed() + ")",
          lastInvalid);
    }
    return new PropertyResult.Passed<>(name, config.seed(), valid);
  }

  /** Checks with {@link Config#defaults}, prints one line, and throws with the report on failure. */
  public static <T> void assertHolds(String name, Gen<T> gen, Predicate<? super T> property) {
    assertHolds(name, gen, property, Config.defaults(name));
  }

  /** Checks, prints one line, and throws {@link AssertionError} (report as message, failure as cause). */
  public static <T> void assertHolds(
      String name, Gen<T> gen, Predicate<? super T> property, Config config) {
    PropertyResult<T> result = check(name, gen, property, config);
    System.out.println(summary(result, config));
    if (result instanceof PropertyResult.Failed<T> failed) {
      throw new AssertionError(failed.report(), failed.failure());
    }
  }

  /** Asserts the property fails (a known-bad case is caught) under {@link Config#defaults}. */
  public static <T> PropertyResult.Failed<T> assertFails(
      String name, Gen<T> gen, Predicate<? super T> property) {
    return assertFails(name, gen, property, Config.defaults(name));
  }

  /** Asserts the property fails, prints its report, and returns the shrunk failure. */
  public static <T> PropertyResult.Failed<T> assertFails(
      String name, Gen<T> gen, Predicate<? super T> property, Config config) {
    PropertyResult<T> result = check(name, gen, property, config);
    System.out.println(summary(result, config));
    if (result instanceof PropertyResult.Failed<T> failed) {
      System.out.println(failed.report());
      return failed;
    }
    throw new AssertionError("expected property '" + name + "' to fail, but: " + result.report());
  }

  private static <T> PropertyResult.Failed<T> shrunk(
      String name, Gen<T> gen, Predicate<? super T> property, Config config, int tryIndex,
      Trial<T> original) {
    Shrinker.Replayer replayer = candidate -> {
      Trial<T> trial = Trial.run(gen, property, Source.replay(candidate));
      return trial.verdict() == Trial.Verdict.FAILED
          ? Optional.of(trial.consumed())
          : Optional.empty();
    };
    ShrinkResult shrink =
        new Shrinker(config.maxShrinks()).shrinkReplaying(original.consumed(), replayer);
    Trial<T> last = Trial.run(gen, property, Source.replay(shrink.choices()));
    if (last.verdict() != Trial.Verdict.FAILED) {
      throw new IllegalStateException(
          "'" + name + "' is flaky: its shrunk case did not fail again (seed " + config.seed()
              + ", try " + (tryIndex + 1) + ", original " + Text.show(original.value()) + ")",
          original.failure());
    }
    return new PropertyResult.Failed<>(name, config.seed(), tryIndex, original.value(),
        last.value(), last.consumed(), last.failure(), shrink.steps());
  }

  private static String summary(PropertyResult<?> result, Config config) {
    String outcome = result instanceof PropertyResult.Failed<?> f
        ? "FAILED on try " + (f.tryIndex() + 1) + ", shrunk in " + f.shrinkSteps() + " steps"
        : "passed";
    return "[interlock] property '" + result.name() + "' seed=" + result.seed()
        + " tries=" + config.tries() + ": " + outcome;
  }
}
