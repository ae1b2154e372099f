package dev.interlock.prover.curve;

import java.util.function.BiConsumer;
import java.util.function.Function;
import java.util.stream.IntStream;

/**
 * Pippenger's bucket method with signed digits, generic over the blst point types (J: jacobian,
 * mutable; A: affine, read-only) through a group's {@link PointOps} ({@link G1#OPS}, {@link G2#OPS}). Internal to
 * {@link Msm}.
 *
 * <p>Signed digits: with window size c and h = 2^(c-1), scalar s (below 2^255) is written as s =
 * sum_j d_j 2^(cj) over W = floor(255/c) + 1 windows, where d_j = b_j + carry_j (b_j: bits [cj,
 * cj+c) of s), replaced by d_j - 2^c with carry_{j+1} = 1 when it exceeds h. So every d_j lies in
 * [-(h-1), h], and only h buckets per window are needed (a negative digit adds the negated base
 * into bucket |d|). The top window never carries out: it holds at most 255 mod c (or 0) bits of s
 * plus a carry, which is at most h. Each window can find its digit without the lower ones: the
 * carry into window j is 1 exactly when (s mod 2^(cj)) &gt; T_j = sum_{i&lt;j} h 2^(ci) (the
 * recoded lower digits cover exactly the 2^(cj) integers (T_j - 2^(cj), T_j]), so windows run
 * independently in parallel.
 */
final class Pippenger {
  /** Largest window size: 2^15 buckets of jacobian points per window in flight. */
  static final int MAX_WINDOW_BITS = 16;

  /** Below this many scalars the windows run on the calling thread. */
  static final int PARALLEL_THRESHOLD = 64;

  /** Cost of a jacobian addition (bucket reduction) relative to a mixed addition (accumulation). */
  private static final double JACOBIAN_ADD_COST = 1.5;

  private Pippenger() {}

  /** Windows of size c covering a 255-bit scalar with signed digits (see the class comment). */
  static int windowCount(int c) {
    return Scalars.BITS / c + 1;
  }

  /**
   * The window size for n scalars on {@code threads} threads: the c in [1, 16] minimizing ceil(W(c)
   * / threads) * (n + 1.5 * 2^c), W(c) = floor(255/c) + 1. Per window, accumulation costs n mixed
   * additions and the running-sum reduction of the 2^(c-1) buckets costs 2 * 2^(c-1) jacobian
   * additions (about 1.5 mixed additions each, measured with blst); windows run ceil(W/threads)
   * rounds. Ties go to the smaller c (less memory).
   */
  static int windowBits(int n, int threads) {
    int best = 1;
    double bestCost = Double.POSITIVE_INFINITY;
    for (int c = 1; c <= MAX_WINDOW_BITS; c++) {
      int rounds = (windowCount(c) + threads - 1) / threads;
      double cost = rounds * (n + JACOBIAN_ADD_COST * (1 << c));
      if (cost < bestCost) {
        best = c;
        bestCost = cost;
      }
    }
    return best;
  }

  /**
   * sum_i s_i * pos[i] for the first n bases, scalars canonical limbs (4 per scalar), window c;
   * neg[i] must be -pos[i]. Returns a fresh point the caller owns.
   */
  static <J, A> J msm(
      PointOps<?, J, A> ops, A[] pos, A[] neg, long[] scalars, int n, int c, boolean parallel) {
    if (c < 1 || c > MAX_WINDOW_BITS) {
      throw new IllegalArgumentException(
          "window bits must be in [1, " + MAX_WINDOW_BITS + "]: " + c);
    }
    if (n == 0) {
      return ops.infinity().get();
    }
    int w = windowCount(c);
    IntStream windows = IntStream.range(0, w);
    if (parallel) {
      windows = windows.parallel();
    }
    // toArray keeps window order, so the combination below is the same whatever the schedule
    Object[] sums = windows.mapToObj(j -> window(ops, pos, neg, scalars, n, c, j)).toArray();
    @SuppressWarnings("unchecked")
    J acc = (J) sums[w - 1];
    for (int j = w - 2; j >= 0; j--) {
      for (int k = 0; k < c; k++) {
        ops.dbl().accept(acc);
      }
      @SuppressWarnings("unchecked")
      J s = (J) sums[j];
      ops.add().accept(acc, s);
    }
    return acc;
  }

