package dev.interlock.prover;

/**
 * The device memory one proof partition of a circuit needs, per buffer, by formula (N constraints, m variables, p
 * public inputs; Fr scalars 32 bytes; G1 bases affine x, y of 48 bytes each = 96 bytes):
 *
 * <ul>
 *   <li>abc = 3·N·32 (the a, b, c evaluation vectors, transformed in place by ntt_h);
 *   <li>hScratch = N·32 (the H coefficients handed from ntt_h to msm);
 *   <li>witness = m·32 (the witness scalars of the a, b_g1, l MSMs);
 *   <li>aBases = m·96, bG1Bases = m·96, lBases = (m-p-1)·96, hBases = (N-1)·96 (the G1 query points);
 *   <li>total = the sum of the above.
 * </ul>
 *
 * The G2 b query (m·192 bytes affine) stays on the host, where b_g2_msm runs, and is not counted. Device-side MSM
 * scratch (buckets) and NTT twiddles are left out too: they depend on the kernels, not the circuit.
 */
public record PartitionSizes(long abcBytes, long hScratchBytes, long witnessBytes, long aBasesBytes,
    long bG1BasesBytes, long lBasesBytes, long hBasesBytes) {
  /** Bytes of one Fr scalar. */
  public static final int SCALAR_BYTES = 32;
  /** Bytes of one affine G1 point. */
  public static final int G1_AFFINE_BYTES = 96;

  /** The sizes for a circuit. */
  public static PartitionSizes of(Circuit circuit) {
    return of(circuit.params());
  }

  /** The sizes for a circuit with these parameters. */
  public static PartitionSizes of(Circuit.Params params) {
    long n = 1L << params.logN();
    long m = ProvingKey.numVariables(params);
    long priv = m - params.publicInputs() - 1;
    return new PartitionSizes(3 * n * SCALAR_BYTES, n * SCALAR_BYTES, m * SCALAR_BYTES, m * G1_AFFINE_BYTES,
        m * G1_AFFINE_BYTES, priv * G1_AFFINE_BYTES, (n - 1) * G1_AFFINE_BYTES);
  }

  /** The sum of all buffers. */
  public long totalBytes() {
    return abcBytes + hScratchBytes + witnessBytes + aBasesBytes + bG1BasesBytes + lBasesBytes + hBasesBytes;
  }

  @Override
  public String toString() {
    return "abc=" + abcBytes + " h=" + hScratchBytes + " witness=" + witnessBytes + " aBases=" + aBasesBytes
        + " bG1Bases=" + bG1BasesBytes + " lBases=" + lBasesBytes + " hBases=" + hBasesBytes + " total="
        + totalBytes() + " B";
  }
}
