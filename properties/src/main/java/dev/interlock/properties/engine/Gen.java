package dev.interlock.properties.engine;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * A generator: builds a value from the choices of a {@link Source}, as a deterministic function of
 * them, so smaller choices should mean simpler values.
 *
 * <p>Compose with the combinators below, or write a lambda that calls other generators in turn,
 * e.g. {@code s -> new Pair(a.generate(s), b.generate(s))}.
 */
@FunctionalInterface
public interface Gen<T> {
  /** How many times {@link #filter} draws before giving up with {@link Unsatisfiable}. */
  int FILTER_ATTEMPTS = 100;

  /** Builds one value from the source's choices. */
  T generate(Source s);

  /** This generator's values passed through {@code f}. */
  default <R> Gen<R> map(Function<? super T, ? extends R> f) {
    Objects.requireNonNull(f, "f");
    return s -> f.apply(generate(s));
  }

  /** A generator chosen by this generator's value, then run on the same source. */
  default <R> Gen<R> flatMap(Function<? super T, ? extends Gen<? extends R>> f) {
    Objects.requireNonNull(f, "f");
    return s -> f.apply(generate(s)).generate(s);
  }

  /**
   * Only values satisfying {@code pred}: redraws up to {@link #FILTER_ATTEMPTS} times, then throws
   * {@link Unsatisfiable}, which makes the case invalid (the shrinker deletes the rejected draws).
   */
  default Gen<T> filter(Predicate<? super T> pred) {
    Objects.requireNonNull(pred, "pred");
    return s -> {
      for (int i = 0; i < FILTER_ATTEMPTS; i++) {
        T value = generate(s);
        if (pred.test(value)) {
          return value;
        }
      }
      throw new Unsatisfiable("filter rejected " + FILTER_ATTEMPTS + " values in a row");
    };
  }

  /** Always {@code value}, using no choices. */
  static <T> Gen<T> constant(T value) {
    return s -> value;
  }

  /** Integers in {@code [lo, hi]}, uniform when random, shrinking toward {@code lo}. */
  static Gen<Integer> ints(int lo, int hi) {
    if (lo > hi) {
      throw new IllegalArgumentException("ints: lo > hi: " + lo + " > " + hi);
    }
    return s -> (int) BoundedLong.draw(s, lo, hi);
  }

  /** Longs in {@code [lo, hi]}, uniform when random, shrinking toward {@code lo}. */
  static Gen<Long> longs(long lo, long hi) {
    if (lo > hi) {
      throw new IllegalArgumentException("longs: lo > hi: " + lo + " > " + hi);
    }
    return s -> BoundedLong.draw(s, lo, hi);
  }

  /** Booleans, shrinking toward {@code false}. */
  static Gen<Boolean> booleans() {
    return s -> s.choose(1) == 1;
  }

  /**
   * Lists of {@code min..max} elements: {@code min} elements, then each further one after a
   * "more?" choice (0 = stop), so deleting a span of choices deletes elements and shrinking
   * shortens lists. The result is unmodifiable.
   */
  static <T> Gen<List<T>> lists(Gen<? extends T> elem, int min, int max) {
    Objects.requireNonNull(elem, "elem");
    if (min < 0 || min > max) {
      throw new IllegalArgumentException("lists: need 0 <= min <= max, got " + min + ".." + max);
    }
    // "more?" continues unless it is 0: with bound d, about d extra elements are expected
    int expectedExtra = Math.max(1, Math.min(Math.max(min, 5), (max - min + 1) / 2));
    return s -> {
      List<T> out = new ArrayList<>();
      while (out.size() < min) {
        out.add(elem.generate(s));
      }
      while (out.size() < max && s.choose(expectedExtra) != 0) {
        out.add(elem.generate(s));
      }
      return Collections.unmodifiableList(out);
    };
  }

  /** One of {@code values}, shrinking toward the first. */
  static <T> Gen<T> oneOf(List<T> values) {
    Objects.requireNonNull(values, "values");
    if (values.isEmpty()) {
      throw new IllegalArgumentException("oneOf: no values");
    }
    List<T> copy = Collections.unmodifiableList(new ArrayList<>(values));
    return s -> copy.get(s.choose(copy.size() - 1));
  }

  /** One of {@code values}, shrinking toward the first. */
  @SafeVarargs
  static <T> Gen<T> elements(T... values) {
    List<T> copy = new ArrayList<>(values.length);
    for (T value : values) {
      copy.add(value);
    }
    return oneOf(copy);
  }

  /** A value from one of {@code gens}, shrinking toward the first generator. */
  @SafeVarargs
  static <T> Gen<T> oneOfGens(Gen<? extends T>... gens) {
    if (gens.length == 0) {
      throw new IllegalArgumentException("oneOfGens: no generators");
    }
    List<Gen<? extends T>> copy = new ArrayList<>(gens.length);
    for (Gen<? extends T> gen : gens) {
      copy.add(Objects.requireNonNull(gen, "gen"));
    }
    return s -> copy.get(s.choose(copy.size() - 1)).generate(s);
  }
}
