package dev.interlock.prover.curve;

import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ForkJoinPool;
import supranational.blst.P1;
import supranational.blst.P1_Affine;
import supranational.blst.P2;
import supranational.blst.P2_Affine;

/**
 * Multi-scalar multiplication sum_i s_i * P_i in G1 and G2 (Pippenger, signed digits; see {@link
 * #windowBits(int)} for the window size), plus a naive reference.
 *
 * <p>Scalars are canonical (not Montgomery) elements of F_r, either flat little-endian limbs
 * ({@code long[4 n]}, scalar i at [4i, 4i+4)) or flat little-endian bytes ({@code byte[32 n]}). The
 * number of scalars must equal the number of bases. A scalar at or above r is rejected with
 * IllegalArgumentException rather than reduced. n = 0 gives the identity.
 *
 * <p>Two implementations give the same group element: blst's native Pippenger (through JNA, {@link BlstMsm};
 * chunks of points on the common ForkJoinPool), used by {@link #msm(G1Bases, long[])} and {@link
 * #msm(G2Bases, long[])} where the library loads, and a Pippenger in Java over jblst's point operations (windows
 * in parallel on the common pool for n of at least 64), used with an explicit window size, where the native one
 * is unavailable, or everywhere with {@code -Dinterlock.msm=java}. {@link #implementation()} says which.
 */
public final class Msm {
  /** Largest window size {@link #msm(G1Bases, long[], int)} accepts. */
  public static final int MAX_WINDOW_BITS = Pippenger.MAX_WINDOW_BITS;

  /** System property choosing the implementation: {@code native} (the default) or {@code java}. */
  public static final String IMPLEMENTATION_PROPERTY = "interlock.msm";


  private Msm() {}

  /**
   * The window size used for n scalars: c in [1, 16] minimizing ceil(W(c) / T) * (n + 1.5 * 2^c).
   * W(c) = floor(255/c) + 1 is the number of signed-digit windows; T the threads working on them
   * (common pool parallelism plus the caller, at most the CPU count; 1 below 64 scalars); per
   * window, n mixed additions accumulate the buckets and 1.5 * 2^c is the cost of reducing its
   * 2^(c-1) buckets (2^c jacobian additions at about 1.5 mixed additions each). On one thread this
   * gives c = 7 at n = 2^10 and c = 13 at n = 2^16.
   */
  public static int windowBits(int n) {
    return Pippenger.windowBits(n, threadsFor(n));
  }

  /** What {@link #msm(G1Bases, long[])} and {@link #msm(G2Bases, long[])} use here, for reports. */
  public static String implementation() {
    Optional<String> bad = configurationError();
    if (bad.isPresent()) {
      return "none (" + bad.get() + ")";
    }
    return useNative() ? BlstMsm.description() : "Java Pippenger over jblst (" + javaReason() + ")";
  }

  /** sum_i s_i * P_i in G1, scalars as flat canonical little-endian limbs (4 per scalar). */
  public static G1 msm(G1Bases bases, long[] scalars) {
    requireConfigured();
    int n = count(bases.size(), scalars);
    if (n >= 2 && useNative()) {
      Scalars.requireAllCanonical(scalars, "G1 MSM");
      return G1.wrap(BlstMsm.g1(bases.affine(), scalars, n, threadsFor(n)));
    }
    return msm(bases, scalars, windowBits(n));
  }

  /** sum_i s_i * P_i in G1, scalars as flat canonical little-endian bytes (32 per scalar). */
  public static G1 msm(G1Bases bases, byte[] scalars) {
    return msm(bases, Scalars.limbsFromBytes(scalars));
  }

  /** sum_i s_i * P_i in G1 with an explicit window size in [1, 16] (for tests and tuning). */
  public static G1 msm(G1Bases bases, long[] scalars, int windowBits) {
    int n = count(bases.size(), scalars);
    Scalars.requireAllCanonical(scalars, "G1 MSM");
    P1 r =
        Pippenger.msm(
            G1.OPS,
            bases.affine(),
            bases.negated(),
            scalars,
            n,
            windowBits,
            n >= Pippenger.PARALLEL_THRESHOLD);
    return G1.wrap(r);
  }

