package dev.interlock.prover.curve;

import java.util.function.BinaryOperator;
import java.util.function.Supplier;
import java.util.stream.IntStream;
import supranational.blst.P1;
import supranational.blst.P1_Affine;
import supranational.blst.P2;
import supranational.blst.P2_Affine;

/**
 * An MSM split as supraseal splits it: the bases whose scalar is 1 are summed (blst's batch addition, affine with
 * Montgomery's trick, where the native library loads; else jblst's additions), zero scalars are left out, and the
 * remaining full-width scalars go to a tail MSM (blst's Pippenger one task per window, or the Java Pippenger). The
 * sum is the MSM's value. Internal to {@link Msm}.
 *
 * <p>Why: with mostly 0/1 scalars, as in Filecoin's witnesses, a Pippenger over all of them still pays every
 * window's bucket reduction (2^c additions per window) and n digit extractions per window, while the ones need one
 * addition each and the tail is small.
 */
final class SplitMsm {
  static final int ZERO = 0;
  static final int ONE = 1;
  static final int FULL = 2;

  private SplitMsm() {}

  /** ZERO, ONE or FULL for scalar i of flat canonical limbs. */
  static int classify(long[] s, int i) {
    int o = Scalars.LIMBS * i;
    if ((s[o + 1] | s[o + 2] | s[o + 3]) != 0) {
      return FULL;
    }
    return s[o] == 0 ? ZERO : s[o] == 1 ? ONE : FULL;
  }

  /** The indices of the ones and of the full-width scalars, each in increasing order. */
  record Parts(int[] ones, int[] full) {}

  /** Scalars per task of {@link #parts}: below it one thread classifies. */
  static final int PARTS_CHUNK = 1 << 14;

  /**
   * The first n scalars' parts, classified in chunks on the common pool.
   *
   * <p>Why in chunks: a 2^20 witness takes ~9 ms on one core, inside b_g2_msm's time. Each chunk classifies its
   * scalars and counts them, then writes its ones and full scalars from the offsets the counts give, so both lists
   * stay in increasing order.
   */
  static Parts parts(long[] scalars, int n) {
    int chunks = (n + PARTS_CHUNK - 1) / PARTS_CHUNK;
    byte[] kind = new byte[n];
    int[] onesIn = new int[chunks];
    int[] fullIn = new int[chunks];
    chunkRange(chunks).forEach(c -> {
      for (int i = c * PARTS_CHUNK, end = Math.min(n, i + PARTS_CHUNK); i < end; i++) {
        int k = classify(scalars, i);
        kind[i] = (byte) k;
        if (k == ONE) {
          onesIn[c]++;
        } else if (k == FULL) {
          fullIn[c]++;
        }
      }
    });
    int[] onesAt = new int[chunks + 1];
    int[] fullAt = new int[chunks + 1];
    for (int c = 0; c < chunks; c++) {
      onesAt[c + 1] = onesAt[c] + onesIn[c];
      fullAt[c + 1] = fullAt[c] + fullIn[c];
    }
    int[] ones = new int[onesAt[chunks]];
    int[] full = new int[fullAt[chunks]];
    chunkRange(chunks).forEach(c -> {
      int o = onesAt[c];
      int f = fullAt[c];
      for (int i = c * PARTS_CHUNK, end = Math.min(n, i + PARTS_CHUNK); i < end; i++) {
        if (kind[i] == ONE) {
          ones[o++] = i;
        } else if (kind[i] == FULL) {
          full[f++] = i;
        }
      }
    });
    return new Parts(ones, full);
  }

  private static IntStream chunkRange(int chunks) {
    IntStream r = IntStream.range(0, chunks);
    return chunks > 1 ? r.parallel() : r;
  }

  /** The scalars at the given indices, packed (4 limbs each). */
  static long[] gather(long[] scalars, int[] idx) {
    long[] out = new long[Scalars.LIMBS * idx.length];
    for (int k = 0; k < idx.length; k++) {
      System.arraycopy(scalars, Scalars.LIMBS * idx[k], out, Scalars.LIMBS * k, Scalars.LIMBS);
    }
    return out;
  }

  static <A> A[] gather(A[] points, int[] idx, A[] into) {
    for (int k = 0; k < idx.length; k++) {
      into[k] = points[idx[k]];
    }
    return into;
  }

