package dev.interlock.gpu.cuda;

import static jcuda.driver.JCudaDriver.cuCtxSetCurrent;
import static jcuda.driver.JCudaDriver.cuCtxSynchronize;
import static jcuda.driver.JCudaDriver.cuDeviceGet;
import static jcuda.driver.JCudaDriver.cuEventCreate;
import static jcuda.driver.JCudaDriver.cuEventDestroy;
import static jcuda.driver.JCudaDriver.cuEventElapsedTime;
import static jcuda.driver.JCudaDriver.cuEventRecord;
import static jcuda.driver.JCudaDriver.cuEventSynchronize;
import static jcuda.driver.JCudaDriver.cuDeviceGetCount;
import static jcuda.driver.JCudaDriver.cuDeviceGetName;
import static jcuda.driver.JCudaDriver.cuDevicePrimaryCtxRelease;
import static jcuda.driver.JCudaDriver.cuDevicePrimaryCtxRetain;
import static jcuda.driver.JCudaDriver.cuInit;
import static jcuda.driver.JCudaDriver.cuLaunchKernel;
import static jcuda.driver.JCudaDriver.cuMemAlloc;
import static jcuda.driver.JCudaDriver.cuMemAllocAsync;
import static jcuda.driver.JCudaDriver.cuMemFree;
import static jcuda.driver.JCudaDriver.cuMemFreeAsync;
import static jcuda.driver.JCudaDriver.cuMemGetInfo;
import static jcuda.driver.JCudaDriver.cuModuleGetFunction;
import static jcuda.driver.JCudaDriver.cuModuleLoadData;
import static jcuda.driver.JCudaDriver.cuStreamCreate;
import static jcuda.driver.JCudaDriver.cuStreamDestroy;
import static jcuda.driver.JCudaDriver.cuStreamSynchronize;
import static jcuda.driver.JCudaDriver.cuStreamWaitEvent;

import dev.interlock.impl.api.Device;
import dev.interlock.impl.api.DeviceBuffer;
import dev.interlock.impl.api.DeviceCall;
import dev.interlock.impl.api.DriverError;
import dev.interlock.impl.api.KernelRun;
import dev.interlock.impl.api.KernelTiming;
import dev.interlock.impl.api.MemoryInfo;
import dev.interlock.impl.device.BufferTable;
import dev.interlock.impl.device.DeviceCallLog;
import dev.interlock.impl.device.OutOfDeviceMemoryException;
import dev.interlock.model.design.Sizes;
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
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;
import java.util.stream.IntStream;
import jcuda.Pointer;
import jcuda.driver.CUcontext;
import jcuda.driver.CUdevice;
import jcuda.driver.CUdeviceptr;
import jcuda.driver.CUevent;
import jcuda.driver.CUevent_flags;
import jcuda.driver.CUfunction;
import jcuda.driver.CUmodule;
import jcuda.driver.CUresult;
import jcuda.driver.CUstream;
import jcuda.driver.CUstream_flags;

/**
 * A {@link Device} on a real CUDA GPU, with the {@link ProvingKernels} as CUDA kernels on it: every allocation is the driver's, so an out-of-memory is the
 * driver's CUDA_ERROR_OUT_OF_MEMORY, device-global as it is for the prover.
 *
 * <p>A budget (e.g. 16 GiB on a 141 GiB H200) is made real by allocating a ballast of 1 GiB blocks
 * (and one smaller block) at start until the free memory is the budget plus at most 64 MiB of
 * slack, measured at open ({@link #slack()}); sizes in designs are whole GiB, so the slack never changes whether a
 * request fits. Each Java thread uses its own stream on the one shared (primary) context. Live bytes are counted from
 * our buffers; pool-cached bytes are read from the driver (reserved minus used).
 *
 * <p>The device synchronizes exactly where the model's {@link dev.interlock.model.state.DeviceMemory} does, since a
 * synchronization is what lets the pool release cached bytes: {@link #synchronize()} (cuCtxSynchronize),
 * {@link #synchronizeStream} and a kernel's end ({@link KernelRun#await()}: cuStreamSynchronize of the launching
 * stream), and {@link #trim()}, which releases everything anyway. Async allocations and frees synchronize nothing:
 * where another stream needs an async allocation's or a use's completion, it waits for an event on the device
 * (cuStreamWaitEvent), never on the host. Each driver call that moves memory runs under the device's monitor together
 * with the bookkeeping it changes, so {@link #memory()} never sees one without the other.
 *
 * <p>Every driver call of the kinds a capture records (allocations, frees, trims, the pool's threshold, cuMemGetInfo,
 * synchronizations, launches) is logged with its arguments and result as it returns ({@link #deviceCalls()}): the
 * ballast and kernel scratch at open and their frees at close included, so that a capture of the process can be
 * compared with it call for call.
 */
public final class CudaDevice implements Device, ProvingKernels {
  /** The most free memory beyond the budget that the ballast leaves: also the tolerance of {@link #driverFree()}. */
  public static final long FREE_TOLERANCE = 64L << 20;
  private static final long SLACK = FREE_TOLERANCE;

