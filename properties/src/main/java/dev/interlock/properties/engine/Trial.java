package dev.interlock.properties.engine;

import java.util.Arrays;
import java.util.Objects;
import java.util.function.Predicate;

/**
 * The outcome of running one case: generate a value from a source, then test the property on it.
 * {@code failure} is the property's exception (FAILED), the generator's (INVALID, BROKEN), or null.
 */
record Trial<T>(Verdict verdict, T value, Throwable failure, int[] consumed) {

  /** How one case ended. */
  enum Verdict {
    /** The property held. */
    PASSED,
    /** The property returned false or threw. */
    FAILED,
    /** The generator could not build a value ({@link Overrun}, {@link Unsatisfiable}). */
    INVALID,
    /** The generator itself threw: a bug in the test, not a counterexample. */
    BROKEN
  }

  /** Validates and copies the consumed choices in. */
  Trial {
    Objects.requireNonNull(verdict, "verdict");
    Objects.requireNonNull(consumed, "consumed");
    consumed = consumed.clone();
  }

  /** Runs {@code gen} on {@code source} and {@code property} on the value. */
  static <T> Trial<T> run(Gen<T> gen, Predicate<? super T> property, Source source) {
    T value;
    try {
      value = gen.generate(source);
    } catch (Overrun | Unsatisfiable e) {
      return new Trial<>(Verdict.INVALID, null, e, source.recorded());
    } catch (RuntimeException e) {
      return new Trial<>(Verdict.BROKEN, null, e, source.recorded());
    }
    try {
      Verdict verdict = property.test(value) ? Verdict.PASSED : Verdict.FAILED;
      return new Trial<>(verdict, value, null, source.recorded());
    } catch (AssertionError | Exception e) {
      return new Trial<>(Verdict.FAILED, value, e, source.recorded());
    }
  }

  /** A copy of the consumed choices. */
  @Override
  public int[] consumed() {
    return consumed.clone();
  }

  /** Equal when all components are, the choices by content. */
  @Override
  public boolean equals(Object o) {
    return o instanceof Trial<?> t
        && verdict == t.verdict
        && Objects.equals(value, t.value)
        && Objects.equals(failure, t.failure)
        && Arrays.equals(consumed, t.consumed);
  }

  @Override
  public int hashCode() {
    return Objects.hash(verdict, value, failure, Arrays.hashCode(consumed));
  }

  @Override
  public String toString() {
    return "Trial[" + verdict + ", value=" + Text.show(value) + ", failure=" + failure
        + ", consumed=" + Arrays.toString(consumed) + "]";
  }
}
