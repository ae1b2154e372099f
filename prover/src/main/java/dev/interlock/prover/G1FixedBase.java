package dev.interlock.prover;

import dev.interlock.prover.curve.G1;
import java.util.List;

/**
 * k_i·G for the G1 generator G and every scalar of a Montgomery Fr vector: the bulk of setup's work (the a, b_g1, h, l
 * and ic queries), on the CPU ({@link #CPU}) or on a GPU.
 */
@FunctionalInterface
public interface G1FixedBase {
  /** The CPU's windowed-table multiplication, over the common ForkJoin pool. */
  G1FixedBase CPU = scalars -> FixedBase.g1().mulAll(scalars, G1[]::new);

  /** Window width in bits of {@link #generatorTable()}. */
  int TABLE_WINDOW = FixedBase.WINDOW;

  /**
   * The CPU's table of the generator (built once, shared): entry w·(2^TABLE_WINDOW - 1) + d - 1 is
   * d·2^(TABLE_WINDOW·w)·G for d in [1, 2^TABLE_WINDOW) and w below ceil(255 / TABLE_WINDOW); a GPU's fixed-base
   * kernel can use the same table.
   */
  static List<G1> generatorTable() {
    return FixedBase.g1().entries();
  }

  /** k_i·G for each element of {@code montgomeryScalars}, in order. */
  G1[] mulAll(long[] montgomeryScalars);
}
