package dev.interlock.prover;

import dev.interlock.prover.curve.G1;
import dev.interlock.prover.curve.Pairing;
import dev.interlock.prover.field.FrElement;
import java.util.List;
import java.util.Objects;

/** The Groth16 verifier. */
public final class Verifier {
  private Verifier() {}

  /**
   * Whether e(A, B) = e(α, β)·e(Σ_{i=0..p} x_i·ic_i, γ)·e(C, δ) with x_0 = 1, checked as one pairing product
   * e(A, B)·e(-α, β)·e(-acc, γ)·e(-C, δ) = 1 (one final exponentiation). Throws IllegalArgumentException when the
   * number of public inputs is not the key's.
   */
  public static boolean verify(VerifyingKey vk, Proof proof, List<FrElement> publicInputs) {
    Objects.requireNonNull(vk, "vk");
    Objects.requireNonNull(proof, "proof");
    Objects.requireNonNull(publicInputs, "publicInputs");
    if (publicInputs.size() != vk.publicInputs()) {
      throw new IllegalArgumentException(
          "verifying key takes " + vk.publicInputs() + " public inputs, got " + publicInputs.size());
    }
    G1 acc = vk.ic().get(0);
    for (int i = 0; i < publicInputs.size(); i++) {
      FrElement x = Objects.requireNonNull(publicInputs.get(i), "public input " + i);
      acc = acc.add(vk.ic().get(i + 1).mul(x.toBigInteger()));
    }
    return Pairing.pairingProductIsOne(
        List.of(proof.a(), vk.alphaG1().neg(), acc.neg(), proof.c().neg()),
        List.of(proof.b(), vk.betaG2(), vk.gammaG2(), vk.deltaG2()));
  }
}
