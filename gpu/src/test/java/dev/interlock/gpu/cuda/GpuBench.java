package dev.interlock.gpu.cuda;

import static jcuda.driver.JCudaDriver.cuEventCreate;
import static jcuda.driver.JCudaDriver.cuEventDestroy;
import static jcuda.driver.JCudaDriver.cuEventElapsedTime;
import static jcuda.driver.JCudaDriver.cuEventRecord;
import static jcuda.driver.JCudaDriver.cuEventSynchronize;
import static jcuda.driver.JCudaDriver.cuMemcpyDtoD;

import dev.interlock.impl.api.DeviceBuffer;
import dev.interlock.model.design.Sizes;
import dev.interlock.prover.curve.G1;
import dev.interlock.prover.curve.G1Bases;
import dev.interlock.prover.curve.Msm;
import dev.interlock.prover.field.Fr;
import dev.interlock.workload.NttKind;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import jcuda.driver.CUdeviceptr;
import jcuda.driver.CUevent;
import jcuda.driver.CUstream;

/**
 * GPU kernel benchmark: NTT (each kind) and G1 MSM from 2^from to 2^to points, median of repeated runs timed with
 * device events on random inputs (seed printed), each size checked for correctness first.
 *
 * <p>MSM bases: 2^16 distinct random points (made on the GPU by the fixed-base kernel), repeated to fill larger sizes;
 * the cost of an MSM does not depend on the bases. The check folds the scalars of each repeated base together (mod r)
 * and compares with the CPU's MSM over the distinct bases. NTTs are checked by a forward-inverse round trip on the
 * device and, up to 2^20, against the CPU. Then staging's copies (wall clock, GB/s): scalars each way, and G1 bases.
 *
 * <p>MSMs run without a table and with one ({@code --copies}, default {@value MsmPlan#MAX_COPIES}: as many copies as
 * windows, so one bucket set; the table's build is timed on its own, once per size). Each MSM row gives the device-event
 * time of the kernels and, as "to host", the wall-clock time of the whole call up to the result point on the host.
 * Phase rows split one MSM into count, scan and scatter (the digits' counting sort), accumulate, combine, segments and
 * reduce (the bucket reduction), with pairs before accumulate for the batch-affine variant. {@code --variants
 * C:K,...} times other windows C with K copies at the sizes of {@code --variant-sizes}. {@code --accumulations
 * xyzz,xyzz_sqr,affine} times those bucket accumulations ({@link MsmPlan.Accumulation}) side by side at the sizes of
 * {@code --accumulation-sizes}, without a table and with one, each checked against the CPU first, with its phases
 * (medians of device-event times) and its kernel's registers. {@code --no-msm-sizes} skips the sweep of
 * --from..--to (the accumulations and the 0/1 rows at --to still run).
 *
 * <pre>java -cp ... dev.interlock.gpu.cuda.GpuBench [--from 16] [--to 24] [--reps 7] [--seed S] [--copies K]
 *     [--variants 16:1,20:13] [--variant-sizes 20,24] [--accumulations xyzz,xyzz_sqr,affine]
 *     [--accumulation-sizes 20,24] [--no-msm-sizes] [--no-ntt] [--no-copies]</pre>
 */
public final class GpuBench {
  private static final int DISTINCT_BASES = 1 << 16;

  private GpuBench() {}

  /** The command line: sizes, repetitions, seed, the table's copies, and the (c, copies) variants to time. */
  private static final class Options {
    int from = 16;
    int to = 24;
    int reps = 7;
    long seed = System.nanoTime();
    /** Copies of the bases in the table of the "msm g1 table" rows (1: no such rows). */
    int copies = MsmPlan.MAX_COPIES;
    List<int[]> variants = new ArrayList<>();
    List<Integer> variantSizes = new ArrayList<>();
    boolean ntt = true;
    boolean copyRates = true;
    List<MsmPlan.Accumulation> accumulations = new ArrayList<>();
    List<Integer> accumulationSizes = new ArrayList<>();
    boolean msmSizes = true;
  }

