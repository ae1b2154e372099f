package dev.interlock.gpu.cuda;

import static jcuda.driver.JCudaDriver.cuMemcpyDtoD;

import dev.interlock.impl.api.DeviceBuffer;
import dev.interlock.model.design.Sizes;
import dev.interlock.prover.curve.G2;
import dev.interlock.prover.curve.G2Bases;
import dev.interlock.prover.curve.Msm;
import dev.interlock.prover.field.Fr;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import jcuda.driver.CUdeviceptr;
import jcuda.driver.CUstream;

/**
 * G2 MSM benchmark, GPU against blst's CPU Pippenger in the same run: from 2^from to 2^to points, the GPU's median of
 * {@code --reps} runs timed with device events (and the whole call to the result on the host, wall clock), the CPU's
 * median of {@code --cpu-reps} wall-clock runs on all the host's cores up to 2^cpu-to, on random scalars (seed
 * printed), each size checked against blst first.
 *
 * <p>Bases: 2^14 distinct random points repeated to fill larger sizes, on the device and on the host alike (an MSM's
 * cost does not depend on the bases); the check folds the scalars of each repeated base together (mod r) and compares
 * with blst's MSM over the distinct bases. The last row times 0/1 scalars at 2^to.
 *
 * <pre>java -cp ... dev.interlock.gpu.cuda.G2Bench [--from 16] [--to 22] [--cpu-to 22] [--reps 5] [--cpu-reps 5] [--seed S]</pre>
 */
public final class G2Bench {
  private static final int DISTINCT_BASES = 1 << 14;

  private G2Bench() {}

  public static void main(String[] args) {
    int from = 16;
    int to = 22;
    int cpuTo = 22;
    int reps = 5;
    int cpuReps = 5;
    long seed = System.nanoTime();
    try {
      for (int i = 0; i < args.length; i++) {
        switch (args[i]) {
          case "--from" -> from = Integer.parseInt(args[++i]);
          case "--to" -> to = Integer.parseInt(args[++i]);
          case "--cpu-to" -> cpuTo = Integer.parseInt(args[++i]);
          case "--reps" -> reps = Integer.parseInt(args[++i]);
          case "--cpu-reps" -> cpuReps = Integer.parseInt(args[++i]);
          case "--seed" -> seed = Long.parseLong(args[++i]);
          default -> throw new IllegalArgumentException("unknown argument " + args[i]);
        }
      }
      if (from < 1 || to < from || to > 26 || reps < 1 || cpuReps < 1) {
        throw new IllegalArgumentException("need 1 <= from <= to <= 26 and positive repetitions");
      }
    } catch (RuntimeException e) {
      System.err.println("usage: G2Bench [--from LOG] [--to LOG] [--cpu-to LOG] [--reps R] [--cpu-reps R] [--seed S]; "
          + e.getMessage());
      System.exit(2);
    }
    System.out.printf(Locale.ROOT, "g2-bench seed %d (rerun: --seed %d), sizes 2^%d..2^%d (CPU to 2^%d), GPU %d runs, CPU %d runs,"
        + " %d host cores%n", seed, seed, from, to, Math.min(cpuTo, to), reps, cpuReps, Runtime.getRuntime().availableProcessors());
    System.out.println("CPU MSM: " + Msm.implementation());
    try (CudaDevice gpu = CudaDevice.open(4 * Sizes.GIB + (1L << to) * 224, new KernelScratch(0, 1 << to, 1))) {
      CudaProvingKernels proving = gpu.provingKernels();
      System.out.printf(Locale.ROOT, "device %s, kernels from %s, scratch %s%n", gpu.name(), proving.kernels().image(),
          proving.scratchDescription());
      System.out.println(proving.kernels().accumulateResources(MsmGroup.G1));
      System.out.println(proving.kernels().accumulateResources(MsmGroup.G2));
      List<String> table = run(gpu, new SplittableRandom(seed), from, to, cpuTo, reps, cpuReps);
      System.out.println();
      System.out.println("G2 MSM      size   GPU median ms      min ms      max ms   GPU to host ms   CPU median ms   speedup");
      table.forEach(System.out::println);
    }
  }

