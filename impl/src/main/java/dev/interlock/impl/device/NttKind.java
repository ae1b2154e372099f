package dev.interlock.impl.device;

/** Which number-theoretic transform a device runs over the scalar field. */
public enum NttKind {
  /** Evaluations on the domain from coefficients. */
  FORWARD,
  /** Coefficients from evaluations on the domain (scaled by 1/n). */
  INVERSE,
  /** Evaluations on the coset g·H from coefficients. */
  COSET_FORWARD,
  /** Coefficients from evaluations on the coset g·H. */
  COSET_INVERSE
}
