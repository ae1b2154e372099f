package dev.interlock.junit.api;

import java.util.Objects;

/**
 * The answer to an overlap query: can a thread be inside interval {@code a} while a thread of another worker is
 * inside interval {@code b}?
 *
 * @param a            the first interval (a {@code cpu} or {@code kernel} step's name)
 * @param b            the second interval
 * @param reachability the answer
 */
public record Overlap(String a, String b, Overlap.Reachability reachability) {
  /** Checks that every part is given. */
  public Overlap {
    Objects.requireNonNull(a, "a");
    Objects.requireNonNull(b, "b");
    Objects.requireNonNull(reachability, "reachability");
  }

  /** Whether the overlap can happen; UNKNOWN when the state limit stopped the search first. */
  public enum Reachability {
    /** Some schedule reaches the overlap: the result has a witness trace. */
    REACHABLE,
    /** No schedule reaches it (the search was exhaustive). */
    UNREACHABLE,
    /** The state limit stopped the search before it answered. */
    UNKNOWN
  }
}
