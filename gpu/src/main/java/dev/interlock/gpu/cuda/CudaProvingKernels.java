package dev.interlock.gpu.cuda;

import static dev.interlock.gpu.cuda.CudaDevice.check;

import dev.interlock.gpu.cuda.CudaDevice.Allocation;
import dev.interlock.gpu.cuda.CudaDevice.LaunchTiming;
import dev.interlock.impl.api.DeviceBuffer;
import dev.interlock.impl.api.KernelRun;
import dev.interlock.impl.device.DeviceCallLog;
import dev.interlock.prover.G1FixedBase;
import dev.interlock.prover.curve.G1;
import dev.interlock.prover.curve.G1Bases;
import dev.interlock.prover.curve.G1Limbs;
import dev.interlock.prover.curve.G2;
import dev.interlock.prover.curve.G2Bases;
import dev.interlock.prover.curve.G2Limbs;
import dev.interlock.prover.field.Fr;
import dev.interlock.workload.MsmRun;
import dev.interlock.workload.NttKind;
import dev.interlock.workload.ProvingKernels;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongFunction;
import java.util.function.Supplier;
import java.util.stream.IntStream;
import jcuda.driver.CUdevice;
import jcuda.driver.CUdeviceptr;
import jcuda.driver.CUevent;
import jcuda.driver.CUstream;

/**
 * The {@link ProvingKernels} as CUDA kernels on a {@link CudaDevice}'s buffers: host copies of scalars and bases
 * through the calling thread's pinned staging, NTTs and ntt_h's quotient, G1 MSMs (with or without precomputed
 * tables), the G2 MSM and setup's fixed-base multiplication. Each device opens its own when it opens
 * ({@link CudaDevice#provingKernels()}), since their scratch (twiddles and MSM arenas, {@link KernelScratch}) is
 * reserved before the device's ballast, outside the budget; the device frees that scratch when it closes, before it
 * releases its context.
 *
 * <p>They reach the device's buffers and streams through its package-private surface: the pointer of a live buffer
 * ({@link CudaDevice#liveAllocation}), the calling thread's stream ({@link CudaDevice#stream()}) and staging
 * ({@link CudaDevice#staging()}), a kernel run's start and end with its buffers ({@link CudaDevice#startKernel},
 * {@link CudaDevice#usedOn}, {@link CudaDevice#endKernel}, so that {@link CudaDevice#synchronize()} waits for them),
 * the timing events around a launch sequence ({@link CudaDevice#mark}, {@link CudaDevice#giveBack},
 * {@link CudaDevice#launchTiming}) and the logged driver calls ({@link CudaDevice#streamSynchronize},
 * {@link CudaDevice#memAlloc}, {@link CudaDevice#memFree}). What they record of the buffers (which bases were written
 * where, which MSM tables were built) is guarded by the device's monitor, as the buffers are, and forgotten when the
 * device frees a buffer ({@link #forget}).
 *
 * <p>Every NTT, quotient and MSM is enqueued on the calling thread's stream between two device events and counts as a
 * running kernel of the device until awaited, failures included.
 */
public final class CudaProvingKernels implements ProvingKernels {
  private final CudaDevice device;
  private final Kernels kernels;
  private final KernelScratch scratch;
  private final CUdeviceptr twiddles;
  /** The MSM arenas and those not in use; guarded by the device's monitor. */
  private final Deque<CUdeviceptr> freeArenas = new ArrayDeque<>();
  private final List<CUdeviceptr> arenas = new ArrayList<>();
  /** Per place (buffer id, byte), the bases written there; guarded by the device's monitor. */
  private final Map<BasesAt, Written> basesWritten = new HashMap<>();
  /**
   * Per place (buffer id, byte), the MSM table built there (see {@link #msmTable}); dropped when its bases are written
   * or freed. Guarded by the device's monitor.
   */
  private final Map<BasesAt, TableOf> tablesBuilt = new HashMap<>();
  private final LongAdder kernelNanos = new LongAdder();

