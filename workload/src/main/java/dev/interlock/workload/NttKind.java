package dev.interlock.workload;

/**
 * Which number-theoretic transform a device runs over the scalar field: a direction and a domain, both stated by every
 * kind, so each implementation handles the four combinations explicitly and never falls back to a default.
 */
public enum NttKind {
  /** Evaluations on the domain from coefficients. */
  FORWARD(false, false),
  /** Coefficients from evaluations on the domain (scaled by 1/n). */
  INVERSE(true, false),
  /** Evaluations on the coset g·H from coefficients. */
  COSET_FORWARD(false, true),
  /** Coefficients from evaluations on the coset g·H. */
  COSET_INVERSE(true, true);

  private final boolean inverse;
  private final boolean coset;

  NttKind(boolean inverse, boolean coset) {
    this.inverse = inverse;
    this.coset = coset;
  }

  /** Whether it maps evaluations to coefficients. */
  public boolean inverse() {
    return inverse;
  }

  /** Whether the evaluations are on the coset g·H rather than on H. */
  public boolean coset() {
    return coset;
  }
}