  /** sum_i s_i * P_i in G2, scalars as flat canonical little-endian limbs (4 per scalar). */
  public static G2 msm(G2Bases bases, long[] scalars) {
    requireConfigured();
    int n = count(bases.size(), scalars);
    if (n >= 2 && useNative()) {
      Scalars.requireAllCanonical(scalars, "G2 MSM");
      return G2.wrap(BlstMsm.g2(bases.affine(), scalars, n, threadsFor(n)));
    }
    return msm(bases, scalars, windowBits(n));
  }

  /** sum_i s_i * P_i in G2, scalars as flat canonical little-endian bytes (32 per scalar). */
  public static G2 msm(G2Bases bases, byte[] scalars) {
    return msm(bases, Scalars.limbsFromBytes(scalars));
  }

  /** sum_i s_i * P_i in G2 with an explicit window size in [1, 16] (for tests and tuning). */
  public static G2 msm(G2Bases bases, long[] scalars, int windowBits) {
    int n = count(bases.size(), scalars);
    Scalars.requireAllCanonical(scalars, "G2 MSM");
    P2 r =
        Pippenger.msm(
            G2.OPS,
            bases.affine(),
            bases.negated(),
            scalars,
            n,
            windowBits,
            n >= Pippenger.PARALLEL_THRESHOLD);
    return G2.wrap(r);
  }

  /**
   * Where at least this share of the scalars is 0 or 1, {@link #msmSplit} splits the MSM; below it the plain MSM,
   * whose cost a few zeros and ones hardly change, runs instead.
   */
  public static final double SPLIT_MIN_BINARY_SHARE = 0.125;

  /**
   * sum_i s_i * P_i in G1 (the value of {@link #msm(G1Bases, long[])}), split as supraseal splits an MSM over a
   * mostly 0/1 witness: the bases whose scalar is 1 are summed by batch additions, zeros are left out, and the other
   * scalars go to a tail MSM. Runs the plain MSM when fewer than {@link #SPLIT_MIN_BINARY_SHARE} of the scalars are 0
   * or 1 (a field witness, H's coefficients). Scalars as flat canonical limbs.
   */
  public static G1 msmSplit(G1Bases bases, long[] scalars) {
    requireConfigured();
    int n = count(bases.size(), scalars);
    Scalars.requireAllCanonical(scalars, "G1 MSM");
    if (ScalarSplit.of(scalars).binaryShare() < SPLIT_MIN_BINARY_SHARE) {
      return msm(bases, scalars);
    }
    return SplitMsm.g1(bases, scalars, threadsFor(n), useNative());
  }

  /** As {@link #msmSplit(G1Bases, long[])} in G2: the CPU's b_g2_msm over a witness. */
  public static G2 msmSplit(G2Bases bases, long[] scalars) {
    requireConfigured();
    int n = count(bases.size(), scalars);
    Scalars.requireAllCanonical(scalars, "G2 MSM");
    if (ScalarSplit.of(scalars).binaryShare() < SPLIT_MIN_BINARY_SHARE) {
      return msm(bases, scalars);
    }
    return SplitMsm.g2(bases, scalars, threadsFor(n), useNative());
  }

  /**
   * The G2 MSM over the scalars that are neither 0 nor 1, the others left out: the host's tail of a split b_g2_msm,
   * whose ones are summed elsewhere (on the device). One pass over the scalars finds them.
   */
  public static G2 msmOfFullScalars(G2Bases bases, long[] scalars) {
    requireConfigured();
    int n = count(bases.size(), scalars);
    Scalars.requireAllCanonical(scalars, "G2 MSM");
    return SplitMsm.g2Full(bases, scalars, threadsFor(n), useNative());
  }

