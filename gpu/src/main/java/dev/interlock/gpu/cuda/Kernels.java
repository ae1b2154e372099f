package dev.interlock.gpu.cuda;

import static jcuda.driver.JCudaDriver.cuDeviceGetAttribute;
import static jcuda.driver.JCudaDriver.cuFuncGetAttribute;
import static jcuda.driver.JCudaDriver.cuLaunchKernel;
import static jcuda.driver.JCudaDriver.cuMemcpyDtoDAsync;
import static jcuda.driver.JCudaDriver.cuMemsetD32Async;
import static jcuda.driver.JCudaDriver.cuModuleGetFunction;
import static jcuda.driver.JCudaDriver.cuModuleLoadData;
import static jcuda.driver.JCudaDriver.cuOccupancyMaxActiveBlocksPerMultiprocessor;

import dev.interlock.workload.NttKind;
import dev.interlock.prover.G1FixedBase;
import dev.interlock.prover.curve.G1;
import dev.interlock.prover.curve.G1Limbs;
import dev.interlock.prover.curve.G2;
import dev.interlock.prover.curve.G2Limbs;
import dev.interlock.prover.field.Domain;
import dev.interlock.prover.field.Fr;
import dev.interlock.prover.field.FrElement;
import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;
import jcuda.Pointer;
import jcuda.driver.CUdevice;
import jcuda.driver.CUdevice_attribute;
import jcuda.driver.CUdeviceptr;
import jcuda.driver.CUfunction;
import jcuda.driver.CUfunction_attribute;
import jcuda.driver.CUmodule;
import jcuda.driver.CUresult;
import jcuda.driver.CUstream;
import dev.interlock.impl.device.DeviceCallLog;
import java.util.EnumMap;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.function.BinaryOperator;
import java.util.function.UnaryOperator;
import java.util.zip.GZIPInputStream;

/**
 * The proving kernels of gpu/src/main/cuda/kernels.cu on the current context: every method only enqueues work on the
 * given stream, except {@link #msmResult}, which reads the window sums back once the caller has synchronized.
 *
 * <p>Layouts: scalars are Fr in Montgomery form, 32 bytes each (the Java Fr vector's bytes); bases are affine G1 or G2
 * in blst's layout, 96 or 192 bytes each ({@link G1Limbs}, {@link G2Limbs}); the twiddle table holds omega^i, i &lt; 2^(logMax-1), for the root
 * of unity of order 2^logMax, which serves every smaller size too.
 */
final class Kernels {
  /** Window width of {@link #fixedBase}'s table. */
  static final int FIXED_BASE_WINDOW = G1FixedBase.TABLE_WINDOW;
  /** Windows of {@link #fixedBase}'s table: ceil(255 / 10). */
  static final int FIXED_BASE_WINDOWS = (Fr.BITS + FIXED_BASE_WINDOW - 1) / FIXED_BASE_WINDOW;
  private static final int NTT_BLOCK_LOG = 10;
  private static final int THREADS = 256;
  /** A smaller launch's block of an accumulation kernel ({@link #accumulateBlock}). */
  private static final int SMALL_BLOCK = 128;
  private static final int SCALE_THREADS = 1 << 16;

