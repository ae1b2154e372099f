package dev.interlock.prover.curve;

import com.sun.jna.Library;
import com.sun.jna.Memory;
import com.sun.jna.Native;
import com.sun.jna.Pointer;
import java.io.File;
import java.util.Locale;
import java.util.function.BinaryOperator;
import java.util.function.Function;
import java.util.function.LongUnaryOperator;
import java.util.function.UnaryOperator;
import java.util.stream.IntStream;
import supranational.blst.P1;
import supranational.blst.P1_Affine;
import supranational.blst.P2;
import supranational.blst.P2_Affine;

/**
 * MSM by blst's own Pippenger ({@code blst_p1s_mult_pippenger}, {@code blst_p2s_mult_pippenger}), called through
 * JNA in the libblst that jblst ships. Internal to {@link Msm}.
 *
 * <p>Why: jblst's SWIG binding exposes single-point operations only, so {@link Pippenger} pays a JNI call and a
 * Java object per addition; blst's C Pippenger (XYZZ buckets, Booth digits, prefetching) does the whole sum in
 * one call. It runs on one thread, so the points are cut into chunks of at least {@value #MIN_CHUNK} (at most one
 * per thread), each chunk is one native call, and the chunk sums are added here. Each chunk copies its points'
 * structs and its scalars into native memory of its own (freed when the chunk ends), so nothing native outlives
 * a call; while one runs, that is n * (point struct + 32) bytes plus blst's scratch per chunk: about 0.9 GB for a
 * G2 MSM of 2^22 points (192-byte affine structs), outside the Java heap and its -Xmx.
 *
 * <p>blst reads {@value #SCALAR_BITS}-bit little-endian scalars, which canonical F_r limbs are on a
 * little-endian machine; the library is loaded only there. It must not be given fewer than two points (its
 * tile loop reads one scalar ahead), so single-point chunks never occur.
 */
final class BlstMsm {
  /** Fewest points a chunk takes when the work is split across threads. */
  static final int MIN_CHUNK = 1 << 12;

  private static final int SCALAR_BITS = Scalars.BITS;
  private static final int SCALAR_BYTES = 32;
  /** Points copied to native memory per write. */
  private static final int COPY_BLOCK = 1 << 10;

  /** The entry points used; size_t is a Java long (64-bit platforms only). */
  interface Lib extends Library {
    long blst_p1s_mult_pippenger_scratch_sizeof(long npoints);

    void blst_p1s_tile_pippenger(long[] ret, Pointer[] points, long npoints, Pointer[] scalars, long nbits,
        Pointer scratch, long bit0, long window);

    void blst_p1s_add(long[] ret, Pointer[] points, long npoints);

    long blst_p2s_mult_pippenger_scratch_sizeof(long npoints);

    void blst_p2s_tile_pippenger(long[] ret, Pointer[] points, long npoints, Pointer[] scalars, long nbits,
        Pointer scratch, long bit0, long window);

    void blst_p2s_add(long[] ret, Pointer[] points, long npoints);

    void blst_p1s_mult_pippenger(
        long[] ret, Pointer[] points, long npoints, Pointer[] scalars, long nbits, Pointer scratch);

    void blst_p2s_mult_pippenger(
        long[] ret, Pointer[] points, long npoints, Pointer[] scalars, long nbits, Pointer scratch);
  }

  private static final Loaded LOADED = Loaded.load();

  private BlstMsm() {}

  /** Whether the native Pippenger can be used here. */
  static boolean available() {
    return LOADED.lib != null;
  }

  /** What is used, or why the native path is not available. */
  static String description() {
    return LOADED.lib != null ? "blst native Pippenger (" + LOADED.source + ")" : LOADED.source;
  }

  /** sum_i s_i * bases[i] in G1 for the first n bases (n at least 2), in at most {@code threads} chunks. */
  static P1 g1(P1_Affine[] bases, long[] scalars, int n, int threads) {
    return msm(G1_SPEC, bases, scalars, n, threads);
  }