  public static void main(String[] args) {
    Options o = new Options();
    try {
      for (int i = 0; i < args.length; i++) {
        switch (args[i]) {
          case "--from" -> o.from = Integer.parseInt(args[++i]);
          case "--to" -> o.to = Integer.parseInt(args[++i]);
          case "--reps" -> o.reps = Integer.parseInt(args[++i]);
          case "--seed" -> o.seed = Long.parseLong(args[++i]);
          case "--copies" -> o.copies = Integer.parseInt(args[++i]);
          case "--variants" -> {
            for (String v : args[++i].split(",")) {
              String[] cf = v.split(":");
              o.variants.add(new int[] {Integer.parseInt(cf[0]), Integer.parseInt(cf[1])});
            }
          }
          case "--variant-sizes" -> {
            for (String v : args[++i].split(",")) {
              o.variantSizes.add(Integer.parseInt(v));
            }
          }
          case "--accumulations" -> {
            for (String v : args[++i].split(",")) {
              o.accumulations.add(MsmPlan.Accumulation.valueOf(v.toUpperCase(Locale.ROOT)));
            }
          }
          case "--accumulation-sizes" -> {
            for (String v : args[++i].split(",")) {
              o.accumulationSizes.add(Integer.parseInt(v));
            }
          }
          case "--no-msm-sizes" -> o.msmSizes = false;
          case "--no-ntt" -> o.ntt = false;
          case "--no-copies" -> o.copyRates = false;
          default -> throw new IllegalArgumentException("unknown argument " + args[i]);
        }
      }
    } catch (RuntimeException e) {
      System.err.println("usage: GpuBench [--from LOG] [--to LOG] [--reps R] [--seed S] [--copies K] [--variants C:K,...]"
          + " [--variant-sizes LOG,...] [--accumulations xyzz,xyzz_sqr,affine] [--accumulation-sizes LOG,...]"
          + " [--no-msm-sizes] [--no-ntt] [--no-copies]; " + e.getMessage());
      System.exit(2);
    }
    System.out.printf(Locale.ROOT, "gpu-bench seed %d (rerun: --seed %d), sizes 2^%d..2^%d, %d timed runs each%n", o.seed, o.seed,
        o.from, o.to, o.reps);
    long tables = o.copies > 1 ? MsmPlan.withTable(1 << o.to, o.copies).tableBytes() : 0;
    for (int log : o.variantSizes) {
      for (int[] v : o.variants) {
        MsmPlan p = MsmPlan.of(1 << log, v[0], v[1]);
        tables = Math.max(tables, p.tableBytes() + p.scratchBytes());
      }
    }
    for (int log : o.accumulationSizes) {
      for (MsmPlan.Accumulation a : o.accumulations) {
        tables = Math.max(tables, MsmPlan.of(1 << log).with(a).scratchBytes());
        if (o.copies > 1) {
          MsmPlan p = MsmPlan.withTable(1 << log, o.copies).with(a);
          tables = Math.max(tables, p.tableBytes() + p.scratchBytes());
        }
      }
    }
    // the budget: the bases and scalars msm() allocates (96 + 32 bytes a point: 2 GiB at 2^24, 8 at 2^26), the largest
    // table with its plan's scratch, and 4 GiB for the rest (the NTT's and the copy test's buffers)
    long inputs = (1L << o.to) * (96 + 32);
    try (CudaDevice gpu = CudaDevice.open(4 * Sizes.GIB + inputs + tables, new KernelScratch(o.to, 1 << o.to, 1))) {
      CudaProvingKernels proving = gpu.provingKernels();
      System.out.printf(Locale.ROOT, "device %s, kernels from %s, scratch %s%n", gpu.name(), proving.kernels().image(),
          proving.scratchDescription());
      SplittableRandom rng = new SplittableRandom(o.seed);
      List<String> table = new ArrayList<>();
      if (o.ntt) {
        ntt(gpu, rng, o.from, o.to, o.reps, table);
      }
      msm(gpu, rng, o, table);
      if (o.copyRates) {
        copies(gpu, rng, Math.min(o.to, 24), o.reps, table);
      }
      System.out.println();
      System.out.println("kernel          size    median ms      min ms      max ms");
      table.forEach(System.out::println);
    }
  }