  private final CUfunction twiddles = new CUfunction();
  private final CUfunction scalePowers = new CUfunction();
  private final CUfunction bitrev = new CUfunction();
  private final CUfunction quotient = new CUfunction();
  private final CUfunction nttBlock = new CUfunction();
  private final CUfunction nttStage = new CUfunction();
  private final CUfunction msmCount = new CUfunction();
  private final CUfunction msmScatter = new CUfunction();
  private final CUfunction scanBlock = new CUfunction();
  private final CUfunction scanAdd = new CUfunction();
  /** The group-specific MSM kernels, per group. */
  private final Map<MsmGroup, GroupKernels> groupKernels = new EnumMap<>(MsmGroup.class);
  private final CUfunction msmTable = new CUfunction();
  /** G1's accumulation variants (MsmPlan.Accumulation): XYZZ with Fp::sqr_sym, and the batch-affine pair passes. */
  private final CUfunction accumulateSqr = new CUfunction();
  private final CUfunction msmPairs = new CUfunction();
  private final CUfunction affineOffsets = new CUfunction();
  private final CUfunction fpSqr = new CUfunction();
  private final CUfunction fixedBase = new CUfunction();
  private final CUfunction frMul = new CUfunction();
  private final CUfunction fpMul = new CUfunction();
  private final String image;
  private final DeviceCallLog log;
  /** Threads of one resident wave of each accumulation kernel on this device ({@link #accumulateThreads}). */
  private final Map<CUfunction, Integer> waves = new IdentityHashMap<>();
  /** Threads a block of each accumulation kernel: the most its {@code __launch_bounds__} allow (kernels.cu). */
  private final Map<CUfunction, Integer> blockThreads = new IdentityHashMap<>();
  /** The device's SMs: {@link #accumulateBlock} gives a launch its kernel's full blocks only if each SM gets one. */
  private final int multiprocessors;
  /** Each function's name, as the log names its launches (CUPTI names them so too). */
  private final Map<CUfunction, String> names = new IdentityHashMap<>();

  /** One group's MSM kernels (kernels.cu's MSM_GROUP_KERNELS): the same code over G1 or G2 points. */
  private static final class GroupKernels {
    final CUfunction accumulate = new CUfunction();
    final CUfunction combine = new CUfunction();
    final CUfunction reduceSegments = new CUfunction();
    final CUfunction reduceBits = new CUfunction();
    final CUfunction sumGroups = new CUfunction();
    final CUfunction reduceWindows = new CUfunction();
  }

  private Kernels(CUmodule module, String image, DeviceCallLog log, int multiprocessors) {
    this.log = log;
    this.image = image;
    this.multiprocessors = multiprocessors;
    get(module, twiddles, "ntt_twiddles");
    get(module, scalePowers, "fr_scale_powers");
    get(module, bitrev, "ntt_bitrev");
    get(module, quotient, "fr_quotient");
    get(module, nttBlock, "ntt_block");
    get(module, nttStage, "ntt_stage");
    get(module, msmCount, "msm_count");
    get(module, msmScatter, "msm_scatter");
    get(module, scanBlock, "scan_block");
    get(module, scanAdd, "scan_add");
    for (MsmGroup g : MsmGroup.values()) {
      GroupKernels k = new GroupKernels();
      get(module, k.accumulate, g.kernel("msm_accumulate"));
      get(module, k.combine, g.kernel("msm_combine"));
      get(module, k.reduceSegments, g.kernel("msm_reduce_segments"));
      get(module, k.reduceBits, g.kernel("msm_reduce_bits"));
      get(module, k.sumGroups, g.kernel("msm_sum_groups"));
      get(module, k.reduceWindows, g.kernel("msm_reduce_windows"));
      groupKernels.put(g, k);
    }
    get(module, msmTable, "msm_table");
    get(module, accumulateSqr, "msm_accumulate_sqr");
    get(module, msmPairs, "msm_pairs");
    get(module, affineOffsets, "msm_affine_offsets");
    get(module, fpSqr, "fp_sqr_vec");
    get(module, fixedBase, "g1_fixed_base");
    get(module, frMul, "fr_mul_vec");
    get(module, fpMul, "fp_mul_vec");
    for (CUfunction f : new CUfunction[] {groupKernels.get(MsmGroup.G1).accumulate, groupKernels.get(MsmGroup.G2).accumulate,
        accumulateSqr}) {
      int[] block = new int[1];
      CudaDevice.check(cuFuncGetAttribute(block, CUfunction_attribute.CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, f),
          "cuFuncGetAttribute(" + names.get(f) + ")");
      int[] blocks = new int[1];
      CudaDevice.check(cuOccupancyMaxActiveBlocksPerMultiprocessor(blocks, f, block[0], 0),
          "cuOccupancyMaxActiveBlocksPerMultiprocessor(" + names.get(f) + ")");
      blockThreads.put(f, block[0]);
      waves.put(f, Math.max(1, multiprocessors * blocks[0]) * block[0]);
    }
  }

