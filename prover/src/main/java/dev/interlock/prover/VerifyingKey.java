package dev.interlock.prover;

import dev.interlock.prover.curve.G1;
import dev.interlock.prover.curve.G2;
import java.util.List;
import java.util.Objects;

/**
 * An immutable Groth16 verifying key: [α]_1, [β]_2, [γ]_2, [δ]_2 and ic[j] = [(β·u_j(τ) + α·v_j(τ) + w_j(τ))/γ]_1
 * for the input variables j = 0..p (ic[0] belongs to the constant one).
 */
public record VerifyingKey(G1 alphaG1, G2 betaG2, G2 gammaG2, G2 deltaG2, List<G1> ic) {
  /** Copies ic and checks that nothing is null and that there is at least ic[0]. */
  public VerifyingKey {
    Objects.requireNonNull(alphaG1, "alphaG1");
    Objects.requireNonNull(betaG2, "betaG2");
    Objects.requireNonNull(gammaG2, "gammaG2");
    Objects.requireNonNull(deltaG2, "deltaG2");
    ic = List.copyOf(ic);
    if (ic.isEmpty()) {
      throw new IllegalArgumentException("ic needs at least the constant's point ic[0]");
    }
  }

  /** p, the number of public inputs a proof is verified against. */
  public int publicInputs() {
    return ic.size() - 1;
  }
}