  /** Median, min and max of reps runs of work, in device-event milliseconds, after one warm-up run. */
  static double[] time(CUstream s, int reps, Runnable work) {
    CUevent start = new CUevent();
    CUevent stop = new CUevent();
    CudaDevice.check(cuEventCreate(start, 0), "cuEventCreate");
    CudaDevice.check(cuEventCreate(stop, 0), "cuEventCreate");
    work.run();
    double[] ms = new double[reps];
    for (int r = 0; r < reps; r++) {
      CudaDevice.check(cuEventRecord(start, s), "cuEventRecord");
      work.run();
      CudaDevice.check(cuEventRecord(stop, s), "cuEventRecord");
      CudaDevice.check(cuEventSynchronize(stop), "cuEventSynchronize");
      float[] f = new float[1];
      CudaDevice.check(cuEventElapsedTime(f, start, stop), "cuEventElapsedTime");
      ms[r] = f[0];
    }
    cuEventDestroy(start);
    cuEventDestroy(stop);
    Arrays.sort(ms);
    return new double[] {ms[reps / 2], ms[0], ms[reps - 1]};
  }

  private static String row(String kernel, int log, double[] t) {
    return String.format(Locale.ROOT, "%-14s  2^%-4d %10.3f  %10.3f  %10.3f", kernel, log, t[0], t[1], t[2]);
  }

  private static void ntt(CudaDevice gpu, SplittableRandom rng, int from, int to, int reps, List<String> table) {
    CudaProvingKernels proving = gpu.provingKernels();
    long[] data = Fr.randomVector(rng, 1 << to);
    DeviceBuffer buf = gpu.allocate("bench", "ntt", (1L << to) * 32, false);
    CUdeviceptr p = gpu.pointer(buf);
    CUstream s = gpu.stream();
    for (int log = from; log <= to; log++) {
      int n = 1 << log;
      long[] v = Arrays.copyOf(data, n * Fr.LIMBS);
      proving.writeScalars(buf, 0, v);
      proving.ntt("bench", buf, 0, log, NttKind.FORWARD).await();
      proving.ntt("bench", buf, 0, log, NttKind.INVERSE).await();
      check(Arrays.equals(proving.readScalars(buf, 0, n), v), "NTT round trip at 2^" + log);
      if (log <= 20) {
        long[] want = v.clone();
        dev.interlock.prover.field.Ntt.forward(want, log);
        proving.ntt("bench", buf, 0, log, NttKind.FORWARD).await();
        check(Arrays.equals(proving.readScalars(buf, 0, n), want), "NTT vs CPU at 2^" + log);
      }
      final int lg = log;
      for (NttKind kind : new NttKind[] {NttKind.FORWARD, NttKind.COSET_FORWARD, NttKind.COSET_INVERSE}) {
        double[] t = time(s, reps, () -> proving.kernels().ntt(p, lg, kind, proving.twiddles(), to, s));
        table.add(row("ntt " + kind.name().toLowerCase(Locale.ROOT), log, t));
        System.out.println(table.get(table.size() - 1));
      }
    }
    gpu.free(buf);
  }