  /**
   * Loads the kernels into the current context: the committed sm_90 cubin on a compute capability 9.0 device (no
   * JIT), the committed PTX (compiled by the driver at load) elsewhere.
   */
  static Kernels load(CUdevice dev, DeviceCallLog log) {
    int[] major = new int[1];
    int[] minor = new int[1];
    CudaDevice.check(cuDeviceGetAttribute(major, CUdevice_attribute.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev), "cuDeviceGetAttribute");
    CudaDevice.check(cuDeviceGetAttribute(minor, CUdevice_attribute.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev), "cuDeviceGetAttribute");
    String name = major[0] == 9 && minor[0] == 0 ? "kernels.cubin" : "kernels.ptx";
    String override = System.getProperty("interlock.kernels");
    byte[] bytes;
    if (override != null) { // an experimental image (a .cubin or .ptx file) in place of the committed one
      name = override;
      try {
        bytes = java.nio.file.Files.readAllBytes(java.nio.file.Path.of(override));
      } catch (IOException e) {
        throw new IllegalStateException("-Dinterlock.kernels=" + override + ": cannot read it: " + e.getMessage(), e);
      }
    } else {
      bytes = resource(name);
    }
    if (name.endsWith(".ptx")) {
      bytes = Arrays.copyOf(bytes, bytes.length + 1);
    }
    CUmodule module = new CUmodule();
    CudaDevice.check(cuModuleLoadData(module, bytes), "cuModuleLoadData(" + name + ")");
    int[] sms = new int[1];
    CudaDevice.check(cuDeviceGetAttribute(sms, CUdevice_attribute.CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, dev),
        "cuDeviceGetAttribute");
    return new Kernels(module, name, log, sms[0]);
  }

  /** Which image was loaded: kernels.cubin or kernels.ptx. */
  String image() {
    return image;
  }

  /**
   * A committed kernel image (gpu/src/main/resources/dev/interlock/gpu/cuda): {@code name.gz} uncompressed where it
   * exists, else {@code name}. The large images are committed gzipped (compile.sh): 15 MB of PTX and cubin become 3 MB,
   * which the device tool's 64 MiB carry (tree plus bundle) needs. The .gz comes first so that an uncompressed image
   * left in target/classes by a build from before the change cannot shadow it.
   */
  static byte[] resource(String name) {
    try (InputStream gz = Kernels.class.getResourceAsStream(name + ".gz")) {
      if (gz != null) {
        try (InputStream in = new GZIPInputStream(gz)) {
          return in.readAllBytes();
        }
      }
    } catch (IOException e) {
      throw new IllegalStateException("cannot read " + name + ".gz", e);
    }
    try (InputStream in = Kernels.class.getResourceAsStream(name)) {
      if (in == null) {
        throw new IllegalStateException(name + " (or " + name + ".gz) is missing from the classpath");
      }
      return in.readAllBytes();
    } catch (IOException e) {
      throw new IllegalStateException("cannot read " + name, e);
    }
  }

  private void get(CUmodule module, CUfunction f, String name) {
    CudaDevice.check(cuModuleGetFunction(f, module, name), "cuModuleGetFunction(" + name + ")");
    names.put(f, name);
  }

  // ------------------------------------------------------------------------------------------- NTT

  /** Bytes of the twiddle table for transforms up to 2^logMax. */
  static long twiddleBytes(int logMax) {
    return (1L << Math.max(0, logMax - 1)) * Fr.BYTES;
  }

  /** Fills the twiddle table for transforms up to 2^logMax (logMax ≥ 1). */
  void twiddles(CUdeviceptr table, int logMax, CUstream s) {
    int count = 1 << (logMax - 1);
    launch(twiddles, blocks(count), THREADS, s, table, count, fr(Domain.rootOfUnity(logMax)));
  }