  private final DeviceCallLog log = new DeviceCallLog();
  private final CUcontext ctx = new CUcontext();
  private final CUdevice dev = new CUdevice();
  private final CuPool pool;
  private final long capacity;
  private final List<CUdeviceptr> ballast = new ArrayList<>();
  private final CUfunction touch = new CUfunction();
  private final Kernels kernels;
  private final KernelScratch scratch;
  private final CUdeviceptr twiddles;
  private final Deque<CUdeviceptr> freeArenas = new ArrayDeque<>();
  private final List<CUdeviceptr> arenas = new ArrayList<>();
  private final ThreadLanes<Lane> lanes = new ThreadLanes<>(Lane::create);
  /** A stream a test put in place of the calling thread's own ({@link #onStream}). */
  private final ThreadLocal<CUstream> streamInstead = new ThreadLocal<>();
  private final HostCopies hostCopies = new HostCopies();
  private final BufferTable<Block> buffers = new BufferTable<>();
  /** Per stream, an event recorded after its latest async free: what {@link #trim()} waits for. */
  private final Map<CUstream, CUevent> lastFree = new HashMap<>();
  private final Map<BasesAt, Written> basesWritten = new HashMap<>();
  /** Per place (buffer id, byte), the MSM table built there (see {@link #msmTable}); dropped when its bases are written or freed. */
  private final Map<BasesAt, TableOf> tablesBuilt = new HashMap<>();
  private final LongAdder kernelNanos = new LongAdder();
  /** Timing events handed back after use, so that a launch records two events without creating them. */
  private final Deque<CUevent> timingEvents = new ArrayDeque<>();
  /** The kernel timings so far, at most {@link #MAX_TIMINGS}; guarded by itself. */
  private final List<KernelTiming> timings = new ArrayList<>();
  /** Every clock anchor made, kept until close: a launch's timing is read against the anchor current at the launch. */
  private final List<ClockAnchor> anchors = new ArrayList<>();
  private final CUstream anchorStream = new CUstream();
  private volatile ClockAnchor anchor;
  private final long slack;
  private long peakUsed;
  private int runningKernels;
  private long lastBufferId;
  private long outOfMemoryErrors;
  private boolean closed;

  /** A thread's stream and, once it copies, its pinned staging; handed on when the thread ends ({@link ThreadLanes}). */
  private static final class Lane {
    final CUstream stream = new CUstream();
    volatile Staging staging;

    static Lane create() {
      Lane l = new Lane();
      // non-blocking: no implicit synchronization with the legacy stream, so workers overlap as the design lets them
      check(cuStreamCreate(l.stream, CUstream_flags.CU_STREAM_NON_BLOCKING), "cuStreamCreate");
      return l;
    }
  }

  /**
   * What the device holds on the host's side for the threads that used it: streams, pinned staging bytes, and how many
   * threads were served by them. A thread that ends hands both on, so they follow the threads that ran at once.
   */
  public record HostResources(int streams, long pinnedBytes, long threadsServed) {
    public HostResources {
      if (streams < 0 || pinnedBytes < 0 || threadsServed < 0) {
        throw new IllegalArgumentException("negative count: " + streams + " streams, " + pinnedBytes + " pinned bytes, "
            + threadsServed + " threads");
      }
    }
  }

  /** The streams and pinned bytes held now, and the threads served so far. */
  public HostResources hostResources() {
    List<Lane> all = lanes.all();
    long pinned = all.stream().filter(l -> l.staging != null).count() * Staging.BYTES;
    return new HostResources(all.size(), pinned, lanes.threadsServed());
  }

  /** A live buffer and what the device keeps for it. */
  private record Allocation(DeviceBuffer buffer, Block block) {
    CUdeviceptr ptr() {
      return block.ptr;
    }
  }

  /**
   * A live buffer's device pointer and, for an async one, the stream ordering it needs: the stream it was allocated on
   * with an event recorded there after the allocation (another stream waits for it before using or freeing the
   * buffer), and per stream an event after its latest kernel that used the buffer (a free on another stream waits for
   * those). Guarded by the device's monitor.
   */
  private static final class Block {
    final CUdeviceptr ptr;
    final CUstream stream;
    final CUevent ready;
    final Map<CUstream, CUevent> uses = new HashMap<>();

    Block(CUdeviceptr ptr, CUstream stream, CUevent ready) {
      this.ptr = ptr;
      this.stream = stream;
      this.ready = ready;
    }

    /** Makes work enqueued on s from now on start after the allocation (async buffers only). */
    void orderUseOn(CUstream s) {
      if (ready != null && !stream.equals(s)) {
        check(cuStreamWaitEvent(s, ready, 0), "cuStreamWaitEvent");
      }
    }

    /** Makes a free enqueued on s from now on come after the allocation and every kernel that used the buffer. */
    void orderFreeOn(CUstream s) {
      orderUseOn(s);
      for (Map.Entry<CUstream, CUevent> u : uses.entrySet()) {
        if (!u.getKey().equals(s)) {
          check(cuStreamWaitEvent(s, u.getValue(), 0), "cuStreamWaitEvent");
        }
      }
    }

    /** Records that work just enqueued on s used the buffer (async buffers only: plain frees wait for the device). */
    void usedOn(CUstream s) {
      if (ready == null) {
        return;
      }
      CUevent e = uses.get(s);
      if (e == null) {
        e = event();
        uses.put(s, e);
      }
      check(cuEventRecord(e, s), "cuEventRecord");
    }

