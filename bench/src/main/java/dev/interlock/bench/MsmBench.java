package dev.interlock.bench;

import dev.interlock.prover.*;
import dev.interlock.prover.curve.*;
import dev.interlock.prover.field.*;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.ForkJoinPool;
import java.util.function.Supplier;

/**
 * CPU MSM benchmark, G1 and G2: {@link Msm}'s default implementation (blst's native Pippenger where it loads)
 * against the Java Pippenger over jblst, median of 3 after a warm-up, at n = 2^from .. 2^to in steps of 2. Every
 * size measured both ways is also checked to give the same point. Not a test: it prints figures.
 */
public final class MsmBench {
  private static final int RUNS = 3;

  private MsmBench() {}

  /**
   * Runs the benchmark: sizes 2^from .. 2^to, the Java Pippenger only up to 2^javaTo (it is slow at large n).
   * Returns false if the two implementations disagreed anywhere.
   */
  public static boolean run(int from, int to, int javaTo, long seed) {
    SplittableRandom rnd = new SplittableRandom(seed);
    int maxN = 1 << to;
    Bases bases = Bases.prepare("MSM on the CPU", to, rnd, seed);
    long[] scalars = scalarLimbs(rnd, maxN);
    System.out.println("times in ms, median of " + RUNS + " after 1 warm-up; 'java' = Java Pippenger over jblst");
    System.out.printf(Locale.ROOT, "%-7s %12s %12s %12s %12s %9s%n", "n", "G1 default", "G1 java", "G2 default", "G2 java", "agree");
    boolean allAgree = true;
    for (int log = from; log <= to; log += 2) {
      int n = 1 << log;
      G1Bases b1 = bases.g1(n);
      G2Bases b2 = bases.g2(n);
      long[] s = Arrays.copyOf(scalars, Scalars.LIMBS * n);
      Timed<G1> d1 = median(() -> Msm.msm(b1, s));
      Timed<G2> d2 = median(() -> Msm.msm(b2, s));
      String j1 = "-";
      String j2 = "-";
      String agree = "-";
      if (log <= javaTo) {
        int c = Msm.windowBits(n);
        Timed<G1> r1 = median(() -> Msm.msm(b1, s, c));
        Timed<G2> r2 = median(() -> Msm.msm(b2, s, c));
        j1 = String.format(Locale.ROOT, "%.1f", r1.ms);
        j2 = String.format(Locale.ROOT, "%.1f", r2.ms);
        boolean same = r1.value.equals(d1.value) && r2.value.equals(d2.value);
        agree = same ? "yes" : "NO";
        allAgree &= same;
      }
      System.out.printf(Locale.ROOT, "2^%-5d %12.1f %12s %12.1f %12s %9s%n", log, d1.ms, j1, d2.ms, j2, agree);
    }
    return allAgree;
  }

  /**
   * The split MSM against the plain one over Filecoin-like scalars: each full-width with probability fullPpm/10^6,
   * else 1 with probability 0.38 (the share of ones among the bits of {@code Circuit}'s Filecoin-like witness) and
   * else 0; sizes 2^from .. 2^to in steps of 2, medians of 3 after a warm-up, G1 and G2 ({@code Msm.msmSplit} is what
   * b_g2_msm runs). Returns false if the two disagreed anywhere.
   */
  public static boolean runSplit(int from, int to, int fullPpm, long seed) {
    SplittableRandom rnd = new SplittableRandom(seed);
    int maxN = 1 << to;
    Bases bases = Bases.prepare("split MSM on the CPU", to, rnd, seed);
    long[] random = scalarLimbs(rnd, maxN);
    long[] scalars = new long[random.length];
    for (int i = 0; i < maxN; i++) {
      if (rnd.nextInt(WitnessShape.PPM) < fullPpm) {
        System.arraycopy(random, Scalars.LIMBS * i, scalars, Scalars.LIMBS * i, Scalars.LIMBS);
      } else if (rnd.nextInt(100) < 38) {
        scalars[Scalars.LIMBS * i] = 1;
      }
    }
    System.out.printf(Locale.ROOT, "scalars: %s full-width, the others 1 with probability 0.38, else 0%n",
        WitnessShape.filecoin(fullPpm).fullPercent());
    System.out.println("times in ms, median of " + RUNS + " after 1 warm-up; 'plain' = Msm.msm, 'split' = Msm.msmSplit");
    System.out.printf(Locale.ROOT, "%-7s %9s %9s %12s %12s %12s %12s %9s%n", "n", "ones", "full", "G1 plain", "G1 split",
        "G2 plain", "G2 split", "agree");
    boolean allAgree = true;
    for (int log = from; log <= to; log += 2) {
      int n = 1 << log;
      G1Bases b1 = bases.g1(n);
      G2Bases b2 = bases.g2(n);
      long[] s = Arrays.copyOf(scalars, Scalars.LIMBS * n);
      ScalarSplit split = ScalarSplit.of(s);
      Timed<G1> p1 = median(() -> Msm.msm(b1, s));
      Timed<G1> s1 = median(() -> Msm.msmSplit(b1, s));
      Timed<G2> p2 = median(() -> Msm.msm(b2, s));
      Timed<G2> s2 = median(() -> Msm.msmSplit(b2, s));
      boolean same = p1.value.equals(s1.value) && p2.value.equals(s2.value);
      allAgree &= same;
      System.out.printf(Locale.ROOT, "2^%-5d %9d %9d %12.1f %12.1f %12.1f %12.1f %9s%n", log, split.ones(), split.full(),
          p1.ms, s1.ms, p2.ms, s2.ms, same ? "yes" : "NO");
    }
    return allAgree;
  }