  /** The in-place transform of the 2^logN scalars at v, with the table of 2^logMax ≥ 2^logN. */
  void ntt(CUdeviceptr v, int logN, NttKind kind, CUdeviceptr table, int logMax, CUstream s) {
    if (logN > logMax) {
      throw new IllegalArgumentException("NTT of 2^" + logN + " but the twiddles cover 2^" + logMax);
    }
    if (logN == 0) {
      return;
    }
    int n = 1 << logN;
    boolean inverse = kind.inverse();
    if (!inverse && kind.coset()) {
      scale(v, n, FrElement.ONE, Domain.GENERATOR, s);
    }
    launch(bitrev, blocks(n), THREADS, s, v, logN);
    int stages = Math.min(logN, NTT_BLOCK_LOG);
    launch(nttBlock, n >> stages, 1 << (stages - 1), s, v, table, logMax, stages, inverse ? 1 : 0);
    for (int st = stages; st < logN; st++) {
      launch(nttStage, blocks(n / 2), THREADS, s, v, table, logN, logMax, st, inverse ? 1 : 0);
    }
    Domain domain = Domain.of(logN);
    if (inverse) {
      scale(v, n, domain.sizeInverse(), kind.coset() ? domain.cosetShiftInverse() : FrElement.ONE, s);
    }
  }

  /**
   * ntt_h: the n = 2^logN coefficients of (A·B - C)/Z into h from the evaluations at abc (a, then b at +n, c at +2n;
   * overwritten), as Prover.quotient computes them.
   */
  void quotient(CUdeviceptr abc, int logN, CUdeviceptr h, CUdeviceptr table, int logMax, CUstream s) {
    int n = 1 << logN;
    CUdeviceptr[] v = {abc, abc.withByteOffset((long) n * Fr.BYTES), abc.withByteOffset(2L * n * Fr.BYTES)};
    for (CUdeviceptr x : v) {
      ntt(x, logN, NttKind.INVERSE, table, logMax, s);
      ntt(x, logN, NttKind.COSET_FORWARD, table, logMax, s);
    }
    FrElement zInv = Domain.of(logN).vanishingOnCoset().inverse();
    launch(quotient, blocks(n), THREADS, s, v[0], v[1], v[2], h, n, fr(zInv));
    ntt(h, logN, NttKind.COSET_INVERSE, table, logMax, s);
  }

  /** v[i] := v[i]·c·g^i, by {@value #SCALE_THREADS} threads (or n, if fewer) striding over v. */
  private void scale(CUdeviceptr v, int n, FrElement c, FrElement g, CUstream s) {
    int stride = Math.min(n, SCALE_THREADS);
    launch(scalePowers, blocks(stride), THREADS, s, v, n, fr(c), fr(g), fr(g.pow(stride)), stride);
  }

  // ------------------------------------------------------------------------------------------- MSM

  /** Where an MSM's phases end, for benchmarks that time them (each call comes after the phase's launches). */
  interface Phases {
    Phases NONE = phase -> {};

    void ended(String phase);
  }

  /**
   * Enqueues the MSM of plan.n() points in the plan's group: bases and scalars as laid out above, the plan's table (copies 1 and up of the
   * bases, as {@link #msmTable} builds it; ignored when the plan has one copy), scratch of plan.scratchBytes().
   */
  void msm(CUdeviceptr bases, CUdeviceptr table, CUdeviceptr scalars, MsmPlan p, CUdeviceptr scratch, CUstream s) {
    msm(bases, table, scalars, p, scratch, s, Phases.NONE);
  }

