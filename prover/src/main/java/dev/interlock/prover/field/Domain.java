package dev.interlock.prover.field;

import java.math.BigInteger;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * An evaluation domain {@code H = {omega^i : 0 ≤ i < n}} of n = 2^logN elements, with its coset g·H, for NTT-based polynomial
 * arithmetic in F_r.
 *
 * <p>Roots of unity: r - 1 = 2^32·t with t odd, so F_r* has a subgroup of order 2^32 (two-adicity 32). With the
 * standard multiplicative generator g = 7 of F_r*, {@link #ROOT_OF_UNITY} = 7^((r-1)/2^32) has order exactly 2^32, and
 * the primitive 2^k-th root is omega_{2^k} = ROOT_OF_UNITY^(2^(32-k)). The coset shift is the same g = 7: as a
 * generator it is a quadratic non-residue, so it lies in no subgroup H of order 2^k ≤ 2^32, g·H is disjoint from H and
 * the vanishing polynomial Z(x) = x^n - 1 of H is the non-zero constant g^n - 1 on all of g·H (which is why Groth16
 * divides by Z there). Immutable; {@link #of} caches instances.
 */
public final class Domain {
  /** The largest k with 2^k dividing r - 1. */
  public static final int TWO_ADICITY = 32;
  /** 7, the standard multiplicative generator of F_r*, also the coset shift. */
  public static final FrElement GENERATOR = FrElement.of(7);
  /** A primitive 2^32-th root of unity, 7^((r-1)/2^32). */
  public static final FrElement ROOT_OF_UNITY =
      GENERATOR.pow(Fr.MODULUS.subtract(BigInteger.ONE).shiftRight(TWO_ADICITY));

  private static final AtomicReferenceArray<Domain> CACHE = new AtomicReferenceArray<>(Ntt.MAX_LOG_N + 1);

  private final int logN;
  private final int size;
  private final FrElement omega;
  private final FrElement omegaInverse;
  private final FrElement sizeInverse;
  private final FrElement shiftInverse;
  private final FrElement vanishingOnCoset;

  private Domain(int logN) {
    this.logN = logN;
    this.size = 1 << logN;
    this.omega = rootOfUnity(logN);
    this.omegaInverse = omega.inverse();
    this.sizeInverse = FrElement.of(size).inverse();
    this.shiftInverse = GENERATOR.inverse();
    this.vanishingOnCoset = GENERATOR.pow(size).sub(FrElement.ONE);
  }

  /** The domain of size 2^logN, 0 ≤ logN ≤ {@link Ntt#MAX_LOG_N}. */
  public static Domain of(int logN) {
    Ntt.checkLogN(logN);
    Domain d = CACHE.get(logN);
    if (d == null) {
      d = new Domain(logN);
      if (!CACHE.compareAndSet(logN, null, d)) {
        d = CACHE.get(logN);
      }
    }
    return d;
  }

  /** The smallest domain holding at least n points (n ≥ 1). */
  public static Domain atLeast(long n) {
    if (n < 1 || n > (1L << Ntt.MAX_LOG_N)) {
      throw new IllegalArgumentException("no domain of at least " + n + " points (max 2^" + Ntt.MAX_LOG_N + ")");
    }
    return of(64 - Long.numberOfLeadingZeros(n - 1));
  }

  /** The primitive 2^logN-th root of unity ROOT_OF_UNITY^(2^(32-logN)), 0 ≤ logN ≤ 32. */
  public static FrElement rootOfUnity(int logN) {
    if (logN < 0 || logN > TWO_ADICITY) {
      throw new IllegalArgumentException("root of unity order 2^" + logN + " out of range [2^0, 2^" + TWO_ADICITY + "]");
    }
    FrElement w = ROOT_OF_UNITY;
    for (int i = logN; i < TWO_ADICITY; i++) {
      w = w.square();
    }
    return w;
  }

  /** log2 of the size. */
  public int logN() {
    return logN;
  }

  /** The number of points n. */
  public int size() {
    return size;
  }

  /** omega, a primitive n-th root of unity. */
  public FrElement omega() {
    return omega;
  }

  /** omega^-1. */
  public FrElement omegaInverse() {
    return omegaInverse;
  }

  /** n^-1 (the inverse NTT's scale). */
  public FrElement sizeInverse() {
    return sizeInverse;
  }

  /** The coset shift g = 7. */
  public FrElement cosetShift() {
    return GENERATOR;
  }

  /** g^-1. */
  public FrElement cosetShiftInverse() {
    return shiftInverse;
  }

  /** The i-th point omega^i (i taken mod n; negative i allowed). */
  public FrElement element(long i) {
    return omega.pow(Math.floorMod(i, (long) size));
  }

  /** Z(x) = x^n - 1, the polynomial vanishing exactly on this domain. */
  public FrElement vanishing(FrElement x) {
    return x.pow(size).sub(FrElement.ONE);
  }

  /** Z on the coset g·H: the constant g^n - 1 (never zero). */
  public FrElement vanishingOnCoset() {
    return vanishingOnCoset;
  }

  /** Coefficients to evaluations on H, in place (see {@link Ntt#forward}). */
  public void forward(long[] v) {
    Ntt.forward(v, logN);
  }

  /** Evaluations on H to coefficients, in place (see {@link Ntt#inverse}). */
  public void inverse(long[] v) {
    Ntt.inverse(v, logN);
  }

  /** Coefficients to evaluations on g·H, in place (see {@link Ntt#cosetForward}). */
  public void cosetForward(long[] v) {
    Ntt.cosetForward(v, logN, GENERATOR);
  }

  /** Evaluations on g·H to coefficients, in place (see {@link Ntt#cosetInverse}). */
  public void cosetInverse(long[] v) {
    Ntt.cosetInverse(v, logN, GENERATOR);
  }

  @Override
  public String toString() {
    return "Domain(2^" + logN + ")";
  }
}