    /** Destroys the events (the driver defers it for one still pending). */
    void destroyEvents() {
      if (ready != null) {
        cuEventDestroy(ready);
      }
      uses.values().forEach(e -> cuEventDestroy(e));
      uses.clear();
    }
  }

  /** The most kernel timings kept; later ones are dropped (a benchmark of many proofs stays bounded in memory). */
  static final int MAX_TIMINGS = 1 << 20;
  /**
   * How old a clock anchor may get before a launch makes a new one: cuEventElapsedTime answers in float
   * milliseconds, whose step grows with the distance from the anchor (about 1 µs at 10 s).
   */
  static final long ANCHOR_NANOS = 10_000_000_000L;

  /**
   * A timing event the device completed at host time {@code hostNanos} ({@link System#nanoTime()}), give or take
   * {@code errorNanos}: device times measured from it (cuEventElapsedTime) become host times.
   */
  record ClockAnchor(CUevent event, long hostNanos, long errorNanos) {}

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


  /** Why no CUDA device can be used here, or empty when one can. */
  public static Optional<String> unavailable() {
    try {
      int rc = cuInit(0);
      if (rc != CUresult.CUDA_SUCCESS) {
        return Optional.of("CUDA driver did not initialize: " + CUresult.stringFor(rc));
      }
      int[] count = new int[1];
      rc = cuDeviceGetCount(count);
      if (rc != CUresult.CUDA_SUCCESS || count[0] == 0) {
        return Optional.of("no CUDA device (" + CUresult.stringFor(rc) + ", count " + count[0] + ")");
      }
      return Optional.empty();
    } catch (UnsatisfiedLinkError | NoClassDefFoundError e) {
      return Optional.of("no CUDA driver here (" + e.getMessage().lines().findFirst().orElse(e.toString()) + ")");
    }
  }

  /** Opens device 0 with {@code budget} bytes of VRAM left free for this device's allocations, and no NTT or MSM. */
  public static CudaDevice open(long budget) {
    return new CudaDevice(budget, KernelScratch.NONE);
  }

  /**
   * Opens device 0 with {@code budget} bytes of VRAM left free for this device's allocations, after reserving the
   * kernels' scratch outside the budget.
   */
  public static CudaDevice open(long budget, KernelScratch scratch) {
    return new CudaDevice(budget, scratch);
  }

  private CudaDevice(long budget, KernelScratch scratch) {
    if (budget < 1) {
      throw new IllegalArgumentException("budget must be positive, got " + budget);
    }
    check(cuInit(0), "cuInit");
    check(cuDeviceGet(dev, 0), "cuDeviceGet");
    check(cuDevicePrimaryCtxRetain(ctx, dev), "cuDevicePrimaryCtxRetain");
    List<CUdeviceptr> made = new ArrayList<>(); // freed again if opening fails half way
    try {
      bind();
      pool = CuPool.defaultPool(0, log);
      check(cuStreamCreate(anchorStream, CUstream_flags.CU_STREAM_NON_BLOCKING), "cuStreamCreate");
      anchor = newAnchor();
      loadKernels();
      this.kernels = Kernels.load(dev, log);
      this.scratch = scratch;
      CUstream s = bind();
      this.twiddles = scratch.maxLogN() > 0 ? alloc(made, scratch.twiddleBytes()) : null;
      if (twiddles != null) {
        kernels.twiddles(twiddles, scratch.maxLogN(), s);
        check(streamSynchronize(s), "cuStreamSynchronize");
      }
      for (int i = 0; i < scratch.arenas(); i++) {
        CUdeviceptr a = alloc(made, scratch.arenaBytes());
        arenas.add(a);
        freeArenas.add(a);
      }
      long free = free();
      if (free < budget) {
        throw new IllegalStateException("device has " + Sizes.format(free) + " free, less than the budget " + Sizes.format(budget)
            + (scratch.totalBytes() > 0 ? " after the kernel scratch (" + scratch + ")" : ""));
      }
      while (free() - budget >= Sizes.GIB) {
        ballast.add(alloc(made, Sizes.GIB));
      }
      long rest = free() - budget;
      if (rest > SLACK) {
        ballast.add(alloc(made, rest - SLACK / 2));
      }
      this.slack = free() - budget;
      if (slack < 0 || slack > SLACK) {
        throw new IllegalStateException("the ballast left " + slack + " bytes free beyond the budget, not 0 to " + SLACK);
      }
    } catch (RuntimeException e) {
      made.forEach(p -> memFree(p));
      cuDevicePrimaryCtxRelease(dev);
      throw e;
    }
    this.capacity = budget;
  }

  private CUdeviceptr alloc(List<CUdeviceptr> made, long bytes) {
    CUdeviceptr p = new CUdeviceptr();
    check(memAlloc(p, bytes), "cuMemAlloc (ballast or kernel scratch)");
    made.add(p);
    return p;
  }

  // ------------------------------------------------------------------- the logged driver calls

  /** cuMemAlloc, logged. */
  private int memAlloc(CUdeviceptr p, long bytes) {
    int rc = cuMemAlloc(p, bytes);
    log.alloc("cuMemAlloc", rc == CUresult.CUDA_SUCCESS ? Handles.address(p) : 0, bytes, false, 0, rc);
    return rc;
  }