  private static void msm(CudaDevice gpu, SplittableRandom rng, Options o, List<String> table) {
    CudaProvingKernels proving = gpu.provingKernels();
    int from = o.from;
    int to = o.to;
    int reps = o.reps;
    int distinct = Math.min(DISTINCT_BASES, 1 << to);
    long t0 = System.nanoTime();
    G1[] pts = proving.fixedBaseMul(Fr.randomVector(rng, distinct));
    G1Bases bases = G1Bases.of(pts);
    System.out.printf(Locale.ROOT, "msm bases: %d random points by the GPU fixed-base kernel in %.0f ms (host conversion included)%n",
        distinct, (System.nanoTime() - t0) / 1e6);
    DeviceBuffer b = gpu.allocate("bench", "bases", (1L << to) * 96, false);
    DeviceBuffer sc = gpu.allocate("bench", "scalars", (1L << to) * 32, false);
    proving.writeBases(b, 0, bases);
    CUdeviceptr bp = gpu.pointer(b);
    for (long done = distinct; done < (1L << to); done *= 2) { // repeat the distinct bases up to 2^to
      long bytes = Math.min(done, (1L << to) - done) * 96;
      CudaDevice.check(cuMemcpyDtoD(bp.withByteOffset(done * 96), bp, bytes), "cuMemcpyDtoD");
    }
    long[] scalars = Fr.randomVector(rng, 1 << to);
    proving.writeScalars(sc, 0, scalars);
    CUstream s = gpu.stream();
    for (int log = from; log <= to; log++) {
      if (o.accumulationSizes.contains(log)) {
        accumulations(gpu, s, o, bases, scalars, b, bp, gpu.pointer(sc), log, "", table);
      }
      if (!o.msmSizes) {
        continue;
      }
      int n = 1 << log;
      MsmPlan plan = MsmPlan.of(n);
      check(proving.msmOf(b, sc, n).equals(foldedCpuMsm(bases, scalars, n)), "MSM vs CPU at 2^" + log + " (" + describe(plan) + ")");
      double[] t = time(s, reps, () -> proving.kernels().msm(bp, new CUdeviceptr(), gpu.pointer(sc), plan, proving.arena(), s));
      table.add(row("msm g1 (c=" + plan.c() + ")", log, t) + toHost(reps, () -> proving.msmOf(b, sc, n)));
      System.out.println(table.get(table.size() - 1));
      if (o.copies > 1) {
        MsmPlan tp = MsmPlan.withTable(n, o.copies);
        DeviceBuffer tbl = gpu.allocate("bench", "table", Math.max(1, tp.tableBytes()), false);
        double[] build = time(s, 1, () -> proving.msmTableOf(b, n, tbl, o.copies));
        table.add(row("msm table build", log, build) + "   " + tp.copies() + " copies, " + Sizes.format(tp.tableBytes())
            + " (once per key; not in the MSM's time)");
        System.out.println(table.get(table.size() - 1));
        check(proving.msmOf(b, sc, n, tbl).equals(foldedCpuMsm(bases, scalars, n)), "MSM with table vs CPU at 2^" + log + " (" + describe(tp) + ")");
        CUdeviceptr tpp = gpu.pointer(tbl);
        double[] tt = time(s, reps, () -> proving.kernels().msm(bp, tpp, gpu.pointer(sc), tp, proving.arena(), s));
        table.add(row("msm g1 table (c=" + tp.c() + ")", log, tt) + toHost(reps, () -> proving.msmOf(b, sc, n, tbl)));
        System.out.println(table.get(table.size() - 1));
        if (log == to || o.variantSizes.contains(log)) {
          phases(gpu, s, reps, "table", () -> proving.kernels().msm(bp, tpp, gpu.pointer(sc), tp, proving.arena(), s, phaseMarks(s)), log, table);
        }
        gpu.free(tbl);
      }
      if (log == to || o.variantSizes.contains(log)) {
        phases(gpu, s, reps, "", () -> proving.kernels().msm(bp, new CUdeviceptr(), gpu.pointer(sc), plan, proving.arena(), s, phaseMarks(s)),
            log, table);
      }
      if (o.variantSizes.contains(log)) {
        variants(gpu, s, o, bases, scalars, bp, gpu.pointer(sc), log, table);
      }
    }
    // a boolean witness (every scalar 0 or 1, as in circuits of bits): all points of a window in one bucket
    long[] bits = Fr.newVector(1 << to);
    for (int i = 0; i < 1 << to; i++) {
      if (rng.nextBoolean()) {
        Fr.setOne(bits, i);
      }
    }
    proving.writeScalars(sc, 0, bits);
    MsmPlan plan = MsmPlan.of(1 << to);
    G1 want = foldedCpuMsm(bases, bits, 1 << to);
    if (o.accumulationSizes.contains(to)) { // each accumulation on the skewed scalars too: a window's points in one bucket
      accumulations(gpu, s, o, bases, bits, b, bp, gpu.pointer(sc), to, " 0/1", table);
    }
    check(proving.msmOf(b, sc, 1 << to).equals(want), "MSM of 0/1 scalars vs CPU at 2^" + to);
    double[] t = time(s, reps, () -> proving.kernels().msm(bp, new CUdeviceptr(), gpu.pointer(sc), plan, proving.arena(), s));
    table.add(row("msm g1 0/1 scalars", to, t) + toHost(reps, () -> proving.msmOf(b, sc, 1 << to)));
    System.out.println(table.get(table.size() - 1));
    if (o.copies > 1) {
      MsmPlan tp = MsmPlan.withTable(1 << to, o.copies);
      DeviceBuffer tbl = gpu.allocate("bench", "table", Math.max(1, tp.tableBytes()), false);
      proving.msmTableOf(b, 1 << to, tbl, o.copies);
      check(proving.msmOf(b, sc, 1 << to, tbl).equals(want), "MSM with table of 0/1 scalars vs CPU at 2^" + to);
      CUdeviceptr tpp = gpu.pointer(tbl);
      double[] tt = time(s, reps, () -> proving.kernels().msm(bp, tpp, gpu.pointer(sc), tp, proving.arena(), s));
      table.add(row("msm g1 table 0/1", to, tt) + toHost(reps, () -> proving.msmOf(b, sc, 1 << to, tbl)));
      System.out.println(table.get(table.size() - 1));
      gpu.free(tbl);
    }
    gpu.free(b);
    gpu.free(sc);
  }

