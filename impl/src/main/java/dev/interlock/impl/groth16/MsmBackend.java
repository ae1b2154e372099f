package dev.interlock.impl.groth16;

import dev.interlock.impl.groth16.curve.G1;
import dev.interlock.impl.groth16.curve.G1Bases;
import dev.interlock.impl.groth16.curve.Msm;

/**
 * Where the msm stage runs its G1 multi-scalar multiplications: the CPU ({@link #CPU}) or an engine's device.
 * Scalars are canonical (not Montgomery) little-endian limbs, 4 per scalar, as many scalars as bases; they may be
 * shared with other stages (the witness's cached limbs), so implementations must not modify them.
 */
public interface MsmBackend {
  /** Σ_i s_i·P_i. */
  G1 msm(G1Bases bases, long[] canonicalLimbs);

  /** The CPU backend, delegating to {@link Msm} (Pippenger, parallel on the common pool for large inputs). */
  MsmBackend CPU = new MsmBackend() {
    @Override
    public G1 msm(G1Bases bases, long[] canonicalLimbs) {
      return Msm.msm(bases, canonicalLimbs);
    }

    @Override
    public String toString() {
      return "MsmBackend.CPU";
    }
  };
}
