package dev.interlock.prover;

import dev.interlock.prover.curve.G1;
import java.util.Objects;

/**
 * The four G1 MSMs of the msm stage: a = Σ w_j·a_query[j], bG1 = Σ w_j·b_g1_query[j], l = Σ_{j&gt;p} w_j·l_query[j],
 * h = Σ h_i·h_query[i].
 */
public record MsmResults(G1 a, G1 bG1, G1 l, G1 h) {
  /** Rejects nulls. */
  public MsmResults {
    Objects.requireNonNull(a, "a");
    Objects.requireNonNull(bG1, "bG1");
    Objects.requireNonNull(l, "l");
    Objects.requireNonNull(h, "h");
  }
}
