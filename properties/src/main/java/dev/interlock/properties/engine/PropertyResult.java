package dev.interlock.properties.engine;

import java.util.Arrays;
import java.util.Objects;

/** The result of checking a property: it {@link Passed} every try, or {@link Failed} with a shrunk counterexample. */
public sealed interface PropertyResult<T> permits PropertyResult.Passed, PropertyResult.Failed {

  /** The property's name. */
  String name();

  /** The run seed; {@code -Dinterlock.seed=<seed>} reruns it. */
  long seed();

  /** Whether the property held on every try. */
  boolean passed();

  /** A human-readable summary, with the seed and how to reproduce. */
  String report();

  /** The property held on {@code tries} valid cases. */
  record Passed<T>(String name, long seed, int tries) implements PropertyResult<T> {

    /** Validates the name and count. */
    public Passed {
      requireName(name);
      if (tries < 1) {
        throw new IllegalArgumentException("tries must be >= 1, got " + tries);
      }
    }

    /** Always true. */
    @Override
    public boolean passed() {
      return true;
    }

    /** One line: name, tries, seed and how to rerun. */
    @Override
    public String report() {
      return "Property '" + name + "' passed " + tries + " tries (seed " + seed
          + "; rerun with -D" + Config.SEED_PROPERTY + "=" + seed + ").";
    }
  }

  /**
   * The property failed on try {@code tryIndex} (0-based) with {@code original}, which shrank in
   * {@code shrinkSteps} accepted steps to {@code shrunk}, built from {@code shrunkChoices};
   * {@code failure} is what the property threw on {@code shrunk}, or null when it returned false.
   */
  record Failed<T>(
      String name,
      long seed,
      int tryIndex,
      T original,
      T shrunk,
      int[] shrunkChoices,
      Throwable failure,
      int shrinkSteps)
      implements PropertyResult<T> {

    /** Validates the counts and copies the choices in. */
    public Failed {
      requireName(name);
      Objects.requireNonNull(shrunkChoices, "shrunkChoices");
      shrunkChoices = shrunkChoices.clone();
      if (tryIndex < 0) {
        throw new IllegalArgumentException("tryIndex must be >= 0, got " + tryIndex);
      }
      if (shrinkSteps < 0) {
        throw new IllegalArgumentException("shrinkSteps must be >= 0, got " + shrinkSteps);
      }
    }

    /** A copy of the choices that rebuild {@link #shrunk} (see {@link Source#replay}). */
    @Override
    public int[] shrunkChoices() {
      return shrunkChoices.clone();
    }

    /** Always false. */
    @Override
    public boolean passed() {
      return false;
    }

    /** Name, try, seed, original and shrunk values, failure, choices and how to reproduce. */
    @Override
    public String report() {
      return "Property '" + name + "' FAILED on try " + (tryIndex + 1) + " (seed " + seed
          + "), shrunk in " + shrinkSteps + " steps.\n"
          + "  original: " + Text.show(original) + "\n"
          + "  shrunk:   " + Text.show(shrunk) + "\n"
          + "  failure:  " + Text.failure(failure) + "\n"
          + "  choices:  " + Text.show(shrunkChoices) + "\n"
          + "Reproduce with -D" + Config.SEED_PROPERTY + "=" + seed
          + " (for properties run with Config.defaults).";
    }

    /** Equal when all components are: values by {@code equals}, choices by content, failure by identity. */
    @Override
    public boolean equals(Object o) {
      return o instanceof Failed<?> f
          && name.equals(f.name)
          && seed == f.seed
          && tryIndex == f.tryIndex
          && Objects.equals(original, f.original)
          && Objects.equals(shrunk, f.shrunk)
          && Arrays.equals(shrunkChoices, f.shrunkChoices)
          && Objects.equals(failure, f.failure)
          && shrinkSteps == f.shrinkSteps;
    }

    /** Consistent with {@link #equals}. */
    @Override
    public int hashCode() {
      return Objects.hash(
          name, seed, tryIndex, original, shrunk, Arrays.hashCode(shrunkChoices), failure, shrinkSteps);
    }

    /** All components, choices by content. */
    @Override
    public String toString() {
      return "Failed[name=" + name + ", seed=" + seed + ", tryIndex=" + tryIndex
          + ", original=" + Text.show(original) + ", shrunk=" + Text.show(shrunk)
          + ", shrunkChoices=" + Arrays.toString(shrunkChoices) + ", failure=" + failure
          + ", shrinkSteps=" + shrinkSteps + "]";
    }
  }

  private static void requireName(String name) {
    Objects.requireNonNull(name, "name");
    if (name.isBlank()) {
      throw new IllegalArgumentException("name must not be blank");
    }
  }
}