  /**
   * Loads the kernels and reserves {@code scratch} on {@code device} while it opens (before its ballast): the
   * twiddles, computed and awaited on the calling thread's stream, then the MSM arenas, each allocated by {@code alloc}
   * (which the device frees again if opening fails).
   */
  CudaProvingKernels(CudaDevice device, CUdevice dev, DeviceCallLog log, KernelScratch scratch,
      LongFunction<CUdeviceptr> alloc) {
    this.device = device;
    this.kernels = Kernels.load(dev, log);
    this.scratch = scratch;
    CUstream s = device.stream();
    this.twiddles = scratch.maxLogN() > 0 ? alloc.apply(scratch.twiddleBytes()) : null;
    if (twiddles != null) {
      kernels.twiddles(twiddles, scratch.maxLogN(), s);
      check(device.streamSynchronize(s), "cuStreamSynchronize");
    }
    for (int i = 0; i < scratch.arenas(); i++) {
      CUdeviceptr a = alloc.apply(scratch.arenaBytes());
      arenas.add(a);
      freeArenas.add(a);
    }
  }

  @Override
  public CudaDevice device() {
    return device;
  }

  /**
   * Forgets the bases and tables written in or built from the buffer {@code bufferId}: the device is freeing it (under
   * its monitor).
   */
  void forget(long bufferId) {
    basesWritten.keySet().removeIf(k -> k.bufferId() == bufferId);
    tablesBuilt.keySet().removeIf(k -> k.bufferId() == bufferId);
    tablesBuilt.values().removeIf(t -> t.bases().bufferId() == bufferId);
  }

  /**
   * Frees the MSM arenas, then the twiddles: the device is closing (under its monitor), before it releases the
   * context.
   */
  void freeScratch() {
    for (CUdeviceptr p : arenas) {
      device.memFree(p);
    }
    if (twiddles != null) {
      device.memFree(twiddles);
    }
  }

  /** Where writeBases or writeG2Bases put bases: the key of what they wrote. */
  private record BasesAt(long bufferId, long byteOffset) {}

  /** How many bases of which group were written somewhere: the MSM's group and point count. */
  private record Written(MsmGroup group, int count) {
    Written {
      java.util.Objects.requireNonNull(group, "group");
      if (count < 0) {
        throw new IllegalArgumentException("a negative count of bases: " + count);
      }
    }
  }

  /** An MSM table: the copies of the bases at {@code bases}, laid out as {@code plan} reads them (null: no bases). */
  private record TableOf(BasesAt bases, MsmPlan plan) {}

  private static void requireFits(DeviceBuffer b, long byteAt, long bytes, String what) {
    if (byteAt < 0 || bytes < 0 || byteAt + bytes > b.bytes()) {
      throw new IllegalArgumentException(what + " needs bytes " + byteAt + " to " + (byteAt + bytes) + " of buffer "
          + b.name() + ", which has " + b.bytes());
    }
  }

  /** Copies src[from, from + count) to dst through the thread's pinned buffers, on its stream. */
  void upload(CUdeviceptr dst, long[] src, int from, int count) {
    CUstream s = device.stream();
    device.staging().upload(dst, count, (into, at, n) -> into.put(src, from + (int) at, n), s);
  }

  /** Copies count longs from src into dst[0, count), through the thread's pinned buffers, on its stream. */
  void download(long[] dst, CUdeviceptr src, int count) {
    CUstream s = device.stream();
    device.staging().download(dst, src, count, s);
  }

  @Override
  public void writeScalars(DeviceBuffer dst, int at, long[] src) {
    Allocation a = device.liveAllocation(dst, "write to", device.stream());
    requireFits(dst, at * SCALAR_BYTES, (long) src.length / Fr.LIMBS * SCALAR_BYTES, "writing " + src.length / Fr.LIMBS + " scalars");
    upload(a.ptr().withByteOffset(at * SCALAR_BYTES), src, 0, src.length);
  }

  @Override
  public long[] readScalars(DeviceBuffer src, int at, int count) {
    Allocation a = device.liveAllocation(src, "read from", device.stream());
    requireFits(src, at * SCALAR_BYTES, count * SCALAR_BYTES, "reading " + count + " scalars");
    long[] out = new long[count * Fr.LIMBS];
    download(out, a.ptr().withByteOffset(at * SCALAR_BYTES), out.length);
    return out;
  }

  @Override
  public void writeBases(DeviceBuffer dst, long at, G1Bases bases) {
    writePoints(dst, at, MsmGroup.G1, bases.size(),
        (into, from, n) -> G1Limbs.affine(bases, (int) (from / G1Limbs.AFFINE_LONGS), n / G1Limbs.AFFINE_LONGS, into));
  }

