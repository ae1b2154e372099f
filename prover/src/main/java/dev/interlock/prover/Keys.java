package dev.interlock.prover;

import java.util.Objects;

/** A proving key with its matching verifying key, as {@link Setup#generate} makes them. */
public record Keys(ProvingKey pk, VerifyingKey vk) {
  /** Checks that the two keys fit together (same α, β, δ and input count). */
  public Keys {
    Objects.requireNonNull(pk, "pk");
    Objects.requireNonNull(vk, "vk");
    if (!pk.alphaG1().equals(vk.alphaG1()) || !pk.betaG2().equals(vk.betaG2()) || !pk.deltaG2().equals(vk.deltaG2())
        || vk.publicInputs() != pk.params().publicInputs()) {
      throw new IllegalArgumentException("proving and verifying keys do not belong together");
    }
  }
}