  /** sum_i s_i * bases[i] in G2 for the first n bases (n at least 2), in at most {@code threads} chunks. */
  static P2 g2(P2_Affine[] bases, long[] scalars, int n, int threads) {
    return msm(G2_SPEC, bases, scalars, n, threads);
  }

  /** Chunks for n points on the given threads: as many as threads, but none below MIN_CHUNK points. */
  static int chunks(int n, int threads) {
    return Math.max(1, Math.min(threads, n / MIN_CHUNK));
  }

  /**
   * sum of {@code bases[idx[k]]} over k in [0, count) (count at least 1) in G1: blst's batch addition (affine,
   * Montgomery's trick for the inversions), in at most {@code threads} chunks of at least {@value #MIN_CHUNK} points.
   */
  static P1 g1Sum(P1_Affine[] bases, int[] idx, int count, int threads) {
    return sum(G1_SPEC, bases, idx, count, threads);
  }

  /** As {@link #g1Sum} in G2. */
  static P2 g2Sum(P2_Affine[] bases, int[] idx, int count, int threads) {
    return sum(G2_SPEC, bases, idx, count, threads);
  }

  /**
   * sum_k s_k * bases[idx[k]] in G1 for k in [0, n) (n at least 2; scalars canonical limbs, scalar k at [4k, 4k+4))
   * by blst's Pippenger split into its windows: one task per window of {@code window} bits over all n points, run
   * on up to {@code threads} threads, and the window sums combined by doublings. For small n on many threads, where
   * {@link #g1} could cut too few chunks of {@value #MIN_CHUNK} points to keep the threads busy.
   */
  static P1 g1Windows(P1_Affine[] bases, int[] idx, long[] scalars, int n, int window, int threads) {
    return windows(G1_SPEC, bases, idx, scalars, n, window, threads);
  }

  /** As {@link #g1Windows} in G2. */
  static P2 g2Windows(P2_Affine[] bases, int[] idx, long[] scalars, int n, int window, int threads) {
    return windows(G2_SPEC, bases, idx, scalars, n, window, threads);
  }

  /** One group's struct sizes and entry points. */
  private record Spec<J, A>(
      int affineLongs,
      int jacobianLongs,
      Function<A, long[]> limbs,
      Function<long[], J> wrap,
      BinaryOperator<J> add,
      UnaryOperator<J> dbl,
      LongUnaryOperator scratchBytes,
      Mult mult,
      Tile tile,
      Sum sum) {}

  @FunctionalInterface
  private interface Mult {
    void run(long[] ret, Pointer[] points, long n, Pointer[] scalars, long nbits, Pointer scratch);
  }

  @FunctionalInterface
  private interface Tile {
    void run(long[] ret, Pointer[] points, long n, Pointer[] scalars, long nbits, Pointer scratch, long bit0, long window);
  }

  @FunctionalInterface
  private interface Sum {
    void run(long[] ret, Pointer[] points, long n);
  }

  private static final Spec<P1, P1_Affine> G1_SPEC =
      new Spec<>(
          BlstStructs.P1_AFFINE_LONGS,
          BlstStructs.P1_LONGS,
          BlstStructs::limbs,
          BlstStructs::p1,
          P1::add,
          P1::dbl,
          n -> LOADED.lib.blst_p1s_mult_pippenger_scratch_sizeof(n),
          (r, p, n, s, b, t) -> LOADED.lib.blst_p1s_mult_pippenger(r, p, n, s, b, t),
          (r, p, n, s, b, t, b0, w) -> LOADED.lib.blst_p1s_tile_pippenger(r, p, n, s, b, t, b0, w),
          (r, p, n) -> LOADED.lib.blst_p1s_add(r, p, n));

  private static final Spec<P2, P2_Affine> G2_SPEC =
      new Spec<>(
          BlstStructs.P2_AFFINE_LONGS,
          BlstStructs.P2_LONGS,
          BlstStructs::limbs,
          BlstStructs::p2,
          P2::add,
          P2::dbl,
          n -> LOADED.lib.blst_p2s_mult_pippenger_scratch_sizeof(n),
          (r, p, n, s, b, t) -> LOADED.lib.blst_p2s_mult_pippenger(r, p, n, s, b, t),
          (r, p, n, s, b, t, b0, w) -> LOADED.lib.blst_p2s_tile_pippenger(r, p, n, s, b, t, b0, w),
          (r, p, n) -> LOADED.lib.blst_p2s_add(r, p, n));