  @Override
  public void writeG2Bases(DeviceBuffer dst, long at, G2Bases bases) {
    writePoints(dst, at, MsmGroup.G2, bases.size(),
        (into, from, n) -> G2Limbs.affine(bases, (int) (from / G2Limbs.AFFINE_LONGS), n / G2Limbs.AFFINE_LONGS, into));
  }

  /**
   * Writes {@code count} affine points of {@code group} at byte {@code at} of dst, filled by {@code fill} straight into
   * the pinned halves (whole points: a half, and every part of it, holds a multiple of 24 longs, a G2 point and two G1
   * points), and records them for that group's MSMs, forgetting any table built on dst.
   */
  private void writePoints(DeviceBuffer dst, long at, MsmGroup group, int count, Staging.Filler fill) {
    CUstream s = device.stream();
    Allocation a = device.liveAllocation(dst, "write to", s);
    long bytes = (long) count * group.affineBytes();
    requireFits(dst, at, bytes, "writing " + count + " " + group + " bases");
    device.staging().upload(a.ptr().withByteOffset(at), bytes / Long.BYTES, fill, s);
    synchronized (device) {
      basesWritten.put(new BasesAt(dst.id(), at), new Written(group, count));
      // a table is gone when these bytes cover its bases or any of it; tables elsewhere in dst stay
      tablesBuilt.entrySet().removeIf(e -> {
        BasesAt of = e.getValue().bases();
        MsmPlan plan = e.getValue().plan();
        boolean overBases = of.bufferId() == dst.id() && (of.byteOffset() == at
            || overlaps(of.byteOffset(), plan == null ? 0 : (long) plan.n() * MsmGroup.G1.affineBytes(), at, bytes));
        boolean overTable = e.getKey().bufferId() == dst.id()
            && overlaps(e.getKey().byteOffset(), plan == null ? 0 : plan.tableBytes(), at, bytes);
        return overBases || overTable;
      });
    }
  }

  /** Whether the byte ranges [a, a + aBytes) and [b, b + bBytes) share a byte. */
  private static boolean overlaps(long a, long aBytes, long b, long bBytes) {
    return a < b + bBytes && b < a + aBytes;
  }

  @Override
  public MsmRun<G2> g2Msm(String owner, DeviceBuffer bases, long basesAt, DeviceBuffer scalars, int scalarsAt) {
    int count = basesCount(bases, basesAt, MsmGroup.G2);
    G2[] result = {G2.identity()};
    StreamRun run = groupMsm("g2_msm", owner, bases, basesAt, scalars, scalarsAt, count == 0 ? null : MsmPlan.g2(count), null, 0,
        sums -> result[0] = Kernels.g2MsmResult(MsmPlan.g2(count), sums), G2Limbs.JACOBIAN_LONGS);
    return MsmRun.of(run, () -> result[0]);
  }

  @Override
  public KernelRun ntt(String owner, DeviceBuffer data, int at, int logN, NttKind kind) {
    return transform(owner, "ntt", List.of(data), logN, (a, s) -> {
      requireFits(data, at * SCALAR_BYTES, (1L << logN) * SCALAR_BYTES, "an NTT of 2^" + logN);
      return () -> kernels.ntt(a.get(0).ptr().withByteOffset(at * SCALAR_BYTES), logN, kind, twiddles, scratch.maxLogN(), s);
    });
  }

  @Override
  public KernelRun quotient(String owner, DeviceBuffer abc, int at, int logN, DeviceBuffer h) {
    return transform(owner, "quotient", List.of(abc, h), logN, (a, s) -> {
      requireFits(abc, at * SCALAR_BYTES, 3 * (1L << logN) * SCALAR_BYTES, "a quotient of 2^" + logN);
      requireFits(h, 0, (1L << logN) * SCALAR_BYTES, "a quotient of 2^" + logN);
      return () -> kernels.quotient(a.get(0).ptr().withByteOffset(at * SCALAR_BYTES), logN, a.get(1).ptr(), twiddles,
          scratch.maxLogN(), s);
    });
  }

  /** What a transform enqueues, once its buffers are checked: checks run first, then the returned enqueueing. */
  private interface Enqueue {
    Runnable prepare(List<Allocation> buffers, CUstream s);
  }