  void msm(CUdeviceptr bases, CUdeviceptr table, CUdeviceptr scalars, MsmPlan p, CUdeviceptr scratch, CUstream s,
      Phases phases) {
    GroupKernels g = groupKernels.get(p.group());
    CUdeviceptr entries = scratch;
    CUdeviceptr offsets = scratch.withByteOffset(p.offsetsAt());
    CUdeviceptr cursors = scratch.withByteOffset(p.cursorsAt());
    CUdeviceptr sums = scratch.withByteOffset(p.sumsAt());
    CUdeviceptr buckets = scratch.withByteOffset(p.bucketsAt());
    CUdeviceptr windowSums = scratch.withByteOffset(p.windowSumsAt());
    int counters = p.keys() + 1;
    CudaDevice.check(cuMemsetD32Async(offsets, 0, counters, s), "cuMemsetD32Async");
    launch(msmCount, blocks(p.n()), THREADS, s, scalars, p.n(), p.c(), p.windows(), p.sets(), offsets);
    phases.ended("count");
    scan(offsets, counters, sums, s);
    CudaDevice.check(cuMemcpyDtoDAsync(cursors, offsets, (long) counters * 4, s), "cuMemcpyDtoDAsync");
    phases.ended("scan");
    int span = p.scatterKeys();
    for (int lo = 0; lo < p.keys(); lo += span) {
      launch(msmScatter, blocks(p.n()), THREADS, s, scalars, p.n(), p.c(), p.windows(), p.sets(), offsets, p.keys(), lo,
          span, cursors, entries);
    }
    phases.ended("scatter");
    CudaDevice.check(cuMemsetD32Async(buckets, 0, (long) p.keys() * p.group().xyzzBytes() / 4, s), "cuMemsetD32Async");
    CUdeviceptr[] slotKeys = {scratch.withByteOffset(p.slotKeysAAt()), scratch.withByteOffset(p.slotKeysBAt())};
    CUdeviceptr[] slotVals = {scratch.withByteOffset(p.slotValsAAt()), scratch.withByteOffset(p.slotValsBAt())};
    CUdeviceptr tableOrNone = p.copies() > 1 ? table : new CUdeviceptr();
    CUfunction accumulate = p.accumulation() == MsmPlan.Accumulation.XYZZ ? g.accumulate : accumulateSqr;
    int threads = accumulateThreads(accumulate, p);
    int block = accumulateBlock(accumulate, threads);
    int minChunk = WAVE ? MsmPlan.MIN_CHUNK : p.chunk();
    if (p.accumulation() == MsmPlan.Accumulation.AFFINE) {
      CUdeviceptr reduced = scratch.withByteOffset(p.affinePointsAt());
      pairs(bases, tableOrNone, entries, offsets, p, reduced, scratch, s);
      launch(affineOffsets, blocks(counters), THREADS, s, offsets, p.keys(), MsmPlan.AFFINE_LEVELS, cursors);
      phases.ended("pairs");
      // the reduced points themselves, sorted by key (no entries), run offsets in the cursors' place
      launch(accumulate, (threads + block - 1) / block, block, s, reduced, Integer.MAX_VALUE, new CUdeviceptr(),
          new CUdeviceptr(), cursors, p.keys(), minChunk, threads, buckets, slotKeys[0], slotVals[0]);
    } else {
      launch(accumulate, (threads + block - 1) / block, block, s, bases, p.n(), tableOrNone, entries, offsets, p.keys(),
          minChunk, threads, buckets, slotKeys[0], slotVals[0]);
    }
    phases.ended("accumulate");
    int in = 0;
    int count = 2 * threads;
    while (count > MsmPlan.COMBINE) {
      int combining = (count + MsmPlan.COMBINE - 1) / MsmPlan.COMBINE;
      launch(g.combine, (combining + 127) / 128, 128, s, slotKeys[in], slotVals[in], count, MsmPlan.COMBINE, p.keys(),
          combining, buckets, slotKeys[1 - in], slotVals[1 - in]);
      count = 2 * combining;
      in = 1 - in;
    }
    launch(g.combine, 1, 1, s, slotKeys[in], slotVals[in], count, count, p.keys(), 1, buckets, new CUdeviceptr(), new CUdeviceptr());
    phases.ended("combine");
    CUdeviceptr[] partial = {scratch.withByteOffset(p.segmentSumsAt()), scratch.withByteOffset(p.groupSumsAt())};
    int segments = p.sets() * p.segments();
    launch(g.reduceSegments, (segments + 127) / 128, 128, s, buckets, p.buckets(), p.segments(), p.segmentLength(),
        p.sets(), partial[0]);
    phases.ended("segments");
    int rowSets = p.windowSumPoints();
    int m = p.rowGroups();
    launch(g.reduceBits, (rowSets * m + 127) / 128, 128, s, buckets, p.buckets(), p.segmentLength(), partial[0],
        p.segments(), p.bits(), MsmPlan.GROUP, p.sets(), partial[1]);
    int at = 1;
    int windowThreads = p.group().windowThreads();
    while (m > windowThreads) {
      int per = (m + MsmPlan.GROUP - 1) / MsmPlan.GROUP;
      launch(g.sumGroups, (rowSets * per + 127) / 128, 128, s, partial[at], m, MsmPlan.GROUP, rowSets, partial[1 - at]);
      m = per;
      at = 1 - at;
    }
    launch(g.reduceWindows, rowSets, Math.min(windowThreads, m), s, partial[at], m, windowSums);
    phases.ended("reduce");
  }

