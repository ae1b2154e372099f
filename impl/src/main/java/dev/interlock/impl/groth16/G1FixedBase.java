package dev.interlock.impl.groth16;

import dev.interlock.impl.groth16.curve.G1;

/**
 * k_i·G for the G1 generator G and every scalar of a Montgomery Fr vector: the bulk of setup's work (the a, b_g1, h, l
 * and ic queries), on the CPU ({@link #CPU}) or on a GPU.
 */
@FunctionalInterface
public interface G1FixedBase {
  /** The CPU's windowed-table multiplication, over the common ForkJoin pool. */
  G1FixedBase CPU = scalars -> FixedBase.g1().mulAll(scalars, G1[]::new);

  /** k_i·G for each element of {@code montgomeryScalars}, in order. */
  G1[] mulAll(long[] montgomeryScalars);
}
