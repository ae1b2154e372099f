package dev.interlock.bench;

import dev.interlock.prover.*;
import dev.interlock.prover.curve.*;
import dev.interlock.prover.field.*;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ForkJoinPool;

/**
 * A rough micro-benchmark of F_r arithmetic and NTTs (not a test): prints median ns per Fr multiplication and the
 * median NTT time for 2^10..2^20 elements, with the machine and Java version. Run with {@code java -cp
 * impl/target/classes dev.interlock.prover.field.FieldBench}.
 */
public final class FieldBench {
  private static final int RUNS = 5;
  private static volatile long sink;

  private FieldBench() {}

  /** Runs the benchmark and prints the figures. */
  public static void main(String[] args) {
    System.out.println("machine: " + cpuName() + ", " + Runtime.getRuntime().availableProcessors() + " cpus ("
        + System.getProperty("os.name") + " " + System.getProperty("os.arch") + "), common pool parallelism "
        + ForkJoinPool.getCommonPoolParallelism() + "; java " + System.getProperty("java.version") + " ("
        + System.getProperty("java.vm.name") + " " + System.getProperty("java.vm.version") + ")");
    SplittableRandom rng = new SplittableRandom(42);
    benchScalar(rng);
    System.out.println("NTT forward (median of " + RUNS + " after warm-up), in place, natural order:");
    System.out.println(String.format("  %-6s %14s %14s %12s", "n", "default ms", "1-thread ms", "ns/butterfly"));
    for (int logN = 10; logN <= 20; logN++) {
      benchNtt(logN, rng);
    }
    System.out.println("sink " + (sink & 1));
  }

  private static void benchScalar(SplittableRandom rng) {
    int n = 1 << 12; // 128 KiB per vector; b's index rotates each pass so no pass repeats the same pairs
    long[] a = Fr.newVector(n);
    long[] b = Fr.newVector(n);
    long[] out = Fr.newVector(n);
    for (int i = 0; i < n; i++) {
      Fr.random(rng, a, i);
      Fr.random(rng, b, i);
    }
    int reps = 500; // 2M operations per measurement
    double[] mul = new double[15];
    double[] chain = new double[15];
    double[] add = new double[15];
    for (int warm = 0; warm < 2; warm++) {
      for (int k = 0; k < mul.length; k++) {
        long t0 = System.nanoTime();
        for (int r = 0; r < reps; r++) {
          for (int i = 0; i < n; i++) {
            Fr.mul(a, i, b, (i + r) & (n - 1), out, i);
          }
        }
        long t1 = System.nanoTime();
        for (int r = 0; r < reps; r++) {
          for (int i = 0; i < n; i++) {
            Fr.mul(out, 0, b, i, out, 0); // each depends on the last: latency
          }
        }
        long t2 = System.nanoTime();
        for (int r = 0; r < reps; r++) {
          for (int i = 0; i < n; i++) {
            Fr.add(a, i, b, (i + r) & (n - 1), out, i);
          }
        }
        long t3 = System.nanoTime();
        double ops = (double) reps * n;
        mul[k] = (t1 - t0) / ops;
        chain[k] = (t2 - t1) / ops;
        add[k] = (t3 - t2) / ops;
        sink += out[0];
      }
    }
    long[] inv = Fr.newVector(1);
    double[] invT = new double[15];
    for (int k = 0; k < invT.length; k++) {
      long t0 = System.nanoTime();
      for (int i = 0; i < 200; i++) {
        Fr.inverse(a, i, inv, 0);
      }
      invT[k] = (System.nanoTime() - t0) / 200.0;
      sink += inv[0];
    }
    System.out.println(String.format(
        "Fr mul: %.1f ns (independent), %.1f ns (dependent chain); Fr add: %.1f ns; Fr inverse: %.0f ns",
        median(mul), median(chain), median(add), median(invT)));
  }

  private static void benchNtt(int logN, SplittableRandom rng) {
    int n = 1 << logN;
    long[] src = Fr.newVector(n);
    for (int i = 0; i < n; i++) {
      Fr.random(rng, src, i);
    }
    long[] v = src.clone();
    double[] par = new double[RUNS];
    double[] seq = new double[RUNS];
    int warm = logN <= 16 ? 20 : 3;
    for (int w = 0; w < warm; w++) {
      System.arraycopy(src, 0, v, 0, src.length);
      Ntt.forward(v, logN);
      System.arraycopy(src, 0, v, 0, src.length);
      Ntt.forward(v, logN, false);
    }
    for (int k = 0; k < RUNS; k++) {
      System.arraycopy(src, 0, v, 0, src.length);
      long t0 = System.nanoTime();
      Ntt.forward(v, logN);
      long t1 = System.nanoTime();
      sink += v[0];
      System.arraycopy(src, 0, v, 0, src.length);
      long t2 = System.nanoTime();
      Ntt.forward(v, logN, false);
      long t3 = System.nanoTime();
      sink += v[0];
      par[k] = (t1 - t0) / 1e6;
      seq[k] = (t3 - t2) / 1e6;
    }
    double butterflies = (double) (n / 2) * logN;
    System.out.println(String.format("  2^%-4d %14.3f %14.3f %12.1f", logN, median(par), median(seq),
        median(seq) * 1e6 / butterflies));
  }

  private static double median(double[] xs) {
    double[] s = xs.clone();
    Arrays.sort(s);
    return s[s.length / 2];
  }

  private static String cpuName() {
    try {
      List<String> lines = Files.readAllLines(Path.of("/proc/cpuinfo"));
      for (String l : lines) {
        if (l.startsWith("model name")) {
          return l.substring(l.indexOf(':') + 1).trim();
        }
      }
    } catch (IOException | RuntimeException e) {
      // not Linux: fall through
    }
    return "unknown cpu";
  }
}
