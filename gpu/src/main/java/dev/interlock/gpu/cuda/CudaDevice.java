package dev.interlock.gpu.cuda;

import static jcuda.driver.JCudaDriver.cuCtxSetCurrent;
import static jcuda.driver.JCudaDriver.cuCtxSynchronize;
import static jcuda.driver.JCudaDriver.cuDeviceGet;
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
import static jcuda.driver.JCudaDriver.cuStreamSynchronize;

import dev.interlock.impl.device.BufferNotLiveException;
import dev.interlock.impl.device.Device;
import dev.interlock.impl.device.DeviceBuffer;
import dev.interlock.impl.device.KernelRun;
import dev.interlock.impl.device.MemoryInfo;
import dev.interlock.impl.device.MsmRun;
import dev.interlock.impl.device.NttKind;
import dev.interlock.impl.device.OutOfDeviceMemoryException;
import dev.interlock.impl.groth16.curve.G1Bases;
import dev.interlock.model.design.Sizes;
import dev.interlock.model.state.ViolationKind;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import jcuda.Pointer;
import jcuda.driver.CUcontext;
import jcuda.driver.CUdevice;
import jcuda.driver.CUdeviceptr;
import jcuda.driver.CUfunction;
import jcuda.driver.CUmodule;
import jcuda.driver.CUresult;
import jcuda.driver.CUstream;

/**
 * A {@link Device} on a real CUDA GPU: every allocation is the driver's, so an out-of-memory is the
 * driver's CUDA_ERROR_OUT_OF_MEMORY, device-global as it is for the prover.
 *
 * <p>A budget (e.g. 16 GiB on a 141 GiB H200) is made real by allocating a ballast of 1 GiB blocks
 * (and one smaller block) at start until the free memory is the budget plus less than 64 MiB of
 * slack; sizes in designs are whole GiB, so the slack never changes whether a request fits. Each
 * thread uses its own stream on the one shared (primary) context. Live bytes are counted from our
 * buffers; pool-cached bytes are read from the driver (reserved minus used).
 */
public final class CudaDevice implements Device {
  private static final long SLACK = 64L << 20;

  private final CUcontext ctx = new CUcontext();
  private final CUdevice dev = new CUdevice();
  private final CuPool pool;
  private final long capacity;
  private final List<CUdeviceptr> ballast = new ArrayList<>();
  private final CUfunction touch = new CUfunction();
  private final ThreadLocal<CUstream> stream = new ThreadLocal<>();
  private final Map<Long, Allocation> live = new LinkedHashMap<>();
  private long liveBytes;
  private long peakUsed;
  private long nextId = 1;
  private int runningKernels;
  private boolean closed;

  private record Allocation(DeviceBuffer buffer, CUdeviceptr ptr) {}

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

  /** Opens device 0 with {@code budget} bytes of VRAM left free for this device's allocations. */
  public static CudaDevice open(long budget) {
    return new CudaDevice(budget);
  }

  private CudaDevice(long budget) {
    if (budget < 1) {
      throw new IllegalArgumentException("budget must be positive, got " + budget);
    }
    check(cuInit(0), "cuInit");
    check(cuDeviceGet(dev, 0), "cuDeviceGet");
    check(cuDevicePrimaryCtxRetain(ctx, dev), "cuDevicePrimaryCtxRetain");
    bind();
    pool = CuPool.defaultPool(0);
    loadKernels();
    long free = free();
    if (free < budget) {
      throw new IllegalStateException("device has " + Sizes.format(free) + " free, less than the budget " + Sizes.format(budget));
    }
    while (free() - budget >= Sizes.GIB) {
      ballast.add(alloc(Sizes.GIB));
    }
    long rest = free() - budget;
    if (rest > SLACK) {
      ballast.add(alloc(rest - SLACK / 2));
    }
    this.capacity = budget;
  }

  private CUdeviceptr alloc(long bytes) {
    CUdeviceptr p = new CUdeviceptr();
    check(cuMemAlloc(p, bytes), "cuMemAlloc (ballast)");
    return p;
  }

  private void loadKernels() {
    byte[] ptx = ptxBytes();
    CUmodule module = new CUmodule();
    check(cuModuleLoadData(module, Arrays.copyOf(ptx, ptx.length + 1)), "cuModuleLoadData(touch.ptx)");
    check(cuModuleGetFunction(touch, module, "touch"), "cuModuleGetFunction(touch)");
  }

  /** The committed PTX of the kernels (gpu/src/main/cuda compiled with nvcc -arch=sm_90 -ptx). */
  static byte[] ptxBytes() {
    try (InputStream in = CudaDevice.class.getResourceAsStream("touch.ptx")) {
      if (in == null) {
        throw new IllegalStateException("touch.ptx is missing from the classpath");
      }
      return in.readAllBytes();
    } catch (IOException e) {
      throw new IllegalStateException("cannot read touch.ptx", e);
    }
  }

  /** The device's name, e.g. "NVIDIA H200". */
  public String name() {
    byte[] b = new byte[256];
    cuDeviceGetName(b, b.length, dev);
    return new String(b).trim();
  }

  /** Free bytes as cudaMemGetInfo reports them. */
  public long free() {
    bind();
    long[] f = new long[1];
    long[] t = new long[1];
    check(cuMemGetInfo(f, t), "cuMemGetInfo");
    return f[0];
  }

  /** Makes the shared context current on the calling thread and returns its stream. */
  private CUstream bind() {
    check(cuCtxSetCurrent(ctx), "cuCtxSetCurrent");
    CUstream s = stream.get();
    if (s == null && pool != null) {
      s = new CUstream();
      check(cuStreamCreate(s, 0), "cuStreamCreate");
      stream.set(s);
    }
    return s;
  }

