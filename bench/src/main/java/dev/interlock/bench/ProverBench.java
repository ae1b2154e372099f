package dev.interlock.bench;

import dev.interlock.prover.*;
import dev.interlock.prover.curve.*;
import dev.interlock.prover.field.*;

import dev.interlock.prover.curve.G2;
import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.concurrent.ForkJoinPool;

/**
 * A rough benchmark of the prover stages on the CPU (not a test): for each logN in [minLog, maxLog] (default 10..16)
 * prints the setup time (one run) and the median of 3 runs of each stage (synthesize, ntt_h, msm, b_g2_msm,
 * epilogue), in ms, then the {@link PartitionSizes}. Circuits have 4 public inputs. Run with {@code java -cp
 * <impl classes + jblst> dev.interlock.prover.ProverBench 10 14}.
 */
public final class ProverBench {
  private static final int RUNS = 3;

  private ProverBench() {}

  /** Runs the benchmark; args: minLog maxLog. */
  public static void main(String[] args) {
    int minLog = args.length > 0 ? Integer.parseInt(args[0]) : 10;
    int maxLog = args.length > 1 ? Integer.parseInt(args[1]) : 16;
    System.out.println("cpus " + Runtime.getRuntime().availableProcessors() + ", common pool parallelism "
        + ForkJoinPool.getCommonPoolParallelism() + ", java " + System.getProperty("java.version")
        + "; times in ms, stage figures are medians of " + RUNS + ", setup one run");
    warmUp();
    System.out.println(String.format("%-5s %8s %8s %10s %8s %8s %9s %9s %9s %6s", "logN", "m", "setup",
        "synthesize", "ntt_h", "msm", "b_g2_msm", "epilogue", "prove", "ok"));
    StringBuilder sizes = new StringBuilder();
    for (int logN = minLog; logN <= maxLog; logN++) {
      Circuit circuit = Circuit.synthetic(logN, 4, 1);
      SplittableRandom rng = new SplittableRandom(logN);
      long t0 = System.nanoTime();
      Keys keys = Setup.generate(circuit, rng);
      double setup = (System.nanoTime() - t0) / 1e6;
      double[][] t = new double[5][RUNS];
      boolean ok = true;
      for (int r = 0; r < RUNS; r++) {
        Witness w = circuit.witness(rng);
        long s0 = System.nanoTime();
        Synthesized s = Prover.synthesize(circuit, w);
        long s1 = System.nanoTime();
        long[] h = Prover.computeH(s);
        long s2 = System.nanoTime();
        MsmResults msm = Prover.msm(keys.pk(), w, h);
        long s3 = System.nanoTime();
        G2 bG2 = Prover.bG2Msm(keys.pk(), w);
        long s4 = System.nanoTime();
        Proof proof = Prover.epilogue(keys.pk(), msm, bG2, rng);
        long s5 = System.nanoTime();
        long[] marks = {s0, s1, s2, s3, s4, s5};
        for (int k = 0; k < 5; k++) {
          t[k][r] = (marks[k + 1] - marks[k]) / 1e6;
        }
        if (r == 0) {
          ok = Verifier.verify(keys.vk(), proof, w.publicInputs());
        }
      }
      double total = 0;
      double[] med = new double[5];
      for (int k = 0; k < 5; k++) {
        med[k] = median(t[k]);
        total += med[k];
      }
      System.out.println(String.format("%-5d %8d %8.0f %10.1f %8.1f %8.1f %9.1f %9.1f %9.1f %6s", logN,
          circuit.numVariables(), setup, med[0], med[1], med[2], med[3], med[4], total, ok ? "yes" : "NO"));
      PartitionSizes ps = PartitionSizes.of(circuit);
      sizes.append(String.format("  logN=%-3d %s (%.2f MiB)%n", logN, ps, ps.totalBytes() / (1024.0 * 1024.0)));
    }
    System.out.println("PartitionSizes (bytes):");
    System.out.print(sizes);
  }

  private static void warmUp() {
    Circuit circuit = Circuit.synthetic(8, 4, 1);
    SplittableRandom rng = new SplittableRandom(0);
    Keys keys = Setup.generate(circuit, rng);
    for (int i = 0; i < 5; i++) {
      Prover.prove(keys.pk(), circuit, circuit.witness(rng), rng);
    }
  }

  private static double median(double[] xs) {
    double[] s = xs.clone();
    Arrays.sort(s);
    return s[s.length / 2];
  }
}
