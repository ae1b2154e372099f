package dev.interlock.gpu.cuda;

import dev.interlock.model.design.Sizes;

/**
 * Device memory the proving kernels need beyond a design's buffers, reserved when the device opens, before the budget's
 * ballast, so that it never counts against the budget: the NTT twiddle table for transforms up to 2^maxLogN and
 * {@code arenas} MSM scratch arenas for up to maxMsmPoints points each (one per MSM running at the same time).
 * PartitionSizes leaves this scratch out for the same reason: it depends on the kernels, not on the circuit.
 *
 * @param maxLogN the largest NTT (0: none)
 * @param maxMsmPoints the largest MSM (0: none)
 * @param arenas how many MSMs may run at once (at least 1 when maxMsmPoints &gt; 0)
 * @see dev.interlock.prover.PartitionSizes
 */
public record KernelScratch(int maxLogN, int maxMsmPoints, int arenas) {
  /** No kernels beyond the design's touch kernels: NTT and MSM calls are refused. */
  public static final KernelScratch NONE = new KernelScratch(0, 0, 0);

  public KernelScratch {
    if (maxLogN < 0 || maxLogN > 28) {
      throw new IllegalArgumentException("maxLogN must be in [0, 28], got " + maxLogN);
    }
    if (maxMsmPoints > MsmPlan.MAX_POINTS) {
      throw new IllegalArgumentException("maxMsmPoints must be at most " + MsmPlan.MAX_POINTS + ", got " + maxMsmPoints);
    }
    if (maxMsmPoints < 0 || arenas < 0 || (maxMsmPoints > 0) != (arenas > 0)) {
      throw new IllegalArgumentException("MSM scratch needs both a positive size and arenas, got " + maxMsmPoints
          + " points and " + arenas + " arenas");
    }
  }

  /** Bytes of one MSM arena. */
  public long arenaBytes() {
    return maxMsmPoints == 0 ? 0 : MsmPlan.maxScratchBytes(maxMsmPoints);
  }

  /** Bytes of the twiddle table. */
  public long twiddleBytes() {
    return maxLogN == 0 ? 0 : Kernels.twiddleBytes(maxLogN);
  }

  /** All bytes reserved. */
  public long totalBytes() {
    return twiddleBytes() + arenas * arenaBytes();
  }

  @Override
  public String toString() {
    return "NTT to 2^" + maxLogN + ", " + arenas + " MSM arena(s) of " + maxMsmPoints + " points ("
        + Sizes.format(totalBytes()) + ")";
  }
}