  /** sum over i of d_j(s_i) * P_i for window j: bucket accumulation then running-sum reduction. */
  private static <J, A> J window(
      PointOps<?, J, A> ops, A[] pos, A[] neg, long[] scalars, int n, int c, int j) {
    int h = 1 << (c - 1);
    long[] threshold = threshold(c, j);
    @SuppressWarnings("unchecked")
    J[] buckets = (J[]) new Object[h];
    // the operations in locals: one call each per point before C2 inlines them, as with the old Ops interface
    Function<A, J> toJacobian = ops.toJacobian();
    BiConsumer<J, A> addAffine = ops.addAffine();
    BiConsumer<J, J> add = ops.add();
    for (int i = 0; i < n; i++) {
      int d = digit(scalars, Scalars.LIMBS * i, c, j, threshold);
      if (d == 0) {
        continue;
      }
      A p = d > 0 ? pos[i] : neg[i];
      int k = Math.abs(d) - 1;
      J b = buckets[k];
      if (b == null) {
        buckets[k] = toJacobian.apply(p);
      } else {
        addAffine.accept(b, p);
      }
    }
    // sum_k (k+1) * B_k = sum over k of (B_h + ... + B_k), from the top bucket down
    J running = null;
    J sum = null;
    for (int k = h - 1; k >= 0; k--) {
      J b = buckets[k];
      if (b != null) {
        if (running == null) {
          running = b;
        } else {
          add.accept(running, b);
        }
      }
      if (running != null) {
        if (sum == null) {
          sum = ops.copy().apply(running);
        } else {
          add.accept(sum, running);
        }
      }
    }
    return sum == null ? ops.infinity().get() : sum;
  }

  /** T_j = sum_{i&lt;j} 2^(c-1) 2^(ci) as 4 little-endian limbs: bits c-1, 2c-1, ..., cj-1. */
  static long[] threshold(int c, int j) {
    long[] t = new long[Scalars.LIMBS];
    for (int i = 0; i < j; i++) {
      int bit = c * i + c - 1;
      t[bit >>> 6] |= 1L << (bit & 63);
    }
    return t;
  }

  /** The signed digit of window j of the scalar at limbs [off, off + 4); see the class comment. */
  static int digit(long[] s, int off, int c, int j, long[] threshold) {
    int lo = c * j; // at most 255: j <= floor(255/c)
    int limb = lo >>> 6;
    int shift = lo & 63;
    long v = s[off + limb] >>> shift;
    if (shift + c > 64 && limb < Scalars.LIMBS - 1) {
      v |= s[off + limb + 1] << (64 - shift);
    }
    int w = (int) (v & ((1L << c) - 1)) + (lowerExceeds(s, off, lo, threshold) ? 1 : 0);
    int h = 1 << (c - 1);
    return w > h ? w - (1 << c) : w;
  }

  /** Whether (s mod 2^lo) &gt; t, unsigned 256-bit comparison. */
  private static boolean lowerExceeds(long[] s, int off, int lo, long[] t) {
    for (int k = Scalars.LIMBS - 1; k >= 0; k--) {
      int base = 64 * k;
      long x;
      if (lo <= base) {
        x = 0;
      } else if (lo >= base + 64) {
        x = s[off + k];
      } else {
        x = s[off + k] & ((1L << (lo - base)) - 1);
      }
      int cmp = Long.compareUnsigned(x, t[k]);
      if (cmp != 0) {
        return cmp > 0;
      }
    }
    return false;
  }

  /**
   * All W(c) signed digits of one scalar (limbs [off, off + 4)), lowest window first; for tests.
   */
  static int[] signedDigits(long[] s, int off, int c) {
    int[] d = new int[windowCount(c)];
    for (int j = 0; j < d.length; j++) {
      d[j] = digit(s, off, c, j, threshold(c, j));
    }
    return d;
  }
}