  private static String describe(MsmPlan p) {
    return "c=" + p.c() + ", " + p.windows() + " windows, " + p.copies() + (p.copies() == 1 ? " copy" : " copies") + ", "
        + p.sets() + (p.sets() == 1 ? " bucket set" : " bucket sets") + ", " + p.accumulation().name().toLowerCase(Locale.ROOT);
  }

  /**
   * Each accumulation of --accumulations at 2^log, without a table and with one of --copies: checked against the CPU,
   * then timed (median of --reps, device events around the kernel sequence) and split into phases, in scratch of its
   * own. The table is built once per size and shared by the accumulations.
   */
  private static void accumulations(CudaDevice gpu, CUstream s, Options o, G1Bases bases, long[] scalars, DeviceBuffer b,
      CUdeviceptr bp, CUdeviceptr scp, int log, String label, List<String> table) {
    CudaProvingKernels proving = gpu.provingKernels();
    int n = 1 << log;
    G1 want = foldedCpuMsm(bases, scalars, n);
    for (MsmPlan.Accumulation a : o.accumulations) {
      System.out.println("accumulation " + a + ": " + proving.kernels().accumulateResources(a));
    }
    for (int copies : o.copies > 1 ? new int[] {1, o.copies} : new int[] {1}) {
      MsmPlan base = copies == 1 ? MsmPlan.of(n) : MsmPlan.withTable(n, copies);
      DeviceBuffer tbl = gpu.allocate("bench", "accumulation_table", Math.max(1, base.tableBytes()), false);
      try {
        CUdeviceptr tp = gpu.pointer(tbl);
        proving.kernels().msmTable(bp, base, tp, s);
        for (MsmPlan.Accumulation a : o.accumulations) {
          MsmPlan p = base.with(a);
          DeviceBuffer scratch = gpu.allocate("bench", "accumulation_scratch", p.scratchBytes(), false);
          try {
            CUdeviceptr ap = gpu.pointer(scratch);
            proving.kernels().msm(bp, tp, scp, p, ap, s);
            CudaDevice.check(jcuda.driver.JCudaDriver.cuStreamSynchronize(s), "cuStreamSynchronize");
            long[] sums = new long[p.windowSumPoints() * dev.interlock.prover.curve.G1Limbs.JACOBIAN_LONGS];
            proving.download(sums, ap.withByteOffset(p.windowSumsAt()), sums.length);
            check(Kernels.msmResult(p, sums).equals(want), "MSM" + label + " accumulation vs CPU at 2^" + log + " (" + describe(p) + ")");
            double[] t = time(s, o.reps, () -> proving.kernels().msm(bp, tp, scp, p, ap, s));
            String name = "msm " + a.name().toLowerCase(Locale.ROOT) + (copies > 1 ? " table" : "") + label;
            table.add(row(name, log, t) + "   " + describe(p) + "; scratch " + Sizes.format(p.scratchBytes()));
            System.out.println(table.get(table.size() - 1));
            phases(gpu, s, o.reps, a.name().toLowerCase(Locale.ROOT) + (copies > 1 ? " table" : "") + label,
                () -> proving.kernels().msm(bp, tp, scp, p, ap, s, phaseMarks(s)), log, table);
          } finally {
            gpu.free(scratch);
          }
        }
      } finally {
        gpu.free(tbl);
      }
    }
  }

  /** The median wall-clock milliseconds of the whole call, result point on the host included, as a column. */
  private static String toHost(int reps, Runnable work) {
    return String.format(Locale.ROOT, "   to host %.3f (median, wall)", wall(reps, work)[0]);
  }

  /** Device events recorded at each phase's end, in order, on s. */
  private static final class Marks implements Kernels.Phases {
    final List<String> names = new ArrayList<>();
    final List<CUevent> events = new ArrayList<>();
    private final CUstream s;