  @Override
  public DeviceBuffer allocate(String owner, String name, long bytes, boolean async) {
    CUstream s = bind();
    CUdeviceptr p = new CUdeviceptr();
    int rc = async ? cuMemAllocAsync(p, bytes, s) : cuMemAlloc(p, bytes);
    if (rc == CUresult.CUDA_SUCCESS && async) {
      rc = cuStreamSynchronize(s);
    }
    synchronized (this) {
      if (rc == CUresult.CUDA_ERROR_OUT_OF_MEMORY) {
        throw new OutOfDeviceMemoryException(owner + " alloc " + name + " " + Sizes.format(bytes) + " (driver: CUDA_ERROR_OUT_OF_MEMORY)",
            bytes, capacity - liveBytes, snapshot());
      }
      check(rc, async ? "cuMemAllocAsync" : "cuMemAlloc");
      DeviceBuffer b = new DeviceBuffer(nextId++, owner, name, bytes, async);
      live.put(b.id(), new Allocation(b, p));
      liveBytes += bytes;
      peakUsed = Math.max(peakUsed, liveBytes + cached());
      return b;
    }
  }

  @Override
  public void free(DeviceBuffer buffer) {
    CUstream s = bind();
    Allocation a;
    synchronized (this) {
      a = buffer == null ? null : live.remove(buffer.id());
      if (a == null) {
        throw new BufferNotLiveException(ViolationKind.BAD_FREE, "free of a buffer that is not live: " + buffer);
      }
      liveBytes -= buffer.bytes();
    }
    if (buffer.async()) {
      check(cuMemFreeAsync(a.ptr(), s), "cuMemFreeAsync");
      check(cuStreamSynchronize(s), "cuStreamSynchronize");
    } else {
      check(cuMemFree(a.ptr()), "cuMemFree");
    }
  }

  @Override
  public void trim() {
    bind();
    pool.trim();
  }

  @Override
  public KernelRun launch(String owner, String name, List<DeviceBuffer> uses, Runnable work) {
    CUstream s = bind();
    List<Allocation> targets = new ArrayList<>();
    synchronized (this) {
      for (DeviceBuffer b : uses) {
        Allocation a = b == null ? null : live.get(b.id());
        if (a == null) {
          throw new BufferNotLiveException(ViolationKind.USE_AFTER_FREE, owner + " kernel " + name + " uses a buffer that is not live: " + b);
        }
        targets.add(a);
      }
      runningKernels++;
    }
    for (Allocation a : targets) {
      Pointer params = Pointer.to(Pointer.to(a.ptr()), Pointer.to(new long[] {a.buffer().bytes()}));
      check(cuLaunchKernel(touch, 1, 1, 1, 32, 1, 1, 0, s, params, null), "cuLaunchKernel(touch)");
    }
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
          check(cuStreamSynchronize(s), "cuStreamSynchronize");
        } finally {
          synchronized (CudaDevice.this) {
            runningKernels--;
            CudaDevice.this.notifyAll();
          }
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
    check(cuCtxSynchronize(), "cuCtxSynchronize");
  }

  @Override
  public boolean trySynchronize() {
    synchronized (this) {
      if (runningKernels > 0) {
        return false;
      }
    }
    bind();
    check(cuCtxSynchronize(), "cuCtxSynchronize");
    return true;
  }

  @Override
  public synchronized MemoryInfo memory() {
    return snapshot();
  }

  private MemoryInfo snapshot() {
    long cached = cached();
    peakUsed = Math.max(peakUsed, liveBytes + cached);
    return new MemoryInfo(capacity, liveBytes, Math.min(cached, capacity - liveBytes), peakUsed);
  }

  /** Bytes the pool keeps for reuse: reserved minus in use, as the driver reports them. */
  private long cached() {
    bind();
    return Math.max(0, pool.reserved() - pool.used());
  }

  @Override
  public synchronized List<DeviceBuffer> liveBuffers(String owner) {
    List<DeviceBuffer> out = new ArrayList<>();
    for (Allocation a : live.values()) {
      if (owner == null || a.buffer().owner().equals(owner)) {
        out.add(a.buffer());
      }
    }
    return out;
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
      cuMemFree(p);
    }
    ballast.clear();
    cuDevicePrimaryCtxRelease(dev);
  }

  private static final String NOT_YET = "not on the GPU yet: the CUDA NTT and MSM kernels are open work (issue 5); use SimulatedDevice";

  @Override
  public void writeScalars(DeviceBuffer dst, int at, long[] src) {
    throw new UnsupportedOperationException(NOT_YET);
  }

  @Override
  public long[] readScalars(DeviceBuffer src, int at, int count) {
    throw new UnsupportedOperationException(NOT_YET);
  }

  @Override
  public void writeBases(DeviceBuffer dst, long at, G1Bases bases) {
    throw new UnsupportedOperationException(NOT_YET);
  }

  @Override
  public KernelRun ntt(String owner, DeviceBuffer data, int at, int logN, NttKind kind) {
    throw new UnsupportedOperationException(NOT_YET);
  }

  @Override
  public MsmRun msm(String owner, DeviceBuffer bases, long basesAt, DeviceBuffer scalars, int scalarsAt) {
    throw new UnsupportedOperationException(NOT_YET);
  }

  private static void check(int rc, String call) {
    if (rc != CUresult.CUDA_SUCCESS) {
      throw new CudaException(call, rc);
    }
  }
}