  /** Runs an NTT-based kernel sequence on the caller's stream, timed by device events, as a StreamRun. */
  private KernelRun transform(String owner, String name, List<DeviceBuffer> uses, int logN, Enqueue work) {
    if (logN > scratch.maxLogN()) {
      throw new IllegalStateException("this device was opened for NTTs up to 2^" + scratch.maxLogN() + " (" + scratch
          + "), asked for 2^" + logN);
    }
    CUstream s = device.stream();
    List<Allocation> a = device.startKernel(owner, name, uses, s);
    return enqueued(name, s, a, () -> work.prepare(a, s), () -> {}, () -> {});
  }

  /**
   * Enqueues on s (checks first, then the work {@code prepare} returns) between two device events, records that it used
   * the buffers {@code used}, and returns the StreamRun; if anything fails on the way, the events are destroyed,
   * {@code release} runs and the kernel stops counting as running, so that synchronize() never waits for work that was
   * never launched.
   */
  private StreamRun enqueued(String name, CUstream s, List<Allocation> used, Supplier<Runnable> prepare, Runnable atEnd,
      Runnable release) {
    CUevent started = null;
    try {
      Runnable enqueue = prepare.get();
      started = device.mark(s);
      enqueue.run();
      device.usedOn(used, s);
      return new StreamRun(name, s, started, atEnd, release);
    } catch (RuntimeException e) {
      if (started != null) {
        device.giveBack(started);
      }
      try {
        release.run();
      } finally {
        device.endKernel();
      }
      throw e;
    }
  }

  @Override
  public MsmRun<G1> msm(String owner, DeviceBuffer bases, long basesAt, DeviceBuffer scalars, int scalarsAt) {
    int count = basesCount(bases, basesAt, MsmGroup.G1);
    return msm(owner, bases, basesAt, scalars, scalarsAt, count == 0 ? null : MsmPlan.of(count), null, 0);
  }

  /**
   * The MSM of the bases at {@code basesAt} with the table {@link #msmTable} built for them in {@code table}: each
   * window's digits index a precomputed copy of the bases, so all windows share a bucket set, and a wider window pays.
   */
  public MsmRun<G1> msm(String owner, DeviceBuffer bases, long basesAt, DeviceBuffer scalars, int scalarsAt, DeviceBuffer table) {
    return msm(owner, bases, basesAt, scalars, scalarsAt, table, 0);
  }

  /** As {@link #msm(String, DeviceBuffer, long, DeviceBuffer, int, DeviceBuffer)} with the table at byte {@code tableAt}. */
  @Override
  public MsmRun<G1> msm(String owner, DeviceBuffer bases, long basesAt, DeviceBuffer scalars, int scalarsAt, DeviceBuffer table,
      long tableAt) {
    int count = basesCount(bases, basesAt, MsmGroup.G1);
    TableOf t;
    synchronized (device) {
      t = tablesBuilt.get(new BasesAt(table.id(), tableAt));
    }
    if (t == null || !t.bases().equals(new BasesAt(bases.id(), basesAt)) || (t.plan() == null ? count != 0 : t.plan().n() != count)) {
      throw new IllegalStateException("buffer " + table.name() + " holds no MSM table at byte " + tableAt + " of the " + count
          + " bases of " + bases.name() + " at byte " + basesAt);
    }
    return msm(owner, bases, basesAt, scalars, scalarsAt, count == 0 ? null : t.plan(), table, tableAt);
  }

  /** How many bases of {@code group} {@link #writeBases} or {@link #writeG2Bases} wrote at basesAt of bases. */
  private int basesCount(DeviceBuffer bases, long basesAt, MsmGroup group) {
    Written w;
    synchronized (device) {
      w = basesWritten.get(new BasesAt(bases.id(), basesAt));
    }
    if (w == null || w.group() != group) {
      throw new IllegalStateException("buffer " + bases.name() + " holds no " + group + " bases at byte " + basesAt
          + (w == null ? "" : " (it holds " + w.group() + " bases there)"));
    }
    if (w.count() > scratch.maxMsmPoints()) {
      throw new IllegalStateException("this device was opened for MSMs up to " + scratch.maxMsmPoints() + " points ("
          + scratch + "), asked for " + w.count());
    }
    return w.count();
  }

