package dev.interlock.impl.device;

import dev.interlock.impl.api.Device;
import dev.interlock.impl.api.DeviceBuffer;
import dev.interlock.impl.api.DeviceCall;
import dev.interlock.impl.api.KernelRun;
import dev.interlock.impl.api.MemoryInfo;
import dev.interlock.model.design.Sizes;
import dev.interlock.model.state.DeviceMemory;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A device simulated in memory: one heap of a configured capacity and one memory pool, whose bytes move exactly as
 * the model's {@link DeviceMemory} says (it is asked, never re-implemented here); kernels run their work on the
 * launching thread when it waits for them (launch returns at once, as an asynchronous CUDA launch does).
 *
 * <p>All accounting happens under the device's monitor, so each call sees and leaves a consistent state, as the
 * driver's calls do. Kernel work runs in {@link KernelRun#await()}, outside the monitor; the kernel counts as running
 * from launch until that returns, which is what {@link #synchronize()} waits for.
 *
 * <p>Its {@link #deviceCalls()} are the driver calls a CUDA device doing the same would make, as CudaDevice makes
 * them: a cuMemAlloc or cuMemAllocAsync per allocation (pointers made up, never reused), a free per free, a
 * cuLaunchKernel of {@code touch} per buffer a kernel uses, a cuStreamSynchronize at a kernel's end, and so on; no
 * ballast, which only a real device needs. None when it is made not to log them.
 */
public final class SimulatedDevice implements Device {
  private final BufferTable<Long> buffers = new BufferTable<>();
  /** Each thread's stream, by thread name: its index in the model's per-stream cache. */
  private final Map<String, Integer> streams = new HashMap<>();
  private final DeviceCallLog calls;
  /** Where the next made-up device pointer is. */
  private long nextPtr = 0x7f0000000000L;
  private DeviceMemory memory;
  private long peakUsed;
  private int runningKernels;

  public SimulatedDevice(long capacity) {
    this(capacity, true);
  }

  /** A device of {@code capacity} bytes that logs its {@link #deviceCalls()} only when {@code logCalls}. */
  public SimulatedDevice(long capacity, boolean logCalls) {
    this.calls = new DeviceCallLog(logCalls ? DeviceCallLog.MAX_CALLS : 0);
    if (capacity < 1) {
      throw new IllegalArgumentException("capacity must be positive, got " + capacity);
    }
    this.memory = DeviceMemory.empty(capacity, 0);
  }

  /** The stream index of thread {@code thread}, made on first use. */
  private int stream(String thread) {
    Integer s = streams.get(thread);
    if (s == null) {
      s = streams.size();
      streams.put(thread, s);
      memory = memory.withStreams(s + 1);
    }
    return s;
  }

  @Override
  public synchronized DeviceBuffer allocate(String owner, String name, long bytes, boolean async) {
    if (bytes < 1) {
      throw new IllegalArgumentException("allocation of " + name + " needs a positive size, got " + bytes);
    }
    int stream = stream(owner);
    Optional<DeviceMemory> next = memory.alloc(bytes, async, stream);
    if (next.isEmpty()) {
      calls.alloc(async ? "cuMemAllocAsync" : "cuMemAlloc", 0, bytes, async, async ? stream + 1 : 0, DeviceCall.OUT_OF_MEMORY);
      long free = memory.vram() - memory.live();
      moveTo(memory.afterFailedAlloc(bytes, async, stream));
      throw new OutOfDeviceMemoryException(owner + " alloc " + name + " " + Sizes.format(bytes), bytes, free, snapshot());
    }
    moveTo(next.get());
    DeviceBuffer b = buffers.add(owner, name, bytes, async, nextPtr);
    calls.alloc(async ? "cuMemAllocAsync" : "cuMemAlloc", nextPtr, bytes, async, async ? stream + 1 : 0, 0);
    nextPtr += (bytes + 0xfffff) & ~0xfffffL;
    return b;
  }

  @Override
  public synchronized void free(DeviceBuffer buffer, String thread) {
    long ptr = buffers.remove(buffer);
    int stream = stream(thread); // first: a thread's first use adds its stream to memory
    moveTo(memory.free(buffer.bytes(), buffer.async(), stream));
    calls.free(buffer.async() ? "cuMemFreeAsync" : "cuMemFree", ptr, buffer.async(), buffer.async() ? stream + 1 : 0, 0);
  }

  @Override
  public synchronized void synchronizeStream(String thread) {
    int stream = stream(thread); // first: a thread's first use adds its stream to memory
    moveTo(memory.synchronizeStream(stream));
    calls.plain(DeviceCall.Kind.SYNC_STREAM, "cuStreamSynchronize", stream + 1, 0);
  }

  @Override
  public synchronized void poolThreshold(long bytes) {
    moveTo(memory.withThreshold(bytes));
    calls.add(DeviceCall.Kind.POOL_THRESHOLD, "cuMemPoolSetAttribute", 0, bytes, 0, false, 0, "", 0);
  }

  @Override
  public synchronized void trim() {
    moveTo(memory.trim());
    calls.add(DeviceCall.Kind.TRIM, "cuMemPoolTrimTo", 0, 0, 0, false, 0, "", 0);
  }

  private void moveTo(DeviceMemory next) {
    memory = next;
    peakUsed = Math.max(peakUsed, next.used());
  }

  @Override
  public KernelRun launch(String owner, String name, List<DeviceBuffer> uses, Runnable work) {
    synchronized (this) {
      for (DeviceBuffer b : uses) {
        buffers.require(b, owner + " kernel " + name + " uses");
      }
      long stream = stream(owner) + 1;
      for (int i = 0; i < uses.size(); i++) {
        calls.launch("cuLaunchKernel", "touch", stream, 0);
      }
      runningKernels++;
    }
    return new KernelRun() {
      private boolean done;

      @Override
      public String name() {
        return name;
      }

      /** Runs the work, as a stream would between launch and synchronization, then completes the kernel. */
      @Override
      public void await() {
        if (done) {
          return;
        }
        done = true;
        try {
          work.run();
        } finally {
          complete(owner);
        }
      }
    };
  }

  /** The kernel has ended and its launching thread learned it: a synchronization of that thread's stream. */
  private synchronized void complete(String owner) {
    int stream = stream(owner); // first: a thread's first use adds its stream to memory
    moveTo(memory.synchronizeStream(stream));
    calls.plain(DeviceCall.Kind.SYNC_STREAM, "cuStreamSynchronize", stream + 1, 0);
    runningKernels--;
    if (runningKernels == 0) {
      notifyAll();
    }
  }

  @Override
  public synchronized void synchronize() throws InterruptedException {
    while (runningKernels > 0) {
      wait();
    }
    moveTo(memory.synchronizeDevice());
    calls.plain(DeviceCall.Kind.SYNC, "cuCtxSynchronize", 0, 0);
  }

  @Override
  public synchronized boolean trySynchronize() {
    if (runningKernels > 0) {
      return false;
    }
    moveTo(memory.synchronizeDevice());
    calls.plain(DeviceCall.Kind.SYNC, "cuCtxSynchronize", 0, 0);
    return true;
  }

  /** The figures' free bytes, as a cuMemGetInfo of a device of this capacity would report them. */
  @Override
  public synchronized long reportedFree() {
    long free = memory.vram() - memory.live() - memory.cachedTotal();
    calls.add(DeviceCall.Kind.MEMINFO, "cuMemGetInfo", 0, free, memory.vram(), false, 0, "", 0);
    return free;
  }

  @Override
  public List<DeviceCall> deviceCalls() {
    return calls.calls();
  }

  @Override
  public synchronized MemoryInfo memory() {
    return snapshot();
  }

  private MemoryInfo snapshot() {
    return new MemoryInfo(memory.vram(), memory.live(), memory.cachedTotal(), peakUsed);
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
    return "simulated device";
  }

  @Override
  public synchronized void reset() {
    buffers.clear();
    streams.clear();
    memory = DeviceMemory.empty(memory.vram(), 0).withThreshold(memory.threshold());
  }

  @Override
  public void close() {
    reset();
  }
}