  /** cuMemAllocAsync on s, logged. */
  private int memAllocAsync(CUdeviceptr p, long bytes, CUstream s) {
    int rc = cuMemAllocAsync(p, bytes, s);
    log.alloc("cuMemAllocAsync", rc == CUresult.CUDA_SUCCESS ? Handles.address(p) : 0, bytes, true, Handles.address(s), rc);
    return rc;
  }

  /** cuMemFree, logged. */
  private int memFree(CUdeviceptr p) {
    long at = Handles.address(p);
    int rc = cuMemFree(p);
    log.free("cuMemFree", at, false, 0, rc);
    return rc;
  }

  /** cuMemFreeAsync on s, logged. */
  private int memFreeAsync(CUdeviceptr p, CUstream s) {
    long at = Handles.address(p);
    int rc = cuMemFreeAsync(p, s);
    log.free("cuMemFreeAsync", at, true, Handles.address(s), rc);
    return rc;
  }

  /** cuStreamSynchronize of s, logged. */
  private int streamSynchronize(CUstream s) {
    int rc = cuStreamSynchronize(s);
    log.plain(DeviceCall.Kind.SYNC_STREAM, "cuStreamSynchronize", Handles.address(s), rc);
    return rc;
  }

  /** cuCtxSynchronize, logged. */
  private int ctxSynchronize() {
    int rc = cuCtxSynchronize();
    log.plain(DeviceCall.Kind.SYNC, "cuCtxSynchronize", 0, rc);
    return rc;
  }

  /**
   * The driver calls this device made so far, in order, on every thread: its allocations (the ballast's and the
   * kernel scratch's at open too), frees, trims, threshold settings, cuMemGetInfo calls, synchronizations and
   * launches, each with its arguments and result.
   */
  @Override
  public List<DeviceCall> deviceCalls() {
    return log.calls();
  }

  private void loadKernels() {
    byte[] ptx = Kernels.resource("touch.ptx");
    CUmodule module = new CUmodule();
    check(cuModuleLoadData(module, java.util.Arrays.copyOf(ptx, ptx.length + 1)), "cuModuleLoadData(touch.ptx)");
    check(cuModuleGetFunction(touch, module, "touch"), "cuModuleGetFunction(touch)");
  }

  /** The device's name, e.g. "NVIDIA H200". */
  public String name() {
    byte[] b = new byte[256];
    cuDeviceGetName(b, b.length, dev);
    return new String(b).trim();
  }

  /** Free bytes of the whole GPU as cudaMemGetInfo reports them, the ballast's slack included. */
  public long free() {
    bind();
    long[] f = new long[1];
    long[] t = new long[1];
    int rc = cuMemGetInfo(f, t);
    log.add(DeviceCall.Kind.MEMINFO, "cuMemGetInfo", 0, rc == CUresult.CUDA_SUCCESS ? f[0] : 0, rc == CUresult.CUDA_SUCCESS ? t[0] : 0,
        false, 0, "", rc);
    check(rc, "cuMemGetInfo");
    return f[0];
  }

  /**
   * What cudaMemGetInfo reports as free, less the slack the ballast left at open: the budget's free bytes as the driver
   * sees them, where pool-cached bytes count as used. It equals {@code memory().free()} but for what the driver has
   * taken for itself since open (a kernel's local memory, a stream's resources); PoolSemanticsGpuIT measures the gap,
   * which stays within {@link #FREE_TOLERANCE}.
   */
  public synchronized long driverFree() {
    return free() - slack;
  }

  /** The driver's own cuMemGetInfo, less the ballast's slack: what an {@code if free} step reads on the GPU. */
  @Override
  public long reportedFree() {
    return driverFree();
  }

  @Override
  public long figureTolerance() {
    return FREE_TOLERANCE;
  }

  /** Bytes cudaMemGetInfo reported free beyond the budget once the ballast was in place (0 to 64 MiB). */
  public long slack() {
    return slack;
  }

  /** Makes the shared context current on the calling thread and returns its stream. */
  private CUstream bind() {
    check(cuCtxSetCurrent(ctx), "cuCtxSetCurrent");
    if (pool == null) {
      return null; // while opening, before the pool is set up
    }
    CUstream instead = streamInstead.get();
    return instead != null ? instead : lanes.lane().stream;
  }

  /**
   * cudaMalloc, or cudaMallocAsync on the calling thread's stream, which synchronizes nothing: an event recorded after
   * it lets other streams wait for the allocation on the device.
   */
  @Override
  public DeviceBuffer allocate(String owner, String name, long bytes, boolean async) {
    CUstream s = bind();
    synchronized (this) {
      CUdeviceptr p = new CUdeviceptr();
      int rc = async ? memAllocAsync(p, bytes, s) : memAlloc(p, bytes);
      if (rc == CUresult.CUDA_ERROR_OUT_OF_MEMORY) {
        outOfMemoryErrors++;
        DriverError driver = new DriverError(CUresult.stringFor(rc), rc);
        throw new OutOfDeviceMemoryException(
            owner + " alloc " + name + " " + Sizes.format(bytes) + " (driver: " + driver.name() + ")", bytes,
            capacity - buffers.liveBytes(), snapshot(), driver);
      }
      check(rc, async ? "cuMemAllocAsync" : "cuMemAlloc");
      CUevent ready = null;
      try {
        if (async) {
          ready = event();
          check(cuEventRecord(ready, s), "cuEventRecord");
        }
      } catch (RuntimeException e) {
        if (ready != null) {
          cuEventDestroy(ready);
        }
        if (async) {
          memFreeAsync(p, s);
        } else {
          memFree(p);
        }
        throw e;
      }
      DeviceBuffer b = buffers.add(owner, name, bytes, async, new Block(p, async ? s : null, ready));
      lastBufferId = b.id();
      peakUsed = Math.max(peakUsed, buffers.liveBytes() + cached());
      return b;
    }
  }