  private static <J, A> J msm(Spec<J, A> spec, A[] bases, long[] scalars, int n, int threads) {
    if (!available()) {
      throw new IllegalStateException(description());
    }
    if (n < 2 || n > bases.length || scalars.length < Scalars.LIMBS * n) {
      throw new IllegalArgumentException(
          "native MSM needs 2..bases points with 4 limbs each: n = " + n + ", " + bases.length + " bases, "
              + scalars.length + " limbs");
    }
    return combine(spec, overChunks(n, threads, (from, count) -> chunk(spec, bases, scalars, from, count)));
  }

  /** What a chunk of the points [from, from + count) contributes. */
  private interface ChunkWork {
    Object apply(int from, int count);
  }

  /**
   * {@code work} over the chunks of [0, count), in parallel when there are several: chunk c covers [c count / chunks,
   * (c + 1) count / chunks), at least MIN_CHUNK >= 2 points when chunks > 1.
   */
  private static Object[] overChunks(int count, int threads, ChunkWork work) {
    int chunks = chunks(count, threads);
    IntStream ids = IntStream.range(0, chunks);
    if (chunks > 1) {
      ids = ids.parallel();
    }
    return ids.mapToObj(
            c -> {
              int from = (int) ((long) c * count / chunks);
              int to = (int) ((long) (c + 1) * count / chunks);
              return work.apply(from, to - from);
            })
        .toArray();
  }

  private static <J, A> J chunk(Spec<J, A> spec, A[] bases, long[] scalars, int from, int count) {
    try (Memory points = points(spec, bases, null, from, count);
        Memory digits = new Memory((long) count * SCALAR_BYTES);
        Memory scratch = new Memory(Math.max(1, spec.scratchBytes.applyAsLong(count)))) {
      digits.write(0, scalars, Scalars.LIMBS * from, Scalars.LIMBS * count);
      long[] ret = new long[spec.jacobianLongs];
      // a second pointer of null means "the rest follow contiguously" to blst
      spec.mult.run(
          ret, new Pointer[] {points, null}, count, new Pointer[] {digits, null}, SCALAR_BITS, scratch);
      return spec.wrap.apply(ret);
    }
  }

  /**
   * Native memory holding {@code bases[idx[from + k]]} (or {@code bases[from + k]} when idx is null) for k in [0,
   * count), blst's affine structs back to back; the caller closes it.
   */
  private static <J, A> Memory points(Spec<J, A> spec, A[] bases, int[] idx, int from, int count) {
    int stride = spec.affineLongs;
    Memory points = new Memory((long) count * stride * Long.BYTES);
    long[] block = new long[COPY_BLOCK * stride];
    for (int i = 0; i < count; i += COPY_BLOCK) {
      int k = Math.min(COPY_BLOCK, count - i);
      for (int j = 0; j < k; j++) {
        int at = from + i + j;
        System.arraycopy(spec.limbs.apply(bases[idx == null ? at : idx[at]]), 0, block, j * stride, stride);
      }
      points.write((long) i * stride * Long.BYTES, block, 0, k * stride);
    }
    return points;
  }

  private static <J, A> J sum(Spec<J, A> spec, A[] bases, int[] idx, int count, int threads) {
    if (!available()) {
      throw new IllegalStateException(description());
    }
    if (count < 1 || count > idx.length) {
      throw new IllegalArgumentException("native batch addition needs 1.." + idx.length + " points, got " + count);
    }
    Object[] sums =
        overChunks(
            count,
            threads,
            (from, k) -> {
              try (Memory points = points(spec, bases, idx, from, k)) {
                long[] ret = new long[spec.jacobianLongs];
                spec.sum.run(ret, new Pointer[] {points, null}, k);
                return spec.wrap.apply(ret);
              }
            });
    return combine(spec, sums);
  }