    Marks(CUstream s) {
      this.s = s;
    }

    @Override
    public void ended(String phase) {
      CUevent e = new CUevent();
      CudaDevice.check(cuEventCreate(e, 0), "cuEventCreate");
      CudaDevice.check(cuEventRecord(e, s), "cuEventRecord");
      names.add(phase);
      events.add(e);
    }
  }

  private static Marks lastMarks;

  private static Kernels.Phases phaseMarks(CUstream s) {
    lastMarks = new Marks(s);
    return lastMarks;
  }

  /** Median milliseconds of each MSM phase over reps runs (device events between the phases), as one row. */
  private static void phases(CudaDevice gpu, CUstream s, int reps, String kind, Runnable work, int log, List<String> table) {
    List<double[]> runs = new ArrayList<>();
    List<String> names = null;
    for (int r = 0; r < reps; r++) {
      CUevent start = new CUevent();
      CudaDevice.check(cuEventCreate(start, 0), "cuEventCreate");
      CudaDevice.check(cuEventRecord(start, s), "cuEventRecord");
      work.run();
      Marks m = lastMarks;
      CudaDevice.check(cuEventSynchronize(m.events.get(m.events.size() - 1)), "cuEventSynchronize");
      double[] ms = new double[m.events.size()];
      CUevent prev = start;
      for (int i = 0; i < ms.length; i++) {
        float[] f = new float[1];
        CudaDevice.check(cuEventElapsedTime(f, prev, m.events.get(i)), "cuEventElapsedTime");
        ms[i] = f[0];
        prev = m.events.get(i);
      }
      m.events.forEach(e -> cuEventDestroy(e));
      cuEventDestroy(start);
      runs.add(ms);
      names = m.names;
    }
    StringBuilder sb = new StringBuilder(String.format(Locale.ROOT, "%-14s  2^%-4d", "msm phases" + (kind.isEmpty() ? "" : " " + kind), log));
    for (int i = 0; i < names.size(); i++) {
      double[] col = new double[reps];
      for (int r = 0; r < reps; r++) {
        col[r] = runs.get(r)[i];
      }
      Arrays.sort(col);
      sb.append(String.format(Locale.ROOT, "  %s %.3f", names.get(i), col[reps / 2]));
    }
    table.add(sb + " (medians, ms)");
    System.out.println(table.get(table.size() - 1));
  }

  /**
   * Each (c, copies) of --variants at 2^log: checked against the CPU, then timed (table build separately), in its own
   * scratch and table buffers.
   */
  private static void variants(CudaDevice gpu, CUstream s, Options o, G1Bases bases, long[] scalars, CUdeviceptr bp,
      CUdeviceptr scp, int log, List<String> table) {
    CudaProvingKernels proving = gpu.provingKernels();
    int n = 1 << log;
    G1 want = foldedCpuMsm(bases, scalars, n);
    for (int[] v : o.variants) {
      MsmPlan p = MsmPlan.of(n, v[0], v[1]);
      DeviceBuffer scratch = gpu.allocate("bench", "variant_scratch", p.scratchBytes(), false);
      DeviceBuffer tbl = gpu.allocate("bench", "variant_table", Math.max(1, p.tableBytes()), false);
      try {
        CUdeviceptr ap = gpu.pointer(scratch);
        CUdeviceptr tp = gpu.pointer(tbl);
        double[] build = time(s, 1, () -> proving.kernels().msmTable(bp, p, tp, s));
        proving.kernels().msm(bp, tp, scp, p, ap, s);
        CudaDevice.check(jcuda.driver.JCudaDriver.cuStreamSynchronize(s), "cuStreamSynchronize");
        long[] sums = new long[p.windowSumPoints() * dev.interlock.prover.curve.G1Limbs.JACOBIAN_LONGS];
        proving.download(sums, ap.withByteOffset(p.windowSumsAt()), sums.length);
        check(Kernels.msmResult(p, sums).equals(want), "MSM variant vs CPU at 2^" + log + " (" + describe(p) + ")");
        double[] t = time(s, o.reps, () -> proving.kernels().msm(bp, tp, scp, p, ap, s));
        table.add(row("msm variant", log, t) + String.format(Locale.ROOT, "   %s; table %s built in %.1f ms; scratch %s",
            describe(p), Sizes.format(p.tableBytes()), build[0], Sizes.format(p.scratchBytes())));
        System.out.println(table.get(table.size() - 1));
        phases(gpu, s, o.reps, "variant", () -> proving.kernels().msm(bp, tp, scp, p, ap, s, phaseMarks(s)), log, table);
      } finally {
        gpu.free(scratch);
        gpu.free(tbl);
      }
    }
  }