  /**
   * Whether the accumulation runs as one wave of resident threads sharing the entries the sort produced (the default),
   * or, with {@code -Dinterlock.msm.wave=false}, as {@link MsmPlan#chunkThreads()} threads of {@link MsmPlan#chunk()}
   * entries each, sized for every digit being non-zero (the launch before gpu/NOTES.md run 51, kept for benchmarks).
   */
  static final boolean WAVE = MsmSettings.wave();

  /**
   * Threads a block of accumulation kernel f launched with `threads` threads: the block of its launch bounds (G1: 384,
   * one an SM, faster than the same warps in 3 blocks of 128) where the launch gives every SM one, else blocks of
   * {@value #SMALL_BLOCK}, which spread a smaller launch over more SMs (small MSMs took up to 20% longer in blocks of
   * 384: gpu/NOTES.md, run 72).
   */
  int accumulateBlock(CUfunction f, int threads) {
    int full = blockThreads.get(f);
    return threads >= multiprocessors * full ? full : Math.min(full, SMALL_BLOCK);
  }

  /**
   * Accumulating threads for plan p: one wave of f (the device's SMs times f's resident blocks of its threads), at
   * most the plan's {@link MsmPlan#chunkThreads()}, which bounds its slot arrays.
   */
  int accumulateThreads(CUfunction f, MsmPlan p) {
    return WAVE ? Math.min(waves.get(f), p.chunkThreads()) : p.chunkThreads();
  }

  /**
   * The batch-affine pair passes (kernels.cu, msm_pairs): R zeroed (identity in its gaps), then per slice of
   * plan.affineSlice() entries, levels 1 .. AFFINE_LEVELS, each from the level before (level 1 from the entries) into
   * a temporary (odd levels A, even B) or, the last, into R. Warps of 32 lanes, AFFINE_BATCH slots a lane.
   */
  private void pairs(CUdeviceptr bases, CUdeviceptr table, CUdeviceptr entries, CUdeviceptr offsets, MsmPlan p,
      CUdeviceptr reduced, CUdeviceptr scratch, CUstream s) {
    CudaDevice.check(cuMemsetD32Async(reduced, 0, p.affinePoints() * p.group().affineBytes() / 4, s), "cuMemsetD32Async");
    CUdeviceptr[] temp = {scratch.withByteOffset(p.affineTempAAt()), scratch.withByteOffset(p.affineTempBAt())};
    int levels = MsmPlan.AFFINE_LEVELS;
    int batch = MsmPlan.AFFINE_BATCH;
    for (int slice = 0; slice < p.affineSlices(); slice++) {
      int e0 = slice * p.affineSlice();
      for (int level = 1; level <= levels; level++) {
        CUdeviceptr src = level == 1 ? new CUdeviceptr() : temp[(level - 1) % 2 == 1 ? 0 : 1];
        CUdeviceptr dst = level == levels ? reduced : temp[level % 2 == 1 ? 0 : 1];
        int positions = p.affinePositions(level);
        long warps = (positions + 32L * batch - 1) / (32L * batch);
        launch(msmPairs, (int) ((warps * 32 + 127) / 128), 128, s, bases, p.n(), table, entries, offsets, p.keys(), e0,
            p.affineSlice(), level, levels, src, dst, batch, positions);
      }
    }
  }

