package dev.interlock.prover.field;

import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.IntConsumer;
import java.util.stream.IntStream;

/**
 * In-place radix-2 number-theoretic transforms over F_r vectors of n = 2^logN elements (logN ≤ {@link #MAX_LOG_N}),
 * natural order in and out.
 *
 * <p>{@link #forward} maps coefficients c_0..c_{n-1} to the evaluations c(omega^i), omega = {@link
 * Domain#rootOfUnity}(logN); {@link #inverse} undoes it (scaled by n^-1). The coset variants evaluate on g·H. The
 * algorithm is iterative Cooley-Tukey decimation in time: a bit-reversal permutation, then logN butterfly stages. The
 * first stages run block by block (each block of 2^10 elements stays in cache), the later ones stage by stage. From
 * n = 2^{@value #PARALLEL_LOG_N} on, blocks, stage chunks and the permutation are spread over the common ForkJoin pool;
 * every butterfly writes its own two elements and stages are separated by joins, so the result is bit-identical to
 * the sequential run. Twiddle tables ({@code omega^j, j < n/2}) are computed once per size and cached; they are never
 * written after publication, so transforms of any sizes may run concurrently (on distinct vectors).
 */
public final class Ntt {
  /** The largest supported logN (the vector then holds 2^30 limbs). */
  public static final int MAX_LOG_N = 28;
  /** Sizes from 2^PARALLEL_LOG_N elements use the common ForkJoin pool (on machines with more than one CPU). */
  static final int PARALLEL_LOG_N = 14;
  /** log2 of the block size whose stages run together in phase one. */
  private static final int BLOCK_LOG = 10;
  /** log2 of the number of butterflies, multiplications or swaps per parallel task. */
  private static final int CHUNK_LOG = 12;

  private static final ConcurrentHashMap<Integer, long[]> TWIDDLES = new ConcurrentHashMap<>();

  private Ntt() {}

  /** Coefficients to evaluations on H: v[i] := sum_j v[j]·omega^(ij), in place; v holds exactly 2^logN elements. */
  public static void forward(long[] v, int logN) {
    forward(v, logN, defaultParallel(logN));
  }

  /** {@link #forward(long[], int)}, choosing sequential or parallel execution (same result either way). */
  public static void forward(long[] v, int logN, boolean parallel) {
    checkVector(v, logN);
    transform(v, logN, parallel);
  }

  /** Evaluations on H to coefficients: the inverse of {@link #forward}, scaled by n^-1, in place. */
  public static void inverse(long[] v, int logN) {
    inverse(v, logN, defaultParallel(logN));
  }

  /** {@link #inverse(long[], int)}, choosing sequential or parallel execution. */
  static void inverse(long[] v, int logN, boolean parallel) {
    checkVector(v, logN);
    inverseUnscaled(v, logN, parallel);
    scaleByPowers(v, logN, Domain.of(logN).sizeInverse(), FrElement.ONE, parallel);
  }

  /** Coefficients to evaluations on the coset shift·H: multiplies v[i] by shift^i, then {@link #forward}. */
  public static void cosetForward(long[] v, int logN, FrElement shift) {
    cosetForward(v, logN, shift, defaultParallel(logN));
  }

  /** {@link #cosetForward(long[], int, FrElement)} on the standard coset 7·H. */
  public static void cosetForward(long[] v, int logN) {
    cosetForward(v, logN, Domain.GENERATOR);
  }

  /** {@link #cosetForward(long[], int, FrElement)}, choosing sequential or parallel execution. */
  static void cosetForward(long[] v, int logN, FrElement shift, boolean parallel) {
    checkVector(v, logN);
    Objects.requireNonNull(shift, "shift");
    scaleByPowers(v, logN, FrElement.ONE, shift, parallel);
    transform(v, logN, parallel);
  }

