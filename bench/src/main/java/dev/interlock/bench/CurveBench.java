package dev.interlock.bench;

import dev.interlock.prover.*;
import dev.interlock.prover.curve.*;
import dev.interlock.prover.field.*;

import java.math.BigInteger;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.ForkJoinPool;
import java.util.function.Supplier;

/**
 * A tiny benchmark of the curve layer: {@link MsmBench} for n = 2^10 .. 2^maxLogN, then per-operation costs.
 * Arguments: [maxLogN (16)] [seed (1)].
 */
public final class CurveBench {
  private CurveBench() {}

  /** Runs the benchmark and prints one line per measurement. */
  public static void main(String[] args) {
    int maxLog = args.length > 0 ? Integer.parseInt(args[0]) : 16;
    long seed = args.length > 1 ? Long.parseLong(args[1]) : 1;
    SplittableRandom rnd = new SplittableRandom(seed);
    System.out.printf(
        Locale.ROOT,
        "CurveBench: blst via jblst, %d cores, common pool parallelism %d, Java %s, seed %d%n",
        Runtime.getRuntime().availableProcessors(),
        ForkJoinPool.getCommonPoolParallelism(),
        System.getProperty("java.version"),
        seed);

    if (!MsmBench.run(10, maxLog, maxLog, seed)) {
      throw new AssertionError("the MSM implementations disagree");
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

  private static BigInteger scalar(SplittableRandom rnd) {
    return MsmBench.scalar(rnd);
  }
}