  /** The G1 MSM by {@code plan} (null: no points), reading the table buffer when there is one. */
  private MsmRun<G1> msm(String owner, DeviceBuffer bases, long basesAt, DeviceBuffer scalars, int scalarsAt, MsmPlan plan,
      DeviceBuffer table, long tableAt) {
    G1[] result = {G1.identity()};
    StreamRun run = groupMsm("msm", owner, bases, basesAt, scalars, scalarsAt, plan, table, tableAt,
        sums -> result[0] = Kernels.msmResult(plan, sums), G1Limbs.JACOBIAN_LONGS);
    return MsmRun.of(run, () -> result[0]);
  }

  /**
   * The MSM {@code name} (msm or g2_msm, as the log and the timings name it) by {@code plan} (null: no points, nothing
   * enqueued) in the plan's group, reading the table at byte {@code tableAt} of the table buffer when there
   * is one; once the stream is synchronized, {@code atEnd} gets the set sums read back ({@code jacobianLongs} a point).
   */
  private StreamRun groupMsm(String name, String owner, DeviceBuffer bases, long basesAt, DeviceBuffer scalars, int scalarsAt,
      MsmPlan plan, DeviceBuffer table, long tableAt, java.util.function.Consumer<long[]> atEnd, int jacobianLongs) {
    CUstream s = device.stream();
    List<Allocation> a = device.startKernel(owner, name, table == null ? List.of(bases, scalars) : List.of(bases, scalars, table), s);
    if (plan == null) {
      return new StreamRun(name, s, null, () -> {}, () -> {});
    }
    int count = plan.n();
    CUdeviceptr arena;
    try {
      requireFits(scalars, scalarsAt * SCALAR_BYTES, count * SCALAR_BYTES, "an MSM of " + count + " scalars");
      if (table != null) {
        requireFits(table, tableAt, plan.tableBytes(), "an MSM table of " + count + " bases, " + plan.copies() + " copies");
      }
      if (plan.scratchBytes() > scratch.arenaBytes()) {
        throw new IllegalStateException("an MSM of " + count + " points needs " + plan.scratchBytes()
            + " bytes of scratch, the arenas have " + scratch.arenaBytes() + " (" + scratch + ")");
      }
      arena = takeArena();
    } catch (RuntimeException e) {
      device.endKernel();
      throw e;
    }
    CUdeviceptr tablePtr = table == null ? new CUdeviceptr() : a.get(2).ptr().withByteOffset(tableAt);
    return enqueued(name, s, a,
        () -> () -> kernels.msm(a.get(0).ptr().withByteOffset(basesAt), tablePtr,
            a.get(1).ptr().withByteOffset(scalarsAt * SCALAR_BYTES), plan, arena, s),
        () -> {
          long[] sums = new long[plan.windowSumPoints() * jacobianLongs];
          download(sums, arena.withByteOffset(plan.windowSumsAt()), sums.length);
          atEnd.accept(sums);
        },
        () -> releaseArena(arena));
  }

  /** Bytes of the table {@link #msmTable} builds for {@code count} bases with up to {@code copies} copies of each. */
  public static long msmTableBytes(int count, int copies) {
    return count == 0 ? 0 : MsmPlan.withTable(count, copies).tableBytes();
  }

  /** The plan's bytes ({@link #msmTableBytes(int, int)}): fewer copies than asked where fewer serve the same windows. */
  @Override
  public long tableBytes(int count, int copies) {
    return msmTableBytes(count, copies);
  }

  /**
   * Builds into {@code table} (a buffer of at least {@link #msmTableBytes} bytes, which the caller owns and frees) the
   * precomputed shifted copies of the bases at {@code basesAt} that {@link #msm(String, DeviceBuffer, long, DeviceBuffer,
   * int, DeviceBuffer)} reads: the one-time work of a proving key's fixed bases. Writing new bases there, or freeing
   * either buffer, forgets the table.
   */
  public KernelRun msmTable(String owner, DeviceBuffer bases, long basesAt, DeviceBuffer table, int copies) {
    return msmTable(owner, bases, basesAt, table, 0, copies);
  }