  /** The exclusive prefix sum of len counters in place, level by level, with the block sums at sums. */
  private void scan(CUdeviceptr data, int len, CUdeviceptr sums, CUstream s) {
    int blocks = (len + 1023) / 1024;
    if (blocks == 1) {
      launch(scanBlock, 1, 1024, s, data, len, new CUdeviceptr());
      return;
    }
    launch(scanBlock, blocks, 1024, s, data, len, sums);
    scan(sums, blocks, sums.withByteOffset(blocks * 4L), s);
    launch(scanAdd, blocks, 1024, s, data, len, sums);
  }

  /** Enqueues the building of plan's table from its n bases: copies 1 .. copies-1, n affine points each. */
  void msmTable(CUdeviceptr bases, MsmPlan p, CUdeviceptr table, CUstream s) {
    if (p.copies() > 1) {
      launch(msmTable, (p.n() + 127) / 128, 128, s, bases, p.n(), p.copyShift(), p.copies(), table);
    }
  }

  /** The G2 MSM's result from its reduction's rows, as {@link #msmResult} in G1. */
  static G2 g2MsmResult(MsmPlan p, long[] windowSums) {
    return combineSets(p, windowSums, G2Limbs.JACOBIAN_LONGS, G2Limbs::fromJacobian, G2::dbl, G2::add);
  }

  /**
   * The MSM's result from the plan's {@link MsmPlan#windowSumPoints()} row sums (read from scratch after the stream is
   * synchronized): each set's sum from its rows, then Σ 2^(c·k)·S_k over the sets.
   */
  static G1 msmResult(MsmPlan p, long[] windowSums) {
    return combineSets(p, windowSums, G1Limbs.JACOBIAN_LONGS, G1Limbs::fromJacobian, G1::dbl, G1::add);
  }

  /** Reads the Jacobian point at a long offset of the set sums. */
  private interface JacobianReader<P> {
    P read(long[] limbs, int at);
  }

  /** Σ 2^(c·k)·S_k over the plan's sets by Horner's rule, in either group, each S_k from its rows. */
  private static <P> P combineSets(MsmPlan p, long[] windowSums, int jacobianLongs, JacobianReader<P> read,
      UnaryOperator<P> dbl, BinaryOperator<P> add) {
    P acc = setSum(p, p.sets() - 1, windowSums, jacobianLongs, read, dbl, add);
    for (int w = p.sets() - 2; w >= 0; w--) {
      for (int i = 0; i < p.c(); i++) {
        acc = dbl.apply(acc);
      }
      acc = add.apply(acc, setSum(p, w, windowSums, jacobianLongs, read, dbl, add));
    }
    return acc;
  }

  /**
   * Set w's bucket sum Σ (k+1)·b_k from its rows (kernels.cu, msm_reduce_bits): the two rows of weighted segment sums,
   * plus segmentLength · Σ 2^r·M_r over the bit rows M_r, by Horner's rule from the top bit.
   */
  private static <P> P setSum(MsmPlan p, int w, long[] windowSums, int jacobianLongs, JacobianReader<P> read,
      UnaryOperator<P> dbl, BinaryOperator<P> add) {
    int row0 = w * p.rows();
    P weighted = read.read(windowSums, (row0 + p.bits() - 1) * jacobianLongs);
    for (int r = p.bits() - 2; r >= 0; r--) {
      weighted = add.apply(dbl.apply(weighted), read.read(windowSums, (row0 + r) * jacobianLongs));
    }
    for (int len = p.segmentLength(); len > 1; len >>= 1) {
      weighted = dbl.apply(weighted);
    }
    P low = read.read(windowSums, (row0 + p.bits()) * jacobianLongs);
    P high = read.read(windowSums, (row0 + p.bits() + 1) * jacobianLongs);
    return add.apply(add.apply(weighted, low), high);
  }

  /**
   * The registers and local memory per thread (spills and local arrays) of the group's accumulation kernel, as the
   * driver reports them: what a benchmark records beside its times.
   */
  String accumulateResources(MsmGroup group) {
    return resources(groupKernels.get(group).accumulate);
  }

