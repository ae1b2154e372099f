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

  /** The four entry points used; size_t is a Java long (64-bit platforms only). */
  interface Lib extends Library {
    long blst_p1s_mult_pippenger_scratch_sizeof(long npoints);

    void blst_p1s_mult_pippenger(
        long[] ret, Pointer[] points, long npoints, Pointer[] scalars, long nbits, Pointer scratch);

    long blst_p2s_mult_pippenger_scratch_sizeof(long npoints);

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

  /** One group's struct sizes and entry points. */
  private record Spec<J, A>(
      int affineLongs,
      int jacobianLongs,
      Function<A, long[]> limbs,
      Function<long[], J> wrap,
      BinaryOperator<J> add,
      LongUnaryOperator scratchBytes,
      Mult mult) {}

  @FunctionalInterface
  private interface Mult {
    void run(long[] ret, Pointer[] points, long n, Pointer[] scalars, long nbits, Pointer scratch);
  }

  private static final Spec<P1, P1_Affine> G1_SPEC =
      new Spec<>(
          BlstStructs.P1_AFFINE_LONGS,
          BlstStructs.P1_LONGS,
          BlstStructs::limbs,
          BlstStructs::p1,
          P1::add,
          n -> LOADED.lib.blst_p1s_mult_pippenger_scratch_sizeof(n),
          (r, p, n, s, b, t) -> LOADED.lib.blst_p1s_mult_pippenger(r, p, n, s, b, t));

  private static final Spec<P2, P2_Affine> G2_SPEC =
      new Spec<>(
          BlstStructs.P2_AFFINE_LONGS,
          BlstStructs.P2_LONGS,
          BlstStructs::limbs,
          BlstStructs::p2,
          P2::add,
          n -> LOADED.lib.blst_p2s_mult_pippenger_scratch_sizeof(n),
          (r, p, n, s, b, t) -> LOADED.lib.blst_p2s_mult_pippenger(r, p, n, s, b, t));

  private static <J, A> J msm(Spec<J, A> spec, A[] bases, long[] scalars, int n, int threads) {
    if (!available()) {
      throw new IllegalStateException(description());
    }
    if (n < 2 || n > bases.length || scalars.length < Scalars.LIMBS * n) {
      throw new IllegalArgumentException(
          "native MSM needs 2..bases points with 4 limbs each: n = " + n + ", " + bases.length + " bases, "
              + scalars.length + " limbs");
    }
    int chunks = chunks(n, threads);
    IntStream ids = IntStream.range(0, chunks);
    if (chunks > 1) {
      ids = ids.parallel();
    }
    // chunk c covers [c n / chunks, (c + 1) n / chunks): at least MIN_CHUNK >= 2 points when chunks > 1
    Object[] sums =
        ids.mapToObj(
                c -> {
                  int from = (int) ((long) c * n / chunks);
                  int to = (int) ((long) (c + 1) * n / chunks);
                  return chunk(spec, bases, scalars, from, to - from);
                })
            .toArray();
    @SuppressWarnings("unchecked")
    J acc = (J) sums[0];
    for (int c = 1; c < chunks; c++) {
      @SuppressWarnings("unchecked")
      J s = (J) sums[c];
      acc = spec.add.apply(acc, s);
    }
    return acc;
  }

  private static <J, A> J chunk(Spec<J, A> spec, A[] bases, long[] scalars, int from, int count) {
    int stride = spec.affineLongs;
    try (Memory points = new Memory((long) count * stride * Long.BYTES);
        Memory digits = new Memory((long) count * SCALAR_BYTES);
        Memory scratch = new Memory(Math.max(1, spec.scratchBytes.applyAsLong(count)))) {
      long[] block = new long[COPY_BLOCK * stride];
      for (int i = 0; i < count; i += COPY_BLOCK) {
        int k = Math.min(COPY_BLOCK, count - i);
        for (int j = 0; j < k; j++) {
          System.arraycopy(spec.limbs.apply(bases[from + i + j]), 0, block, j * stride, stride);
        }
        points.write((long) i * stride * Long.BYTES, block, 0, k * stride);
      }
      digits.write(0, scalars, Scalars.LIMBS * from, Scalars.LIMBS * count);
      long[] ret = new long[spec.jacobianLongs];
      // a second pointer of null means "the rest follow contiguously" to blst
      spec.mult.run(
          ret, new Pointer[] {points, null}, count, new Pointer[] {digits, null}, SCALAR_BITS, scratch);
      return spec.wrap.apply(ret);
    }
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