  private static <J, A> J windows(Spec<J, A> spec, A[] bases, int[] idx, long[] scalars, int n, int window, int threads) {
    if (!available()) {
      throw new IllegalStateException(description());
    }
    if (n < 2 || n > idx.length || scalars.length < Scalars.LIMBS * n || window < 1 || window > Pippenger.MAX_WINDOW_BITS) {
      throw new IllegalArgumentException("native windowed MSM needs 2.." + idx.length + " points with 4 limbs each and a "
          + "window in [1, " + Pippenger.MAX_WINDOW_BITS + "]: n = " + n + ", " + scalars.length + " limbs, window " + window);
    }
    // tile k covers bits [k window, (k + 1) window) with blst's signed digits; the top one, at bit0 = 255 when the
    // window divides 255, holds the carry out of the one below it
    int tiles = SCALAR_BITS / window + 1;
    long bucketBytes = xyzzBytes(spec) << (window - 1);
    try (Memory points = points(spec, bases, idx, 0, n); Memory digits = new Memory((long) n * SCALAR_BYTES)) {
      digits.write(0, scalars, 0, Scalars.LIMBS * n);
      IntStream ks = IntStream.range(0, tiles);
      if (threads > 1) {
        ks = ks.parallel();
      }
      Object[] sums =
          ks.mapToObj(
                  k -> {
                    try (Memory buckets = new Memory(bucketBytes)) {
                      buckets.clear(); // blst expects zeroed buckets (and leaves them zeroed)
                      long[] ret = new long[spec.jacobianLongs];
                      spec.tile.run(ret, new Pointer[] {points, null}, n, new Pointer[] {digits, null}, SCALAR_BITS,
                          buckets, (long) k * window, window);
                      return spec.wrap.apply(ret);
                    }
                  })
              .toArray();
      @SuppressWarnings("unchecked")
      J acc = (J) sums[tiles - 1];
      for (int k = tiles - 2; k >= 0; k--) {
        for (int d = 0; d < window; d++) {
          acc = spec.dbl.apply(acc);
        }
        @SuppressWarnings("unchecked")
        J s = (J) sums[k];
        acc = spec.add.apply(acc, s);
      }
      return acc;
    }
  }

  /** Bytes of one of blst's XYZZ buckets: its Pippenger scratch for 1024 points is 2^7 of them (window 8). */
  private static <J, A> long xyzzBytes(Spec<J, A> spec) {
    return spec.scratchBytes.applyAsLong(1 << 10) >> 7;
  }

  private static <J, A> J combine(Spec<J, A> spec, Object[] sums) {
    @SuppressWarnings("unchecked")
    J acc = (J) sums[0];
    for (int c = 1; c < sums.length; c++) {
      @SuppressWarnings("unchecked")
      J s = (J) sums[c];
      acc = spec.add.apply(acc, s);
    }
    return acc;
  }

  /** The library, or null with the reason it could not be loaded. */
  private record Loaded(Lib lib, String source) {
    static Loaded load() {
      if (!"64".equals(System.getProperty("sun.arch.data.model"))
          || !java.nio.ByteOrder.nativeOrder().equals(java.nio.ByteOrder.LITTLE_ENDIAN)) {
        return new Loaded(null, "native MSM needs a 64-bit little-endian platform");
      }
      // where jblst keeps its library for this platform (the same rule as its own loader)
      String os = System.getProperty("os.name").replaceFirst(" .*", "");
      String resource =
          "/supranational/blst/" + os + "/" + System.getProperty("os.arch") + "/"
              + System.mapLibraryName("blst");
      try {
        File file = Native.extractFromResourcePath(resource, P1.class.getClassLoader());
        Lib lib = Native.load(file.getAbsolutePath(), Lib.class);
        return new Loaded(lib, "libblst from jblst, " + resource.substring(1));
      } catch (java.io.IOException | LinkageError e) {
        return new Loaded(
            null,
            String.format(
                Locale.ROOT, "native MSM unavailable: %s: %s", resource, e.getMessage()));
      }
    }
  }
}