  /** As {@link #accumulateResources}, for the G1 kernels of an accumulation variant (msm_pairs for AFFINE). */
  String accumulateResources(MsmPlan.Accumulation a) {
    return resources(switch (a) {
      case XYZZ -> groupKernels.get(MsmGroup.G1).accumulate;
      case XYZZ_SQR -> accumulateSqr;
      case AFFINE -> msmPairs;
    });
  }

  private String resources(CUfunction f) {
    int[] regs = new int[1];
    int[] local = new int[1];
    CudaDevice.check(cuFuncGetAttribute(regs, CUfunction_attribute.CU_FUNC_ATTRIBUTE_NUM_REGS, f), "cuFuncGetAttribute");
    CudaDevice.check(cuFuncGetAttribute(local, CUfunction_attribute.CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES, f), "cuFuncGetAttribute");
    return names.get(f) + ": " + regs[0] + " registers, " + local[0] + " bytes of local memory per thread";
  }

  // ------------------------------------------------------------------------------------------- setup

  /** Entries of {@link #fixedBase}'s table. */
  static int fixedBaseTableSize() {
    return FIXED_BASE_WINDOWS * ((1 << FIXED_BASE_WINDOW) - 1);
  }

  /** out[i] = scalar[i]·P (affine), from the table of P's multiples (see kernels.cu: g1_fixed_base). */
  void fixedBase(CUdeviceptr table, CUdeviceptr scalars, int n, CUdeviceptr out, CUstream s) {
    launch(fixedBase, (n + 127) / 128, 128, s, table, FIXED_BASE_WINDOW, FIXED_BASE_WINDOWS, scalars, n, out);
  }

  // ------------------------------------------------------------------------------------------- tests

  /** out = a·b elementwise, Fr (Montgomery). */
  void frMul(CUdeviceptr a, CUdeviceptr b, CUdeviceptr out, int n, CUstream s) {
    launch(frMul, blocks(n), THREADS, s, a, b, out, n);
  }

  /** out = a·b elementwise, Fp (Montgomery). */
  void fpMul(CUdeviceptr a, CUdeviceptr b, CUdeviceptr out, int n, CUstream s) {
    launch(fpMul, blocks(n), THREADS, s, a, b, out, n);
  }

  /** out = a·a elementwise by Fp::sqr_sym, Fp (Montgomery, reduced). */
  void fpSqr(CUdeviceptr a, CUdeviceptr out, int n, CUstream s) {
    launch(fpSqr, blocks(n), THREADS, s, a, out, n);
  }

  // ------------------------------------------------------------------------------------------- launching

  private static int blocks(int threads) {
    return Math.max(1, (threads + THREADS - 1) / THREADS);
  }

  /** An Fr element as a by-value kernel argument: its eight 32-bit Montgomery limbs. */
  private static int[] fr(FrElement x) {
    long[] l = Fr.newVector(1);
    x.writeTo(l, 0);
    int[] out = new int[8];
    for (int i = 0; i < 4; i++) {
      out[2 * i] = (int) l[i];
      out[2 * i + 1] = (int) (l[i] >>> 32);
    }
    return out;
  }

  /** Launches f with arguments: device pointers, ints (uint32) and int[] (a struct passed by value). */
  private void launch(CUfunction f, int blocks, int threads, CUstream s, Object... args) {
    Pointer[] ps = new Pointer[args.length];
    for (int i = 0; i < args.length; i++) {
      Object a = args[i];
      if (a instanceof CUdeviceptr p) {
        ps[i] = Pointer.to(p);
      } else if (a instanceof Integer v) {
        ps[i] = Pointer.to(new int[] {v});
      } else if (a instanceof int[] v) {
        ps[i] = Pointer.to(v);
      } else {
        throw new IllegalArgumentException("unsupported kernel argument " + a);
      }
    }
    int rc = cuLaunchKernel(f, blocks, 1, 1, threads, 1, 1, 0, s, Pointer.to(ps), null);
    log.launch("cuLaunchKernel", names.get(f), Handles.address(s), rc);
    if (rc != CUresult.CUDA_SUCCESS) {
      throw new CudaException("cuLaunchKernel", rc);
    }
  }
}
