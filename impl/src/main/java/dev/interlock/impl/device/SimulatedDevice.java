package dev.interlock.impl.device;

import dev.interlock.model.design.Sizes;
import dev.interlock.model.state.ViolationKind;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A device simulated in memory: one heap of a configured capacity, one memory pool, kernels that
 * run their work on the launching thread.
 *
 * <p>All accounting happens under the device's monitor, so each call sees and leaves a consistent
 * state, as the driver's calls do. Kernel work runs at launch, outside the monitor; the launching
 * thread counts as inside the kernel until it awaits the run, which is what {@link #synchronize()}
 * waits for.
 */
public final class SimulatedDevice implements Device {
  private final long capacity;
  private final Map<Long, DeviceBuffer> live = new LinkedHashMap<>();
  private long liveBytes;
  private long cachedBytes;
  private long peakUsed;
  private long nextId = 1;
  private int runningKernels;

  public SimulatedDevice(long capacity) {
    if (capacity < 1) {
      throw new IllegalArgumentException("capacity must be positive, got " + capacity);
    }
    this.capacity = capacity;
  }

  @Override
  public synchronized DeviceBuffer allocate(String owner, String name, long bytes, boolean async) {
    if (bytes < 1) {
      throw new IllegalArgumentException("allocation of " + name + " needs a positive size, got " + bytes);
    }
    if (liveBytes + bytes > capacity) {
      throw new OutOfDeviceMemoryException(owner + " alloc " + name + " " + Sizes.format(bytes), bytes, capacity - liveBytes, snapshot());
    }
    if (async) {
      long reused = Math.min(cachedBytes, bytes);
      cachedBytes -= reused;
    } else if (liveBytes + cachedBytes + bytes > capacity) {
      cachedBytes = 0;
    }
    liveBytes += bytes;
    peakUsed = Math.max(peakUsed, liveBytes + cachedBytes);
    DeviceBuffer b = new DeviceBuffer(nextId++, owner, name, bytes, async);
    live.put(b.id(), b);
    return b;
  }

  @Override
  public synchronized void free(DeviceBuffer buffer) {
    if (buffer == null || live.remove(buffer.id()) == null) {
      throw new BufferNotLiveException(ViolationKind.BAD_FREE, "free of a buffer that is not live: " + buffer);
    }
    liveBytes -= buffer.bytes();
    if (buffer.async()) {
      cachedBytes += buffer.bytes();
    }
  }

  @Override
  public synchronized void trim() {
    cachedBytes = 0;
  }

  @Override
  public KernelRun launch(String owner, String name, List<DeviceBuffer> uses, Runnable work) {
    synchronized (this) {
      for (DeviceBuffer b : uses) {
        if (b == null || !live.containsKey(b.id())) {
          throw new BufferNotLiveException(ViolationKind.USE_AFTER_FREE,
              owner + " kernel " + name + " uses a buffer that is not live: " + b);
        }
      }
      runningKernels++;
    }
    try {
      work.run();
    } catch (RuntimeException | Error e) {
      complete();
      throw e;
    }
    return new KernelRun() {
      private boolean done;

      @Override
      public String name() {
        return name;
      }

      @Override
      public void await() {
        if (!done) {
          done = true;
          complete();
        }
      }
    };
  }

  private synchronized void complete() {
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
  }

  @Override
  public synchronized boolean trySynchronize() {
    return runningKernels == 0;
  }

  @Override
  public synchronized MemoryInfo memory() {
    return snapshot();
  }

  private MemoryInfo snapshot() {
    return new MemoryInfo(capacity, liveBytes, cachedBytes, peakUsed);
  }

  @Override
  public synchronized List<DeviceBuffer> liveBuffers(String owner) {
    List<DeviceBuffer> out = new ArrayList<>();
    for (DeviceBuffer b : live.values()) {
      if (owner == null || b.owner().equals(owner)) {
        out.add(b);
      }
    }
    return out;
  }

  @Override
  public synchronized void reset() {
    live.clear();
    liveBytes = 0;
    cachedBytes = 0;
  }

  @Override
  public void close() {
    reset();
  }
}