  /** As {@link #msmTable(String, DeviceBuffer, long, DeviceBuffer, int)} into byte {@code tableAt} of {@code table}. */
  @Override
  public KernelRun msmTable(String owner, DeviceBuffer bases, long basesAt, DeviceBuffer table, long tableAt, int copies) {
    int count = basesCount(bases, basesAt, MsmGroup.G1);
    MsmPlan plan = count == 0 ? null : MsmPlan.withTable(count, copies);
    CUstream s = device.stream();
    List<Allocation> a = device.startKernel(owner, "msm_table", List.of(bases, table), s);
    StreamRun run = enqueued("msm_table", s, a, () -> {
      if (plan != null) {
        requireFits(table, tableAt, plan.tableBytes(), "an MSM table of " + count + " bases, " + plan.copies() + " copies");
      }
      return () -> {
        if (plan != null) {
          kernels.msmTable(a.get(0).ptr().withByteOffset(basesAt), plan, a.get(1).ptr().withByteOffset(tableAt), s);
        }
      };
    }, () -> {}, () -> {});
    synchronized (device) {
      tablesBuilt.put(new BasesAt(table.id(), tableAt), new TableOf(new BasesAt(bases.id(), basesAt), plan));
    }
    return run;
  }

  @Override
  public G1FixedBase fixedBase() {
    return this::fixedBaseMul;
  }

  /**
   * Device time of the NTT and MSM kernels so far (device events around each launch sequence, summed over all
   * streams, so kernels of two workers running at once count twice): with a run's wall time, how busy the GPU was.
   */
  @Override
  public OptionalDouble kernelSeconds() {
    return OptionalDouble.of(kernelNanos.sum() / 1e9);
  }

  /** An MSM arena to use, under the device's monitor. */
  private CUdeviceptr takeArena() {
    synchronized (device) {
      CUdeviceptr a = freeArenas.poll();
      if (a == null) {
        throw new IllegalStateException("all " + arenas.size() + " MSM arenas are in use: open the device with more ("
            + scratch + ")");
      }
      return a;
    }
  }

  private void releaseArena(CUdeviceptr a) {
    synchronized (device) {
      freeArenas.push(a);
    }
  }

  /** Work enqueued on a stream: awaiting synchronizes the stream, then runs {@code atEnd} once. */
  private final class StreamRun implements KernelRun {
    private final String name;
    private final CUstream s;
    private final LaunchTiming timing;
    private final Runnable atEnd;
    private final Runnable release;
    private boolean done;
    private RuntimeException failure;

    /**
     * Work enqueued on s since the event {@code started} (null: nothing was enqueued); {@code atEnd} runs once the
     * stream is synchronized, {@code release} (freeing what the work held) in any case.
     */
    StreamRun(String name, CUstream s, CUevent started, Runnable atEnd, Runnable release) {
      this.name = name;
      this.s = s;
      if (started == null) {
        this.timing = null;
      } else {
        this.timing = device.launchTiming(name, started);
        timing.stopped = device.mark(s); // if this fails, enqueued() hands started back
      }
      this.atEnd = atEnd;
      this.release = release;
    }

    @Override
    public String name() {
      return name;
    }

    /** Synchronizes once; a failure is thrown again by every later call, never swallowed. */
    @Override
    public synchronized void await() {
      if (done) {
        if (failure != null) {
          throw failure;
        }
        return;
      }
      done = true;
      try {
        device.stream();
        check(device.streamSynchronize(s), "cuStreamSynchronize(" + name + ")");
        if (timing != null) {
          kernelNanos.add(timing.record());
        }
        atEnd.run();
      } catch (RuntimeException e) {
        failure = e;
        throw e;
      } finally {
        if (timing != null) {
          timing.discard();
        }
        try {
          release.run();
        } finally {
          device.endKernel();
        }
      }
    }
  }