  /**
   * Host-device copies as staging does them (through the thread's two pinned halves; wall clock, host work included):
   * 2^log scalars each way, and 2^min(log, 20) G1 bases gathered from their Java objects, with 1, 2, 4 and 8 threads
   * filling and emptying the halves (the default, {@link HostCopies#threads()}, is marked).
   */
  private static void copies(CudaDevice gpu, SplittableRandom rng, int log, int reps, List<String> table) {
    CudaProvingKernels proving = gpu.provingKernels();
    long[] v = Fr.randomVector(rng, 1 << log);
    int logB = Math.min(log, 20);
    DeviceBuffer buf = gpu.allocate("bench", "copies", Math.max((1L << log) * 32, (1L << logB) * 96), false);
    G1[] distinct = proving.fixedBaseMul(Fr.randomVector(rng, 1 << Math.min(logB, 12)));
    List<G1> repeated = new ArrayList<>(1 << logB);
    for (int i = 0; i < 1 << logB; i++) {
      repeated.add(distinct[i % distinct.length]);
    }
    G1Bases bases = G1Bases.of(repeated);
    long[] back = new long[v.length];
    int defaultThreads = gpu.hostCopies().threads();
    int rows = 0;
    try {
      for (int threads : new int[] {1, 2, 4, 8}) {
        gpu.hostCopies().threads(threads);
        String t = ", " + threads + (threads == defaultThreads ? " copy threads (default)" : " copy threads");
        double[] up = wall(reps, () -> proving.writeScalars(buf, 0, v));
        // into a preallocated array: readScalars' own allocation is timed as well, but not a second copy
        double[] down = wall(reps, () -> proving.download(back, gpu.pointer(buf), back.length));
        check(Arrays.equals(back, v), "copies round trip of 2^" + log + " scalars" + t);
        double[] basesUp = wall(reps, () -> proving.writeBases(buf, 0, bases));
        table.add(copyRow("h2d scalars", log, up, (1L << log) * 32) + t);
        table.add(copyRow("d2h scalars", log, down, (1L << log) * 32) + t);
        table.add(copyRow("h2d g1 bases", logB, basesUp, (1L << logB) * 96) + t);
        rows += 3;
      }
    } finally {
      gpu.hostCopies().threads(defaultThreads);
      gpu.free(buf);
    }
    table.subList(table.size() - rows, table.size()).forEach(System.out::println);
  }

  /** Median, min and max wall-clock milliseconds of reps runs after one warm-up. */
  private static double[] wall(int reps, Runnable work) {
    work.run();
    double[] ms = new double[reps];
    for (int r = 0; r < reps; r++) {
      long t = System.nanoTime();
      work.run();
      ms[r] = (System.nanoTime() - t) / 1e6;
    }
    Arrays.sort(ms);
    return new double[] {ms[reps / 2], ms[0], ms[reps - 1]};
  }

  private static String copyRow(String what, int log, double[] t, long bytes) {
    return row(what, log, t) + String.format(Locale.ROOT, "   %.1f GB/s (median, wall)", bytes / t[0] / 1e6);
  }

  /** The CPU's MSM of n scalars over bases repeated with period bases.size(): scalars of one base summed first. */
  private static G1 foldedCpuMsm(G1Bases bases, long[] scalars, int n) {
    int d = Math.min(bases.size(), n);
    long[] folded = Fr.newVector(d);
    for (int i = 0; i < n; i++) {
      Fr.add(folded, i % d, scalars, i, folded, i % d);
    }
    G1Bases used = d == bases.size() ? bases : G1Bases.of(bases.toList().subList(0, d));
    return Msm.msm(used, Fr.toCanonical(folded, 0, d));
  }

  private static void check(boolean ok, String what) {
    if (!ok) {
      throw new IllegalStateException("GPU result is wrong: " + what);
    }
    System.out.println("checked   " + what);
  }
}