  /**
   * Frees on the calling thread's stream, which is {@code thread}'s own (each thread has its stream): cudaFreeAsync,
   * which synchronizes nothing, after the allocation and every kernel that used the buffer on another stream; or
   * cudaFree for a plain buffer.
   */
  @Override
  public void free(DeviceBuffer buffer, String thread) {
    CUstream s = bind();
    synchronized (this) {
      Block b = buffers.remove(buffer);
      basesWritten.keySet().removeIf(k -> k.bufferId() == buffer.id());
      tablesBuilt.keySet().removeIf(k -> k.bufferId() == buffer.id());
      tablesBuilt.values().removeIf(t -> t.bases().bufferId() == buffer.id());
      try {
        if (buffer.async()) {
          b.orderFreeOn(s);
          check(memFreeAsync(b.ptr, s), "cuMemFreeAsync");
          CUevent e = lastFree.get(s);
          if (e == null) {
            e = event();
            lastFree.put(s, e);
          }
          check(cuEventRecord(e, s), "cuEventRecord");
        } else {
          check(memFree(b.ptr), "cuMemFree");
        }
      } finally {
        b.destroyEvents();
      }
    }
  }

  /**
   * cudaMemPoolTrimTo(0), after synchronizing every stream's latest async free: CUDA may keep bytes whose free the host
   * has not seen complete, and a synchronization before a trim releases nothing that the trim would keep.
   */
  @Override
  public synchronized void trim() {
    bind();
    for (CUevent e : lastFree.values()) {
      check(cuEventSynchronize(e), "cuEventSynchronize");
      cuEventDestroy(e);
    }
    lastFree.clear();
    pool.trim();
  }

  /** Synchronizes the calling thread's stream, which is {@code thread}'s own. */
  @Override
  public void synchronizeStream(String thread) {
    check(streamSynchronize(bind()), "cuStreamSynchronize");
  }

  @Override
  public synchronized void poolThreshold(long bytes) {
    bind();
    pool.threshold(bytes);
  }

  /**
   * Enqueues a touch of each used buffer on the calling thread's stream, under the monitor so that no free slips
   * between the check that the buffers are live and the events that order later frees after the touches.
   */
  @Override
  public KernelRun launch(String owner, String name, List<DeviceBuffer> uses, Runnable work) {
    CUstream s = bind();
    LaunchTiming timing = null;
    synchronized (this) {
      List<Allocation> targets = startKernel(owner, name, uses, s);
      try {
        timing = new LaunchTiming(Thread.currentThread().getName(), name, currentAnchor(), mark(s));
        for (Allocation a : targets) {
          Pointer params = Pointer.to(Pointer.to(a.ptr()), Pointer.to(new long[] {a.buffer().bytes()}));
          int rc = cuLaunchKernel(touch, 1, 1, 1, 32, 1, 1, 0, s, params, null);
          log.launch("cuLaunchKernel", "touch", Handles.address(s), rc);
          check(rc, "cuLaunchKernel(touch)");
        }
        targets.forEach(a -> a.block().usedOn(s));
        timing.stopped = mark(s);
      } catch (RuntimeException e) {
        if (timing != null) {
          timing.discard();
        }
        endKernel();
        throw e;
      }
    }
    LaunchTiming timed = timing;
    return new KernelRun() {
      private boolean done;

      @Override
      public String name() {
        return name;
      }

      @Override
      public void await() {
        if (done) {
          return;
        }
        done = true;
        try {
          bind();
          work.run();
          check(streamSynchronize(s), "cuStreamSynchronize");
          timed.record();
        } finally {
          timed.discard();
          endKernel();
        }
      }
    };
  }

  @Override
  public void synchronize() throws InterruptedException {
    synchronized (this) {
      while (runningKernels > 0) {
        wait();
      }
    }
    bind();
    check(ctxSynchronize(), "cuCtxSynchronize");
  }

  @Override
  public boolean trySynchronize() {
    synchronized (this) {
      if (runningKernels > 0) {
        return false;
      }
    }
    bind();
    check(ctxSynchronize(), "cuCtxSynchronize");
    return true;
  }

  @Override
  public synchronized MemoryInfo memory() {
    return snapshot();
  }

  private MemoryInfo snapshot() {
    long cached = cached();
    long live = buffers.liveBytes();
    peakUsed = Math.max(peakUsed, live + cached);
    return new MemoryInfo(capacity, live, Math.min(cached, capacity - live), peakUsed);
  }

  /**
   * Bytes the pool keeps for reuse: reserved minus in use, as the driver reports them. A release (at a synchronization,
   * outside the monitor) changes only the reserved figure, so the two reads see it either before or after.
   */
  private long cached() {
    bind();
    return Math.max(0, pool.reserved() - pool.used());
  }

  @Override
  public synchronized boolean isLive(DeviceBuffer buffer) {
    return buffers.isLive(buffer);
  }

