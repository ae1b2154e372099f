package dev.interlock.properties.engine;

import java.util.Arrays;

/** The shrinking order on choice sequences: shorter first, then lexicographically smaller. */
public final class Shortlex {
  private Shortlex() {}

  /** Negative, zero or positive as {@code a} is simpler than, equal to or harder than {@code b}. */
  public static int compare(int[] a, int[] b) {
    return a.length != b.length ? Integer.compare(a.length, b.length) : Arrays.compare(a, b);
  }

  /** Whether {@code a} is strictly simpler than {@code b}. */
  public static boolean less(int[] a, int[] b) {
    return compare(a, b) < 0;
  }
}