  /** Evaluations on shift·H to coefficients: the inverse of {@link #cosetForward}; shift must be non-zero. */
  public static void cosetInverse(long[] v, int logN, FrElement shift) {
    cosetInverse(v, logN, shift, defaultParallel(logN));
  }

  /** {@link #cosetInverse(long[], int, FrElement)} on the standard coset 7·H. */
  public static void cosetInverse(long[] v, int logN) {
    cosetInverse(v, logN, Domain.GENERATOR);
  }

  /** {@link #cosetInverse(long[], int, FrElement)}, choosing sequential or parallel execution. */
  static void cosetInverse(long[] v, int logN, FrElement shift, boolean parallel) {
    checkVector(v, logN);
    Objects.requireNonNull(shift, "shift");
    FrElement shiftInverse = shift.inverse();
    inverseUnscaled(v, logN, parallel);
    scaleByPowers(v, logN, Domain.of(logN).sizeInverse(), shiftInverse, parallel);
  }

  /** Drops the cached twiddle tables (they take 16·n bytes per size used). */
  public static void clearCache() {
    TWIDDLES.clear();
  }

  // ---------------------------------------------------------------- internals

  static void checkLogN(int logN) {
    if (logN < 0 || logN > MAX_LOG_N) {
      throw new IllegalArgumentException("logN must be in [0, " + MAX_LOG_N + "], got " + logN);
    }
  }

  private static void checkVector(long[] v, int logN) {
    Objects.requireNonNull(v, "vector");
    checkLogN(logN);
    if (v.length != Fr.LIMBS << logN) {
      throw new IllegalArgumentException(
          "vector of " + v.length + " limbs is not 2^" + logN + " elements (" + (Fr.LIMBS << logN) + " limbs)");
    }
  }

  /** Parallel from 2^PARALLEL_LOG_N on, given two or more CPUs (the calling thread joins the pool's workers). */
  private static boolean defaultParallel(int logN) {
    return logN >= PARALLEL_LOG_N && Runtime.getRuntime().availableProcessors() > 1;
  }

  /** Runs body(0..tasks-1), on the common pool when parallel. */
  private static void forEach(int tasks, boolean parallel, IntConsumer body) {
    if (parallel && tasks > 1) {
      IntStream.range(0, tasks).parallel().forEach(body);
    } else {
      for (int t = 0; t < tasks; t++) {
        body.accept(t);
      }
    }
  }

  /** omega^j for j < n/2 (Montgomery, as a vector), cached per logN. */
  static long[] twiddles(int logN) {
    long[] tw = TWIDDLES.get(logN);
    if (tw == null) {
      tw = computeTwiddles(logN);
      long[] prev = TWIDDLES.putIfAbsent(logN, tw);
      if (prev != null) {
        tw = prev;
      }
    }
    return tw;
  }

  private static long[] computeTwiddles(int logN) {
    int half = logN == 0 ? 1 : 1 << (logN - 1);
    long[] tw = Fr.newVector(half);
    FrElement omega = Domain.rootOfUnity(logN);
    long[] w = omega.limbs();
    int chunkLog = Math.min(CHUNK_LOG, logN == 0 ? 0 : logN - 1);
    int chunk = 1 << chunkLog;
    forEach(half >> chunkLog, defaultParallel(logN), c -> {
      int start = c << chunkLog;
      omega.pow(start).writeTo(tw, start);
      for (int j = start + 1; j < start + chunk; j++) {
        Fr.mul(tw, j - 1, w, 0, tw, j);
      }
    });
    return tw;
  }