  @Override
  public synchronized List<DeviceBuffer> liveBuffers(String owner) {
    return buffers.buffers(owner);
  }

  @Override
  public String description() {
    return name() + " with a VRAM budget of " + Sizes.format(capacity);
  }

  @Override
  public Device device() {
    return this;
  }

  @Override
  public void reset() {
    for (DeviceBuffer b : liveBuffers(null)) {
      free(b);
    }
    trim();
  }

  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    reset();
    bind();
    for (CUdeviceptr p : ballast) {
      memFree(p);
    }
    ballast.clear();
    for (CUdeviceptr p : arenas) {
      memFree(p);
    }
    if (twiddles != null) {
      memFree(twiddles);
    }
    lanes.close(l -> {
      if (l.staging != null) {
        l.staging.free();
      }
      cuStreamDestroy(l.stream);
    });
    hostCopies.close();
    synchronized (timingEvents) {
      timingEvents.forEach(e -> cuEventDestroy(e));
      timingEvents.clear();
    }
    synchronized (anchors) {
      anchors.forEach(a -> cuEventDestroy(a.event()));
      anchors.clear();
    }
    cuStreamDestroy(anchorStream);
    cuDevicePrimaryCtxRelease(dev);
  }

  // ------------------------------------------------------------------------------------------- copies, NTT, MSM

  /**
   * Validates the buffers a kernel uses, orders work on s after their allocations, and counts the kernel as running
   * (see {@link #synchronize()}).
   */
  private synchronized List<Allocation> startKernel(String owner, String name, List<DeviceBuffer> uses, CUstream s) {
    List<Allocation> targets = new ArrayList<>();
    for (DeviceBuffer b : uses) {
      targets.add(liveAllocation(b, owner + " kernel " + name + " uses", s));
    }
    runningKernels++;
    return targets;
  }

  /** Records that work just enqueued on s used these buffers, those still live (for frees on other streams). */
  private synchronized void usedOn(List<Allocation> targets, CUstream s) {
    for (Allocation a : targets) {
      if (buffers.isLive(a.buffer())) {
        a.block().usedOn(s);
      }
    }
  }

  private synchronized void endKernel() {
    runningKernels--;
    notifyAll();
  }

  /** A live buffer for use on stream s, which from now on starts after the buffer's allocation. */
  private synchronized Allocation liveAllocation(DeviceBuffer b, String what, CUstream s) {
    Block block = buffers.require(b, what);
    block.orderUseOn(s);
    return new Allocation(b, block);
  }

  private static void requireFits(DeviceBuffer b, long byteAt, long bytes, String what) {
    if (byteAt < 0 || bytes < 0 || byteAt + bytes > b.bytes()) {
      throw new IllegalArgumentException(what + " needs bytes " + byteAt + " to " + (byteAt + bytes) + " of buffer "
          + b.name() + ", which has " + b.bytes());
    }
  }

  /** The calling thread's pinned host buffers (see {@link Staging}), so its copies run on its own stream. */
  private Staging staging() {
    Lane l = lanes.lane();
    if (l.staging == null) {
      l.staging = Staging.allocate(hostCopies, log);
    }
    return l.staging;
  }

  /** Copies src[from, from + count) to dst through the thread's pinned buffers, on its stream. */
  void upload(CUdeviceptr dst, long[] src, int from, int count) {
    CUstream s = bind();
    staging().upload(dst, count, (into, at, n) -> into.put(src, from + (int) at, n), s);
  }

  /** Copies count longs from src into dst[0, count), through the thread's pinned buffers, on its stream. */
  void download(long[] dst, CUdeviceptr src, int count) {
    CUstream s = bind();
    staging().download(dst, src, count, s);
  }

  @Override
  public void writeScalars(DeviceBuffer dst, int at, long[] src) {
    Allocation a = liveAllocation(dst, "write to", bind());
    requireFits(dst, at * SCALAR_BYTES, (long) src.length / Fr.LIMBS * SCALAR_BYTES, "writing " + src.length / Fr.LIMBS + " scalars");
    upload(a.ptr().withByteOffset(at * SCALAR_BYTES), src, 0, src.length);
  }

  @Override
  public long[] readScalars(DeviceBuffer src, int at, int count) {
    Allocation a = liveAllocation(src, "read from", bind());
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
    CUstream s = bind();
    Allocation a = liveAllocation(dst, "write to", s);
    long bytes = (long) count * group.affineBytes();
    requireFits(dst, at, bytes, "writing " + count + " " + group + " bases");
    staging().upload(a.ptr().withByteOffset(at), bytes / Long.BYTES, fill, s);
    synchronized (this) {
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
    CUstream s = bind();
    List<Allocation> a = startKernel(owner, name, uses, s);
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
      started = mark(s);
      enqueue.run();
      usedOn(used, s);
      return new StreamRun(name, s, started, atEnd, release);
    } catch (RuntimeException e) {
      if (started != null) {
        giveBack(started);
      }
      try {
        release.run();
      } finally {
        endKernel();
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
    synchronized (this) {
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
    synchronized (this) {
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
    CUstream s = bind();
    List<Allocation> a = startKernel(owner, name, table == null ? List.of(bases, scalars) : List.of(bases, scalars, table), s);
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
      endKernel();
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
    CUstream s = bind();
    List<Allocation> a = startKernel(owner, "msm_table", List.of(bases, table), s);
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
    synchronized (this) {
      tablesBuilt.put(new BasesAt(table.id(), tableAt), new TableOf(new BasesAt(bases.id(), basesAt), plan));
    }
    return run;
  }

  @Override
  public G1FixedBase fixedBase() {
    return this::fixedBaseMul;
  }

  /** A new event without timing, for ordering only. */
  private static CUevent event() {
    CUevent e = new CUevent();
    check(cuEventCreate(e, CUevent_flags.CU_EVENT_DISABLE_TIMING), "cuEventCreate");
    return e;
  }

  /** A timing event, from the pool or new, recorded on s now. */
  private CUevent mark(CUstream s) {
    CUevent e;
    synchronized (timingEvents) {
      e = timingEvents.poll();
    }
    if (e == null) {
      e = new CUevent();
      check(cuEventCreate(e, 0), "cuEventCreate");
    }
    try {
      check(cuEventRecord(e, s), "cuEventRecord");
    } catch (RuntimeException x) {
      giveBack(e);
      throw x;
    }
    return e;
  }

  /** Hands a timing event back to the pool (recording it again later is allowed even while it is pending). */
  private void giveBack(CUevent e) {
    synchronized (timingEvents) {
      timingEvents.push(e);
    }
  }

  /**
   * A new clock anchor: an event recorded on the device's own idle stream and synchronized, its host time the middle
   * of the host's times before the record and after the synchronization; the best of three tries (the narrowest).
   */
  private ClockAnchor newAnchor() {
    ClockAnchor best = null;
    for (int i = 0; i < 3; i++) {
      CUevent e = new CUevent();
      check(cuEventCreate(e, 0), "cuEventCreate");
      long before = System.nanoTime();
      check(cuEventRecord(e, anchorStream), "cuEventRecord");
      check(cuEventSynchronize(e), "cuEventSynchronize");
      long after = System.nanoTime();
      ClockAnchor a = new ClockAnchor(e, before + (after - before) / 2, (after - before + 1) / 2);
      if (best == null || a.errorNanos() < best.errorNanos()) {
        if (best != null) {
          cuEventDestroy(best.event());
        }
        best = a;
      } else {
        cuEventDestroy(e);
      }
    }
    synchronized (anchors) {
      anchors.add(best);
    }
    return best;
  }

  /** The anchor for a launch now: the current one, or a new one once it is {@link #ANCHOR_NANOS} old. */
  private ClockAnchor currentAnchor() {
    ClockAnchor a = anchor;
    if (System.nanoTime() - a.hostNanos() <= ANCHOR_NANOS) {
      return a;
    }
    synchronized (anchors) {
      if (anchor == a) {
        anchor = newAnchor();
      }
      return anchor;
    }
  }

  /**
   * The device's times of the launch sequences awaited so far (NTT, quotient and MSM sequences, and the touch kernels
   * of {@link #launch}), on the host clock: each launch's events are measured (cuEventElapsedTime) from a clock anchor
   * made at open and again every {@link #ANCHOR_NANOS}. Kept up to {@link #MAX_TIMINGS}.
   */
  @Override
  public List<KernelTiming> kernelTimings() {
    synchronized (timings) {
      return List.copyOf(timings);
    }
  }

  /** The error bound of the current clock anchor's host time, in nanoseconds (tests allow for it). */
  long clockAnchorError() {
    return anchor.errorNanos();
  }

  /**
   * A launch sequence's two timing events on the stream of thread {@code stream}, with the anchor current at its
   * launch; {@link #record} reads them once the stream is synchronized, {@link #discard} hands them back.
   */
  private final class LaunchTiming {
    final String stream;
    final String name;
    final ClockAnchor anchor;
    final CUevent started;
    CUevent stopped;
    private boolean discarded;

    LaunchTiming(String stream, String name, ClockAnchor anchor, CUevent started) {
      this.stream = stream;
      this.name = name;
      this.anchor = anchor;
      this.started = started;
    }

    /** Keeps the timing (both events complete: the stream was synchronized); returns the device nanoseconds. */
    long record() {
      float[] ms = new float[1];
      check(cuEventElapsedTime(ms, anchor.event(), started), "cuEventElapsedTime");
      long start = anchor.hostNanos() + Math.round(ms[0] * 1e6);
      check(cuEventElapsedTime(ms, started, stopped), "cuEventElapsedTime");
      long nanos = Math.max(0, Math.round(ms[0] * 1e6));
      synchronized (timings) {
        if (timings.size() < MAX_TIMINGS) {
          timings.add(new KernelTiming(stream, name, start, start + nanos));
        }
      }
      return nanos;
    }

    /** Hands the events back to the pool, once. */
    void discard() {
      if (discarded) {
        return;
      }
      discarded = true;
      giveBack(started);
      if (stopped != null) {
        giveBack(stopped);
      }
    }
  }

  /**
   * Device time of the NTT and MSM kernels so far (device events around each launch sequence, summed over all
   * streams, so kernels of two workers running at once count twice): with a run's wall time, how busy the GPU was.
   */
  @Override
  public OptionalDouble kernelSeconds() {
    return OptionalDouble.of(kernelNanos.sum() / 1e9);
  }

  private synchronized CUdeviceptr takeArena() {
    CUdeviceptr a = freeArenas.poll();
    if (a == null) {
      throw new IllegalStateException("all " + arenas.size() + " MSM arenas are in use: open the device with more ("
          + scratch + ")");
    }
    return a;
  }

  private synchronized void releaseArena(CUdeviceptr a) {
    freeArenas.push(a);
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
        this.timing = new LaunchTiming(Thread.currentThread().getName(), name, currentAnchor(), started);
        timing.stopped = mark(s); // if this fails, enqueued() hands started back
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
        bind();
        check(streamSynchronize(s), "cuStreamSynchronize(" + name + ")");
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
          endKernel();
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
    CUstream s = bind();
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
      allocated.forEach(p -> memFree(p));
    }
    return out;
  }

  /** cuMemAlloc of bytes, remembered in {@code allocated} for the caller to free. */
  private CUdeviceptr temporary(List<CUdeviceptr> allocated, long bytes) {
    CUdeviceptr p = new CUdeviceptr();
    check(memAlloc(p, bytes), "cuMemAlloc");
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

  /** The threads that fill and empty the pinned staging halves. */
  HostCopies hostCopies() {
    return hostCopies;
  }

  CUstream stream() {
    return bind();
  }

  /** A new non-blocking stream on the shared context, for tests that want a second stream on one thread. */
  CUstream newStream() {
    bind();
    CUstream s = new CUstream();
    check(cuStreamCreate(s, CUstream_flags.CU_STREAM_NON_BLOCKING), "cuStreamCreate");
    return s;
  }

  /** Runs {@code work} with s as the calling thread's stream, then gives the thread its own stream back. */
  <T> T onStream(CUstream s, Supplier<T> work) {
    CUstream before = streamInstead.get();
    streamInstead.set(s);
    try {
      return work.get();
    } finally {
      if (before == null) {
        streamInstead.remove();
      } else {
        streamInstead.set(before);
      }
    }
  }

  /** Bytes the pool holds from the device (live async plus cached), as the driver reports them. */
  synchronized long poolReserved() {
    bind();
    return pool.reserved();
  }

  /** The pool's release threshold as the driver reports it ({@code Long.MAX_VALUE}: max). */
  synchronized long poolThreshold() {
    bind();
    return pool.threshold();
  }

  /** The pool itself, for tests that call it without the device's own discipline. */
  CuPool pool() {
    bind();
    return pool;
  }

  /** The id of the last buffer allocated (0: none yet), so that a test can number buffers from a reset on. */
  synchronized long lastBufferId() {
    return lastBufferId;
  }

  /** True: every out-of-memory is the driver's, and carries its CUDA_ERROR_OUT_OF_MEMORY. */
  @Override
  public boolean reportsDriverErrors() {
    return true;
  }

  /** How many allocations the driver refused with CUDA_ERROR_OUT_OF_MEMORY since open. */
  synchronized long outOfMemoryErrors() {
    return outOfMemoryErrors;
  }

  CUdeviceptr twiddles() {
    return twiddles;
  }

  String scratchDescription() {
    return scratch.toString();
  }

  /** One MSM arena for benchmarks that drive the kernels directly (the caller must not run two at once). */
  synchronized CUdeviceptr arena() {
    if (arenas.isEmpty()) {
      throw new IllegalStateException("no MSM arena: " + scratch);
    }
    return arenas.get(0);
  }

  /** The MSM of the first n bases written at byte 0 of {@code bases} with the first n scalars of {@code scalars}. */
  G1 msmOf(DeviceBuffer bases, DeviceBuffer scalars, int n) {
    synchronized (this) {
      basesWritten.put(new BasesAt(bases.id(), 0), new Written(MsmGroup.G1, n));
    }
    return msm("bench", bases, 0, scalars, 0).result();
  }

  /** As {@link #msmOf(DeviceBuffer, DeviceBuffer, int)}, with the table {@link #msmTableOf} built for those n bases. */
  G1 msmOf(DeviceBuffer bases, DeviceBuffer scalars, int n, DeviceBuffer table) {
    synchronized (this) {
      basesWritten.put(new BasesAt(bases.id(), 0), new Written(MsmGroup.G1, n));
    }
    return msm("bench", bases, 0, scalars, 0, table).result();
  }

  /** The G2 MSM of the first n G2 bases written at byte 0 of {@code bases} with the first n scalars of {@code scalars}. */
  G2 g2MsmOf(DeviceBuffer bases, DeviceBuffer scalars, int n) {
    synchronized (this) {
      basesWritten.put(new BasesAt(bases.id(), 0), new Written(MsmGroup.G2, n));
    }
    return g2Msm("bench", bases, 0, scalars, 0).result();
  }

  /** Builds the MSM table of the first n bases written at byte 0 of {@code bases}, and waits for it. */
  void msmTableOf(DeviceBuffer bases, int n, DeviceBuffer table, int copies) {
    synchronized (this) {
      basesWritten.put(new BasesAt(bases.id(), 0), new Written(MsmGroup.G1, n));
    }
    msmTable("bench", bases, 0, table, copies).await();
  }

  synchronized CUdeviceptr pointer(DeviceBuffer b) {
    return liveAllocation(b, "address of", bind()).ptr();
  }

  static void check(int rc, String call) {
    if (rc != CUresult.CUDA_SUCCESS) {
      throw new CudaException(call, rc);
    }
  }
}