  /** Arguments: from to javaTo seed (defaults 10 16 16 1). Exits with status 1 if the implementations disagree. */
  public static void main(String[] args) {
    int from = args.length > 0 ? Integer.parseInt(args[0]) : 10;
    int to = args.length > 1 ? Integer.parseInt(args[1]) : 16;
    int javaTo = args.length > 2 ? Integer.parseInt(args[2]) : to;
    long seed = args.length > 3 ? Long.parseLong(args[3]) : 1;
    if (!run(from, to, javaTo, seed)) {
      System.exit(1);
    }
  }

  /** Distinct G1 and G2 bases for sizes up to 2^to, prepared once after printing the run's header. */
  private record Bases(G1Bases g1, G2Bases g2) {
    static Bases prepare(String what, int to, SplittableRandom rnd, long seed) {
      System.out.printf(
          Locale.ROOT,
          "%s: %s; %d cores, common pool parallelism %d, Java %s, seed %d%n",
          what,
          Msm.implementation(),
          Runtime.getRuntime().availableProcessors(),
          ForkJoinPool.getCommonPoolParallelism(),
          System.getProperty("java.version"),
          seed);
      int maxN = 1 << to;
      long t0 = System.nanoTime();
      Bases bases = new Bases(
          G1Bases.of(progression(G1.generator().mul(scalar(rnd)), G1.generator().mul(scalar(rnd)), maxN, G1::add)),
          G2Bases.of(progression(G2.generator().mul(scalar(rnd)), G2.generator().mul(scalar(rnd)), maxN, G2::add)));
      System.out.printf(Locale.ROOT, "bases: 2^%d G1 + 2^%d G2 prepared in %.1f s%n", to, to, (System.nanoTime() - t0) / 1e9);
      return bases;
    }

    /** The first n G1 bases. */
    G1Bases g1(int n) {
      return n == g1.size() ? g1 : G1Bases.of(g1.toList().subList(0, n));
    }

    /** The first n G2 bases. */
    G2Bases g2(int n) {
      return n == g2.size() ? g2 : G2Bases.of(g2.toList().subList(0, n));
    }
  }

  private record Timed<T>(T value, double ms) {}

  private static <T> Timed<T> median(Supplier<T> run) {
    T value = run.get(); // warm-up
    double[] ms = new double[RUNS];
    for (int i = 0; i < RUNS; i++) {
      long t = System.nanoTime();
      run.get();
      ms[i] = (System.nanoTime() - t) / 1e6;
    }
    Arrays.sort(ms);
    return new Timed<>(value, ms[RUNS / 2]);
  }

  /** start, start + step, start + 2 step, ...: distinct random-looking points, cheaply. */
  static <P> List<P> progression(P start, P step, int n, java.util.function.BinaryOperator<P> add) {
    List<P> out = new ArrayList<>(n);
    P p = start;
    for (int i = 0; i < n; i++) {
      out.add(p);
      p = add.apply(p, step);
    }
    return out;
  }

  static java.math.BigInteger scalar(SplittableRandom rnd) {
    long[] l = new long[Scalars.LIMBS];
    do {
      for (int k = 0; k < Scalars.LIMBS; k++) {
        l[k] = rnd.nextLong();
      }
      l[3] &= Long.MAX_VALUE;
    } while (!Scalars.isCanonical(l, 0));
    return Scalars.fromLimbs(l, 0);
  }

  static long[] scalarLimbs(SplittableRandom rnd, int n) {
    long[] out = new long[Scalars.LIMBS * n];
    for (int i = 0; i < n; i++) {
      do {
        for (int k = 0; k < Scalars.LIMBS; k++) {
          out[Scalars.LIMBS * i + k] = rnd.nextLong();
        }
        out[Scalars.LIMBS * i + 3] &= Long.MAX_VALUE;
      } while (!Scalars.isCanonical(out, Scalars.LIMBS * i));
    }
    return out;
  }
}
