package dev.interlock.prover.curve;

/**
 * How the scalars of an MSM divide for {@link Msm#msmSplit}: zeros (left out), ones (their bases are summed) and
 * full-width scalars (anything else: the tail MSM). For reports.
 */
public record ScalarSplit(int zeros, int ones, int full) {
  /** Validates the counts (none negative). */
  public ScalarSplit {
    if (zeros < 0 || ones < 0 || full < 0) {
      throw new IllegalArgumentException("counts must not be negative: " + zeros + ", " + ones + ", " + full);
    }
  }

  /** The counts over flat canonical limbs (4 per scalar). */
  public static ScalarSplit of(long[] scalars) {
    if (scalars.length % Scalars.LIMBS != 0) {
      throw new IllegalArgumentException("scalars must be 4 limbs each, got " + scalars.length + " limbs");
    }
    int zeros = 0;
    int ones = 0;
    int n = scalars.length / Scalars.LIMBS;
    for (int i = 0; i < n; i++) {
      switch (SplitMsm.classify(scalars, i)) {
        case SplitMsm.ZERO -> zeros++;
        case SplitMsm.ONE -> ones++;
        default -> { }
      }
    }
    return new ScalarSplit(zeros, ones, n - zeros - ones);
  }

  /** All scalars counted. */
  public int size() {
    return zeros + ones + full;
  }

  /** The share of 0/1 scalars, in [0, 1] (1 for none at all). */
  public double binaryShare() {
    return size() == 0 ? 1 : (zeros + ones) / (double) size();
  }
}
