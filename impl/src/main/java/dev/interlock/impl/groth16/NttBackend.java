package dev.interlock.impl.groth16;

import dev.interlock.impl.groth16.field.Domain;
import dev.interlock.impl.groth16.field.Ntt;

/**
 * Where the ntt_h stage runs its transforms: the CPU ({@link #CPU}) or an engine's device. Every method works in place
 * on a Montgomery Fr vector of exactly 2^logN elements, natural order in and out; the coset is the standard
 * {@link Domain#GENERATOR}·H. Implementations must be exact (same results as {@link Ntt}).
 */
public interface NttBackend {
  /** Evaluations on H to coefficients. */
  void inverse(long[] v, int logN);

  /** Coefficients to evaluations on the coset g·H. */
  void cosetForward(long[] v, int logN);

  /** Evaluations on the coset g·H to coefficients. */
  void cosetInverse(long[] v, int logN);

  /** The CPU backend, delegating to {@link Ntt} (parallel on the common pool for large sizes). */
  NttBackend CPU = new NttBackend() {
    @Override
    public void inverse(long[] v, int logN) {
      Ntt.inverse(v, logN);
    }

    @Override
    public void cosetForward(long[] v, int logN) {
      Ntt.cosetForward(v, logN);
    }

    @Override
    public void cosetInverse(long[] v, int logN) {
      Ntt.cosetInverse(v, logN);
    }

    @Override
    public String toString() {
      return "NttBackend.CPU";
    }
  };
}