  /** The split MSM in G1 over canonical scalars (already checked), with {@code threads} threads. */
  static G1 g1(G1Bases bases, long[] scalars, int threads, boolean nativeMsm) {
    Parts parts = parts(scalars, bases.size());
    P1_Affine[] affine = bases.affine();
    P1 ones = parts.ones.length == 0 ? new P1()
        : nativeMsm ? BlstMsm.g1Sum(affine, parts.ones, parts.ones.length, threads)
        : javaSum(P1::new, affine, parts.ones, threads, P1::add, P1::add);
    P1 tail;
    int k = parts.full.length;
    long[] tailScalars = gather(scalars, parts.full);
    if (k >= 2 && nativeMsm) {
      tail = BlstMsm.g1Windows(affine, parts.full, tailScalars, k, Pippenger.windowBits(k, threads), threads);
    } else {
      tail = Pippenger.msm(G1.OPS, gather(affine, parts.full, new P1_Affine[k]),
          gather(bases.negated(), parts.full, new P1_Affine[k]), tailScalars, k, Pippenger.windowBits(k, threads),
          threads > 1 && k >= Pippenger.PARALLEL_THRESHOLD);
    }
    return G1.wrap(ones.add(tail));
  }

  /** As {@link #g1} in G2. */
  static G2 g2(G2Bases bases, long[] scalars, int threads, boolean nativeMsm) {
    Parts parts = parts(scalars, bases.size());
    P2_Affine[] affine = bases.affine();
    P2 ones = parts.ones.length == 0 ? new P2()
        : nativeMsm ? BlstMsm.g2Sum(affine, parts.ones, parts.ones.length, threads)
        : javaSum(P2::new, affine, parts.ones, threads, P2::add, P2::add);
    return G2.wrap(ones.add(g2Tail(bases, scalars, parts, threads, nativeMsm)));
  }

  /** The G2 MSM over the full-width scalars alone (the ones and zeros left out): the host's part of a split b_g2_msm. */
  static G2 g2Full(G2Bases bases, long[] scalars, int threads, boolean nativeMsm) {
    return G2.wrap(g2Tail(bases, scalars, parts(scalars, bases.size()), threads, nativeMsm));
  }

  private static P2 g2Tail(G2Bases bases, long[] scalars, Parts parts, int threads, boolean nativeMsm) {
    P2_Affine[] affine = bases.affine();
    P2 tail;
    int k = parts.full.length;
    long[] tailScalars = gather(scalars, parts.full);
    if (k >= 2 && nativeMsm) {
      tail = BlstMsm.g2Windows(affine, parts.full, tailScalars, k, Pippenger.windowBits(k, threads), threads);
    } else {
      tail = Pippenger.msm(G2.OPS, gather(affine, parts.full, new P2_Affine[k]),
          gather(bases.negated(), parts.full, new P2_Affine[k]), tailScalars, k, Pippenger.windowBits(k, threads),
          threads > 1 && k >= Pippenger.PARALLEL_THRESHOLD);
    }
    return tail;
  }

  /** Adds an affine point into a jacobian accumulator (mutating it). */
  @FunctionalInterface
  private interface AddAffine<J, A> {
    void add(J acc, A a);
  }

  /** sum of points[idx[k]] by jblst's mixed additions, in chunks on the common pool when threads allow. */
  private static <J, A> J javaSum(Supplier<J> identity, A[] points, int[] idx, int threads, BinaryOperator<J> add,
      AddAffine<J, A> addAffine) {
    int chunks = Math.max(1, Math.min(threads, idx.length / BlstMsm.MIN_CHUNK));
    IntStream ids = IntStream.range(0, chunks);
    if (chunks > 1) {
      ids = ids.parallel();
    }
    Object[] sums = ids.mapToObj(c -> {
      int from = (int) ((long) c * idx.length / chunks);
      int to = (int) ((long) (c + 1) * idx.length / chunks);
      J acc = identity.get();
      for (int k = from; k < to; k++) {
        addAffine.add(acc, points[idx[k]]);
      }
      return acc;
    }).toArray();
    @SuppressWarnings("unchecked")
    J acc = (J) sums[0];
    for (int c = 1; c < chunks; c++) {
      @SuppressWarnings("unchecked")
      J s = (J) sums[c];
      acc = add.apply(acc, s);
    }
    return acc;
  }
}
