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
import dev.interlock.workload.ProvingKernels;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
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
 * A {@link Device} on a real CUDA GPU: every allocation is the driver's, so an out-of-memory is the
 * driver's CUDA_ERROR_OUT_OF_MEMORY, device-global as it is for the prover. Its {@link ProvingKernels}, the CUDA
 * kernels on its buffers, are {@link #provingKernels()} ({@link CudaProvingKernels}), opened with it.
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
public final class CudaDevice implements Device {
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
  /** The proving kernels on this device, with the scratch they reserved at open. */
  private final CudaProvingKernels provingKernels;
  private final ThreadLanes<Lane> lanes = new ThreadLanes<>(Lane::create);
  /** A stream a test put in place of the calling thread's own ({@link #onStream}). */
  private final ThreadLocal<CUstream> streamInstead = new ThreadLocal<>();
  private final HostCopies hostCopies = new HostCopies();
  private final BufferTable<Block> buffers = new BufferTable<>();
  /** Per stream, an event recorded after its latest async free: what {@link #trim()} waits for. */
  private final Map<CUstream, CUevent> lastFree = new HashMap<>();
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
  record Allocation(DeviceBuffer buffer, Block block) {
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
      this.provingKernels = new CudaProvingKernels(this, dev, log, scratch, bytes -> alloc(made, bytes));
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
  int memAlloc(CUdeviceptr p, long bytes) {
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
  int memFree(CUdeviceptr p) {
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
  int streamSynchronize(CUstream s) {
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

  /**
   * The proving kernels on this device's buffers, opened with it: their scratch is the one
   * {@link #open(long, KernelScratch)} was given.
   */
  public CudaProvingKernels provingKernels() {
    return provingKernels;
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
      provingKernels.forget(buffer.id());
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
    provingKernels.freeScratch();
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

  // ---------------------------------------------------------- what the proving kernels reach (CudaProvingKernels)

  /**
   * Validates the buffers a kernel uses, orders work on s after their allocations, and counts the kernel as running
   * (see {@link #synchronize()}).
   */
  synchronized List<Allocation> startKernel(String owner, String name, List<DeviceBuffer> uses, CUstream s) {
    List<Allocation> targets = new ArrayList<>();
    for (DeviceBuffer b : uses) {
      targets.add(liveAllocation(b, owner + " kernel " + name + " uses", s));
    }
    runningKernels++;
    return targets;
  }

  /** Records that work just enqueued on s used these buffers, those still live (for frees on other streams). */
  synchronized void usedOn(List<Allocation> targets, CUstream s) {
    for (Allocation a : targets) {
      if (buffers.isLive(a.buffer())) {
        a.block().usedOn(s);
      }
    }
  }

  synchronized void endKernel() {
    runningKernels--;
    notifyAll();
  }

  /** A live buffer for use on stream s, which from now on starts after the buffer's allocation. */
  synchronized Allocation liveAllocation(DeviceBuffer b, String what, CUstream s) {
    Block block = buffers.require(b, what);
    block.orderUseOn(s);
    return new Allocation(b, block);
  }

  /** The calling thread's pinned host buffers (see {@link Staging}), so its copies run on its own stream. */
  Staging staging() {
    Lane l = lanes.lane();
    if (l.staging == null) {
      l.staging = Staging.allocate(hostCopies, log);
    }
    return l.staging;
  }

  /** A new event without timing, for ordering only. */
  private static CUevent event() {
    CUevent e = new CUevent();
    check(cuEventCreate(e, CUevent_flags.CU_EVENT_DISABLE_TIMING), "cuEventCreate");
    return e;
  }

  /** A timing event, from the pool or new, recorded on s now. */
  CUevent mark(CUstream s) {
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
  void giveBack(CUevent e) {
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
   * The timing of a launch sequence {@code name} of the calling thread that starts at the event {@code started}, read
   * against the clock anchor current now; its caller records its {@code stopped} event ({@link #mark}).
   */
  LaunchTiming launchTiming(String name, CUevent started) {
    return new LaunchTiming(Thread.currentThread().getName(), name, currentAnchor(), started);
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
  final class LaunchTiming {
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

  // ------------------------------------------------------------------- package access for kernel tests and benchmarks

  /** The threads that fill and empty the pinned staging halves. */
  HostCopies hostCopies() {
    return hostCopies;
  }

  /**
   * Makes the shared context current on the calling thread and returns its stream (or the one {@link #onStream} put in
   * its place).
   */
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

  synchronized CUdeviceptr pointer(DeviceBuffer b) {
    return liveAllocation(b, "address of", bind()).ptr();
  }

  static void check(int rc, String call) {
    if (rc != CUresult.CUDA_SUCCESS) {
      throw new CudaException(call, rc);
    }
  }
}
