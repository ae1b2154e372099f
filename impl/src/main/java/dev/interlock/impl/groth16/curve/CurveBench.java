package dev.interlock.impl.groth16.curve;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.ForkJoinPool;
import java.util.function.Supplier;

/**
 * A tiny benchmark of the curve layer: median MSM time in G1 and G2 for n = 2^10 .. 2^16 (median of
 * 3 after one warm-up run) and per-operation costs. Arguments: [maxLogN (16)] [seed (1)].
 */
public final class CurveBench {
  private CurveBench() {}

  /** Runs the benchmark and prints one line per measurement. */
  public static void main(String[] args) {
    int maxLog = args.length > 0 ? Integer.parseInt(args[0]) : 16;
    long seed = args.length > 1 ? Long.parseLong(args[1]) : 1;
    SplittableRandom rnd = new SplittableRandom(seed);
    int maxN = 1 << maxLog;
    System.out.printf(
        Locale.ROOT,
        "CurveBench: blst via jblst, %d cores, common pool parallelism %d, Java %s, seed %d%n",
        Runtime.getRuntime().availableProcessors(),
        ForkJoinPool.getCommonPoolParallelism(),
        System.getProperty("java.version"),
        seed);

    long t0 = System.nanoTime();
    G1Bases g1 =
        G1Bases.of(
            progression(G1.generator().mul(scalar(rnd)), G1.generator().mul(scalar(rnd)), maxN));
    G2Bases g2 =
        G2Bases.of(
            progression(G2.generator().mul(scalar(rnd)), G2.generator().mul(scalar(rnd)), maxN));
    System.out.printf(
        Locale.ROOT,
        "bases: %d G1 + %d G2 prepared in %.1f s%n",
        maxN,
        maxN,
        (System.nanoTime() - t0) / 1e9);
    long[] scalars = scalarLimbs(rnd, maxN);

    // sanity: Pippenger against the naive sum at the smallest size
    int check = Math.min(maxN, 1 << 10);
    G1Bases c1 = G1Bases.of(g1.toList().subList(0, check));
    G2Bases c2 = G2Bases.of(g2.toList().subList(0, check));
    long[] cs = Arrays.copyOf(scalars, 4 * check);
    if (!Msm.msm(c1, cs).equals(Msm.naive(c1, cs)) || !Msm.msm(c2, cs).equals(Msm.naive(c2, cs))) {
      throw new AssertionError("MSM disagrees with the naive sum");
    }

    System.out.println("MSM (median of 3 after 1 warm-up):");
    for (int log = 10; log <= maxLog; log += 2) {
      int n = 1 << log;
      G1Bases b1 = n == maxN ? g1 : G1Bases.of(g1.toList().subList(0, n));
      G2Bases b2 = n == maxN ? g2 : G2Bases.of(g2.toList().subList(0, n));
      long[] s = Arrays.copyOf(scalars, 4 * n);
      double m1 = medianMs(() -> Msm.msm(b1, s));
      double m2 = medianMs(() -> Msm.msm(b2, s));
      System.out.printf(
          Locale.ROOT,
          "  n = 2^%-2d  c = %2d   G1 %9.1f ms (%5.2f us/point)   G2 %9.1f ms (%5.2f us/point)%n",
          log,
          Msm.windowBits(n),
          m1,
          1000 * m1 / n,
          m2,
          1000 * m2 / n);
    }

    System.out.println("per operation (single thread, through the immutable API):");
    G1 p = G1.generator().mul(scalar(rnd));
    G1 q = G1.generator().mul(scalar(rnd));
    G2 p2 = G2.generator().mul(scalar(rnd));
    G2 q2 = G2.generator().mul(scalar(rnd));
    BigInteger k = scalar(rnd);
    perOp("G1 add", 200_000, () -> p.add(q));
    perOp("G1 mul (255-bit scalar)", 3_000, () -> p.mul(k));
    perOp("G2 add", 100_000, () -> p2.add(q2));
    perOp("G2 mul (255-bit scalar)", 1_000, () -> p2.mul(k));
    List<G1> as = List.of(p, q, p.add(q));
    List<G2> bs = List.of(p2, q2, p2.add(q2));
    perOp("pairing product of 3 pairs", 100, () -> Pairing.pairingProductIsOne(as, bs));
  }

  private static double medianMs(Supplier<Object> run) {
    run.get(); // warm-up
    double[] ms = new double[3];
    for (int i = 0; i < ms.length; i++) {
      long t = System.nanoTime();
      run.get();
      ms[i] = (System.nanoTime() - t) / 1e6;
    }
    Arrays.sort(ms);
    return ms[1];
  }

  private static void perOp(String what, int reps, Supplier<Object> op) {
    Object sink = null;
    for (int i = 0; i < reps / 4 + 1; i++) {
      sink = op.get(); // warm-up
    }
    double[] ns = new double[3];
    for (int r = 0; r < ns.length; r++) {
      long t = System.nanoTime();
      for (int i = 0; i < reps; i++) {
        sink = op.get();
      }
      ns[r] = (System.nanoTime() - t) / (double) reps;
    }
    Arrays.sort(ns);
    System.out.printf(
        Locale.ROOT, "  %-28s %10.2f us%s%n", what, ns[1] / 1000, sink == null ? "?" : "");
  }

  /** start, start + step, start + 2 step, ...: distinct random-looking points, cheaply. */
  private static List<G1> progression(G1 start, G1 step, int n) {
    List<G1> out = new ArrayList<>(n);
    G1 p = start;
    for (int i = 0; i < n; i++) {
      out.add(p);
      p = p.add(step);
    }
    return out;
  }

  private static List<G2> progression(G2 start, G2 step, int n) {
    List<G2> out = new ArrayList<>(n);
    G2 p = start;
    for (int i = 0; i < n; i++) {
      out.add(p);
      p = p.add(step);
    }
    return out;
  }

  private static BigInteger scalar(SplittableRandom rnd) {
    long[] l = new long[4];
    do {
      for (int k = 0; k < 4; k++) {
        l[k] = rnd.nextLong();
      }
      l[3] &= Long.MAX_VALUE;
    } while (!Scalars.isCanonical(l, 0));
    return Scalars.fromLimbs(l, 0);
  }

  private static long[] scalarLimbs(SplittableRandom rnd, int n) {
    long[] out = new long[4 * n];
    for (int i = 0; i < n; i++) {
      do {
        for (int k = 0; k < 4; k++) {
          out[4 * i + k] = rnd.nextLong();
        }
        out[4 * i + 3] &= Long.MAX_VALUE;
      } while (!Scalars.isCanonical(out, 4 * i));
    }
    return out;
  }
}
