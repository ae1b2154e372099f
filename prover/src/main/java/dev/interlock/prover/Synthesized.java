package dev.interlock.prover;

import dev.interlock.prover.field.Fr;

/**
 * The output of the synthesize stage: the evaluation vectors a = A·w, b = B·w, c = C·w over the domain (one element
 * per constraint, Montgomery Fr vectors of N elements). The ntt_h stage transforms them in place, so it takes them
 * only once: a second {@link Prover#computeH} on the same instance throws IllegalStateException.
 */
public final class Synthesized {
  private final int logN;
  private long[] a;
  private long[] b;
  private long[] c;

  /** Wraps the three vectors (not copied), each of 2^logN elements. */
  public Synthesized(int logN, long[] a, long[] b, long[] c) {
    int n = 1 << logN;
    if (Fr.size(a) != n || Fr.size(b) != n || Fr.size(c) != n) {
      throw new IllegalArgumentException("a, b, c must hold 2^" + logN + " elements each");
    }
    this.logN = logN;
    this.a = a;
    this.b = b;
    this.c = c;
  }

  /** log2 of the domain size. */
  public int logN() {
    return logN;
  }

  /** Whether the vectors are still intact (not yet handed to the ntt_h stage). */
  public synchronized boolean isAvailable() {
    return a != null;
  }

  /** A·w (shared, not copied). */
  public synchronized long[] a() {
    return require(a);
  }

  /** B·w (shared, not copied). */
  public synchronized long[] b() {
    return require(b);
  }

  /** C·w (shared, not copied). */
  public synchronized long[] c() {
    return require(c);
  }

  /** Hands the three vectors over for in-place use and marks this instance consumed. */
  synchronized long[][] take() {
    long[][] v = {require(a), b, c};
    a = null;
    b = null;
    c = null;
    return v;
  }

  private static long[] require(long[] v) {
    if (v == null) {
      throw new IllegalStateException("the a, b, c vectors were already consumed by the ntt_h stage");
    }
    return v;
  }
}