  private static List<String> run(CudaDevice gpu, SplittableRandom rng, int from, int to, int cpuTo, int reps, int cpuReps) {
    CudaProvingKernels proving = gpu.provingKernels();
    int distinct = Math.min(DISTINCT_BASES, 1 << to);
    long t0 = System.nanoTime();
    G2Bases bases = G2MsmGpuIT.randomBases(rng, distinct);
    System.out.printf(Locale.ROOT, "bases: %d random G2 points in %.0f ms%n", distinct, (System.nanoTime() - t0) / 1e6);
    DeviceBuffer b = gpu.allocate("bench", "g2_bases", (1L << to) * 192, false);
    DeviceBuffer sc = gpu.allocate("bench", "scalars", (1L << to) * 32, false);
    proving.writeG2Bases(b, 0, bases);
    CUdeviceptr bp = gpu.pointer(b);
    for (long done = distinct; done < (1L << to); done *= 2) { // repeat the distinct bases up to 2^to
      long bytes = Math.min(done, (1L << to) - done) * 192;
      CudaDevice.check(cuMemcpyDtoD(bp.withByteOffset(done * 192), bp, bytes), "cuMemcpyDtoD");
    }
    long[] scalars = Fr.randomVector(rng, 1 << to);
    proving.writeScalars(sc, 0, scalars);
    CUstream s = gpu.stream();
    List<String> table = new ArrayList<>();
    for (int log = from; log <= to; log++) {
      int n = 1 << log;
      table.add(size(gpu, s, bases, b, sc, scalars, n, "random", log <= cpuTo, reps, cpuReps));
    }
    long[] bits = Fr.newVector(1 << to);
    for (int i = 0; i < 1 << to; i++) {
      if (rng.nextBoolean()) {
        Fr.setOne(bits, i);
      }
    }
    proving.writeScalars(sc, 0, bits);
    table.add(size(gpu, s, bases, b, sc, bits, 1 << to, "0/1", to <= cpuTo, reps, cpuReps));
    gpu.free(b);
    gpu.free(sc);
    return table;
  }

  /** One row: the size checked against blst, then timed on the GPU and (when cpu) on the CPU. */
  private static String size(CudaDevice gpu, CUstream s, G2Bases bases, DeviceBuffer b, DeviceBuffer sc, long[] scalars, int n,
      String kind, boolean cpu, int reps, int cpuReps) {
    CudaProvingKernels proving = gpu.provingKernels();
    MsmPlan plan = MsmPlan.g2(n);
    int log = 31 - Integer.numberOfLeadingZeros(n);
    G2 got = proving.g2MsmOf(b, sc, n);
    check(got.equals(foldedCpuMsm(bases, scalars, n)), "G2 MSM of " + kind + " scalars vs blst at 2^" + log + " (c=" + plan.c()
        + ", " + plan.windows() + " windows)");
    double[] t = GpuBench.time(s, reps,
        () -> proving.kernels().msm(gpu.pointer(b), new CUdeviceptr(), gpu.pointer(sc), plan, proving.arena(), s));
    double toHost = wallMedian(reps, () -> proving.g2MsmOf(b, sc, n));
    String cpuCol = "             -         -";
    if (cpu) {
      List<G2> repeated = new ArrayList<>(n);
      for (int i = 0; i < n; i++) {
        repeated.add(bases.get(i % bases.size()));
      }
      G2Bases host = G2Bases.of(repeated);
      long[] canonical = Fr.toCanonical(Arrays.copyOf(scalars, n * Fr.LIMBS), 0, n);
      G2[] cpuResult = new G2[1];
      double c = wallMedian(cpuReps, () -> cpuResult[0] = Msm.msm(host, canonical));
      check(cpuResult[0].equals(got), "blst's MSM over the repeated bases equals the GPU's at 2^" + log);
      cpuCol = String.format(Locale.ROOT, "%14.1f  %7.1fx", c, c / t[0]);
    }
    String row = String.format(Locale.ROOT, "%-8s  2^%-4d %14.3f  %10.3f  %10.3f  %15.3f", kind, log, t[0], t[1], t[2], toHost)
        + cpuCol;
    System.out.println(row);
    return row;
  }

  /** The median wall-clock milliseconds of reps runs (no warm-up: the check before ran the same work). */
  private static double wallMedian(int reps, Runnable work) {
    double[] ms = new double[reps];
    for (int r = 0; r < reps; r++) {
      long t = System.nanoTime();
      work.run();
      ms[r] = (System.nanoTime() - t) / 1e6;
    }
    Arrays.sort(ms);
    return ms[reps / 2];
  }

  /** blst's MSM of n scalars over bases repeated with period bases.size(): the scalars of one base summed first. */
  private static G2 foldedCpuMsm(G2Bases bases, long[] scalars, int n) {
    int d = Math.min(bases.size(), n);
    long[] folded = Fr.newVector(d);
    for (int i = 0; i < n; i++) {
      Fr.add(folded, i % d, scalars, i, folded, i % d);
    }
    G2Bases used = d == bases.size() ? bases : G2Bases.of(bases.toList().subList(0, d));
    return Msm.msm(used, Fr.toCanonical(folded, 0, d));
  }

  private static void check(boolean ok, String what) {
    if (!ok) {
      throw new IllegalStateException("GPU result is wrong: " + what);
    }
    System.out.println("checked   " + what);
  }
}
