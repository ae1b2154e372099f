package dev.interlock.gpu.cuda;

/**
 * The group an MSM runs in, with its point sizes as kernels.cu lays points out (blst's layouts), so that one
 * {@link MsmPlan} and one launch sequence serve G1 and G2 with the kernels of each group.
 *
 * @see MsmPlan
 */
enum MsmGroup {
  /** G1 over Fp (48-byte coordinates): the kernels without a suffix. */
  G1(48, ""),
  /** G2 over Fp2 (96-byte coordinates): the kernels with the suffix _g2; twice G1's bytes per point. */
  G2(96, "_g2");

  /** Bytes of shared memory kernels.cu's msm_reduce_windows holds (MSM_WINDOW_SHARED): one XYZZ point per thread. */
  static final int WINDOW_SHARED_BYTES = 49152;

  private final int coordinateBytes;
  private final String suffix;

  MsmGroup(int coordinateBytes, String suffix) {
    this.coordinateBytes = coordinateBytes;
    this.suffix = suffix;
  }

  /** Bytes of an affine point (x, y). */
  int affineBytes() {
    return 2 * coordinateBytes;
  }

  /** Bytes of a Jacobian point (x, y, z). */
  int jacobianBytes() {
    return 3 * coordinateBytes;
  }

  /** Bytes of an XYZZ point (X, Y, ZZ, ZZZ). */
  int xyzzBytes() {
    return 4 * coordinateBytes;
  }

  /** Threads of the last reduction block: as many XYZZ points as its shared memory holds (256 for G1, 128 for G2). */
  int windowThreads() {
    return WINDOW_SHARED_BYTES / xyzzBytes();
  }

  /** The name of this group's version of an MSM kernel (e.g. msm_accumulate_g2). */
  String kernel(String name) {
    return name + suffix;
  }
}