  /** The unscaled DIT transform: bit reversal then all stages, with omega's twiddles. */
  private static void transform(long[] v, int logN, boolean parallel) {
    if (logN == 0) {
      return;
    }
    long[] tw = twiddles(logN);
    bitReverse(v, logN, parallel);
    int n = 1 << logN;
    // phase one: stages with half-size h < 2^blockLog, block by block
    int blockLog = Math.min(logN, BLOCK_LOG);
    int blockSize = 1 << blockLog;
    forEach(n >> blockLog, parallel, b -> {
      int base = b << blockLog;
      for (int blk = base; blk < base + blockSize; blk += 2) {
        Fr.addSub(v, blk, blk + 1);
      }
      for (int s = 1; s < blockLog; s++) {
        int h = 1 << s;
        int stride = n >>> (s + 1);
        for (int blk = base; blk < base + blockSize; blk += 2 * h) {
          Fr.addSub(v, blk, blk + h);
          for (int j = 1; j < h; j++) {
            Fr.butterfly(v, blk + j, blk + j + h, tw, j * stride);
          }
        }
      }
    });
    // phase two: the remaining stages, each over all n/2 butterflies in chunks
    int chunkLog = Math.min(CHUNK_LOG, logN - 1);
    int chunk = 1 << chunkLog;
    for (int s = blockLog; s < logN; s++) {
      final int stage = s;
      int h = 1 << s;
      int stride = n >>> (s + 1);
      forEach((n >>> 1) >> chunkLog, parallel, c -> {
        int first = c << chunkLog;
        for (int t = first; t < first + chunk; t++) {
          int j = t & (h - 1);
          int i0 = ((t >>> stage) << (stage + 1)) + j;
          if (j == 0) {
            Fr.addSub(v, i0, i0 + h);
          } else {
            Fr.butterfly(v, i0, i0 + h, tw, j * stride);
          }
        }
      });
    }
  }

  /** n·(inverse transform): the forward transform then v[i] ↔ v[n-i] (evaluating at omega^-i = omega^(n-i)). */
  private static void inverseUnscaled(long[] v, int logN, boolean parallel) {
    transform(v, logN, parallel);
    int n = 1 << logN;
    long[] tmp = new long[Fr.LIMBS];
    for (int i = 1; i < n - i; i++) {
      Fr.copy(v, i, tmp, 0);
      Fr.copy(v, n - i, v, i);
      Fr.copy(tmp, 0, v, n - i);
    }
  }

  /** v[i] := v[i]·first·base^i for all i. */
  private static void scaleByPowers(long[] v, int logN, FrElement first, FrElement base, boolean parallel) {
    int n = 1 << logN;
    int chunkLog = Math.min(CHUNK_LOG, logN);
    int chunk = 1 << chunkLog;
    long[] b = base.limbs();
    boolean plainScale = base.isOne();
    forEach(n >> chunkLog, parallel, c -> {
      int start = c << chunkLog;
      long[] p = new long[Fr.LIMBS];
      first.mul(base.pow(start)).writeTo(p, 0);
      for (int i = start; i < start + chunk; i++) {
        Fr.mul(v, i, p, 0, v, i);
        if (!plainScale) {
          Fr.mul(p, 0, b, 0, p, 0);
        }
      }
    });
  }

  /** Permutes v into bit-reversed index order (swapping each pair once). */
  private static void bitReverse(long[] v, int logN, boolean parallel) {
    int n = 1 << logN;
    int shift = 32 - logN;
    int chunkLog = Math.min(CHUNK_LOG, logN);
    int chunk = 1 << chunkLog;
    forEach(n >> chunkLog, parallel, c -> {
      int first = c << chunkLog;
      for (int i = first; i < first + chunk; i++) {
        int j = Integer.reverse(i) >>> shift;
        if (i < j) {
          int p = i * Fr.LIMBS;
          int q = j * Fr.LIMBS;
          long x0 = v[p];
          long x1 = v[p + 1];
          long x2 = v[p + 2];
          long x3 = v[p + 3];
          v[p] = v[q];
          v[p + 1] = v[q + 1];
          v[p + 2] = v[q + 2];
          v[p + 3] = v[q + 3];
          v[q] = x0;
          v[q + 1] = x1;
          v[q + 2] = x2;
          v[q + 3] = x3;
        }
      }
    });
  }
}