  /** Whether canonical scalar i of flat limbs is 1: the test that splits an MSM's ones from its tail. */
  public static boolean isOne(long[] scalars, int i) {
    return SplitMsm.classify(scalars, i) == SplitMsm.ONE;
  }

  /** The split MSM whatever the share of 0/1 scalars, natively where blst loads unless {@code java} (for tests). */
  static G1 split(G1Bases bases, long[] scalars, boolean java) {
    int n = count(bases.size(), scalars);
    Scalars.requireAllCanonical(scalars, "G1 MSM");
    return SplitMsm.g1(bases, scalars, threadsFor(n), !java && BlstMsm.available());
  }

  /** As {@link #split(G1Bases, long[], boolean)} in G2. */
  static G2 split(G2Bases bases, long[] scalars, boolean java) {
    int n = count(bases.size(), scalars);
    Scalars.requireAllCanonical(scalars, "G2 MSM");
    return SplitMsm.g2(bases, scalars, threadsFor(n), !java && BlstMsm.available());
  }

  /** Reference G1 MSM: the sum of n separate scalar multiplications (slow; for tests). */
  public static G1 naive(G1Bases bases, long[] scalars) {
    int n = count(bases.size(), scalars);
    Scalars.requireAllCanonical(scalars, "G1 naive MSM");
    P1 acc = new P1();
    P1_Affine[] a = bases.affine();
    for (int i = 0; i < n; i++) {
      acc.add(a[i].to_jacobian().mult(Scalars.fromLimbs(scalars, i)));
    }
    return G1.wrap(acc);
  }

  /** Reference G2 MSM: the sum of n separate scalar multiplications (slow; for tests). */
  public static G2 naive(G2Bases bases, long[] scalars) {
    int n = count(bases.size(), scalars);
    Scalars.requireAllCanonical(scalars, "G2 naive MSM");
    P2 acc = new P2();
    P2_Affine[] a = bases.affine();
    for (int i = 0; i < n; i++) {
      acc.add(a[i].to_jacobian().mult(Scalars.fromLimbs(scalars, i)));
    }
    return G2.wrap(acc);
  }

  private static int count(int bases, long[] scalars) {
    Objects.requireNonNull(scalars, "scalars");
    if (scalars.length != Scalars.LIMBS * bases) {
      throw new IllegalArgumentException(
          "MSM: "
              + bases
              + " bases need "
              + Scalars.LIMBS * bases
              + " scalar limbs (4 per scalar), got "
              + scalars.length);
    }
    return bases;
  }

  /**
   * What is wrong with {@code -Dinterlock.msm}, if anything: programs check it up front to report it as bad input.
   * With a bad value every MSM of the default implementation throws IllegalStateException saying the same. The
   * property is read on each call and checking it loads no native code.
   */
  public static Optional<String> configurationError() {
    String wanted = chosen();
    return wanted.equals("native") || wanted.equals("java")
        ? Optional.empty()
        : Optional.of("-D" + IMPLEMENTATION_PROPERTY + " must be native or java, not '" + wanted + "'");
  }

  private static String chosen() {
    return System.getProperty(IMPLEMENTATION_PROPERTY, "native");
  }

  private static void requireConfigured() {
    configurationError().ifPresent(bad -> {
      throw new IllegalStateException(bad);
    });
  }

  /** Whether the default implementation is blst's native one: asked for (read on each call) and loaded here. */
  private static boolean useNative() {
    return chosen().equals("native") && BlstMsm.available();
  }

  private static String javaReason() {
    return chosen().equals("java") ? "-D" + IMPLEMENTATION_PROPERTY + "=java" : BlstMsm.description();
  }

  private static int threadsFor(int n) {
    if (n < Pippenger.PARALLEL_THRESHOLD) {
      return 1;
    }
    // a parallel stream runs on the common pool's workers plus the calling thread
    int threads = ForkJoinPool.getCommonPoolParallelism() + 1;
    return Math.max(1, Math.min(threads, Runtime.getRuntime().availableProcessors()));
  }
}