  /**
   * k_i·G1 generator for each Montgomery scalar of {@code scalars} (a Fr vector), on the GPU: the batch fixed-base
   * multiplication of setup, from the table CPU setup uses too ({@link G1FixedBase#generatorTable()}). Temporary device
   * memory comes from the budget.
   */
  G1[] fixedBaseMul(long[] scalars) {
    int n = scalars.length / Fr.LIMBS;
    G1[] out = new G1[n];
    if (n == 0) {
      return out;
    }
    long[] table = GeneratorTable.LIMBS;
    int chunk = Math.min(n, 1 << 20);
    CUstream s = device.stream();
    List<CUdeviceptr> allocated = new ArrayList<>();
    try {
      CUdeviceptr t = temporary(allocated, table.length * 8L);
      CUdeviceptr sc = temporary(allocated, chunk * SCALAR_BYTES);
      CUdeviceptr pts = temporary(allocated, chunk * G1_AFFINE_BYTES);
      upload(t, table, 0, table.length);
      long[] limbs = new long[chunk * G1Limbs.AFFINE_LONGS];
      for (int from = 0; from < n; from += chunk) {
        int k = Math.min(chunk, n - from);
        upload(sc, scalars, from * Fr.LIMBS, k * Fr.LIMBS);
        kernels.fixedBase(t, sc, k, pts, s);
        download(limbs, pts, k * G1Limbs.AFFINE_LONGS);
        int base0 = from;
        IntStream.range(0, k).parallel().forEach(i -> out[base0 + i] = G1Limbs.fromAffine(limbs, i * G1Limbs.AFFINE_LONGS));
      }
    } finally {
      allocated.forEach(p -> device.memFree(p));
    }
    return out;
  }

  /** cuMemAlloc of bytes, remembered in {@code allocated} for the caller to free. */
  private CUdeviceptr temporary(List<CUdeviceptr> allocated, long bytes) {
    CUdeviceptr p = new CUdeviceptr();
    check(device.memAlloc(p, bytes), "cuMemAlloc");
    allocated.add(p);
    return p;
  }

  /** The generator's fixed-base table as affine limbs, converted once from the CPU's table. */
  static final class GeneratorTable {
    static final long[] LIMBS = limbs(G1FixedBase.generatorTable());

    private GeneratorTable() {}

    private static long[] limbs(List<G1> entries) {
      long[] out = new long[entries.size() * G1Limbs.AFFINE_LONGS];
      for (int i = 0; i < entries.size(); i++) {
        System.arraycopy(G1Limbs.affine(entries.get(i)), 0, out, i * G1Limbs.AFFINE_LONGS, G1Limbs.AFFINE_LONGS);
      }
      return out;
    }
  }

  // ------------------------------------------------------------------- package access for kernel tests and benchmarks

  Kernels kernels() {
    return kernels;
  }

  CUdeviceptr twiddles() {
    return twiddles;
  }

  String scratchDescription() {
    return scratch.toString();
  }

  /** One MSM arena for benchmarks that drive the kernels directly (the caller must not run two at once). */
  CUdeviceptr arena() {
    synchronized (device) {
      if (arenas.isEmpty()) {
        throw new IllegalStateException("no MSM arena: " + scratch);
      }
      return arenas.get(0);
    }
  }

  /** Records that n {@code group} bases lie at byte 0 of {@code bases}, written by the caller without the kernels. */
  private void assumeWritten(DeviceBuffer bases, MsmGroup group, int n) {
    synchronized (device) {
      basesWritten.put(new BasesAt(bases.id(), 0), new Written(group, n));
    }
  }

  /** The MSM of the first n bases written at byte 0 of {@code bases} with the first n scalars of {@code scalars}. */
  G1 msmOf(DeviceBuffer bases, DeviceBuffer scalars, int n) {
    assumeWritten(bases, MsmGroup.G1, n);
    return msm("bench", bases, 0, scalars, 0).result();
  }

  /** As {@link #msmOf(DeviceBuffer, DeviceBuffer, int)}, with the table {@link #msmTableOf} built for those n bases. */
  G1 msmOf(DeviceBuffer bases, DeviceBuffer scalars, int n, DeviceBuffer table) {
    assumeWritten(bases, MsmGroup.G1, n);
    return msm("bench", bases, 0, scalars, 0, table).result();
  }

  /** The G2 MSM of the first n G2 bases written at byte 0 of {@code bases} with the first n scalars of {@code scalars}. */
  G2 g2MsmOf(DeviceBuffer bases, DeviceBuffer scalars, int n) {
    assumeWritten(bases, MsmGroup.G2, n);
    return g2Msm("bench", bases, 0, scalars, 0).result();
  }

  /** Builds the MSM table of the first n bases written at byte 0 of {@code bases}, and waits for it. */
  void msmTableOf(DeviceBuffer bases, int n, DeviceBuffer table, int copies) {
    assumeWritten(bases, MsmGroup.G1, n);
    msmTable("bench", bases, 0, table, copies).await();
  }
}
