package dev.interlock.impl.device;

import dev.interlock.model.design.Sizes;
import dev.interlock.model.state.ViolationKind;
import dev.interlock.impl.groth16.curve.G1;
import dev.interlock.impl.groth16.curve.G1Bases;
import dev.interlock.impl.groth16.curve.Msm;
import dev.interlock.impl.groth16.field.Fr;
import dev.interlock.impl.groth16.field.Ntt;
import dev.interlock.impl.groth16.NttBackend;
import dev.interlock.impl.groth16.Prover;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A device simulated in memory: one heap of a configured capacity, one memory pool, kernels that
 * run their work on the launching thread when it waits for them (launch returns at once, as an
 * asynchronous CUDA launch does); NTT and MSM kernels compute on the CPU over what the host copied
 * into their buffers.
 *
 * <p>All accounting happens under the device's monitor, so each call sees and leaves a consistent
 * state, as the driver's calls do. Kernel work runs in {@link KernelRun#await()}, outside the
 * monitor; the kernel counts as running from launch until that returns, which is what
 * {@link #synchronize()} waits for.
 */
public final class SimulatedDevice implements Device {
  private final long capacity;
  private final Map<Long, DeviceBuffer> live = new LinkedHashMap<>();
  /** Scalars the host copied into each buffer, as one limb array per buffer. */
  private final Map<Long, long[]> scalars = new HashMap<>();
  /** G1 bases the host copied into each buffer, by byte offset. */
  private final Map<Long, Map<Long, G1Bases>> bases = new HashMap<>();
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
      // the failed call still moves the pool as the driver does: a plain one has released the cache,
      // an async one has grown the pool by all the free heap
      cachedBytes = async ? capacity - liveBytes : 0;
      peakUsed = Math.max(peakUsed, liveBytes + cachedBytes);
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
    scalars.remove(buffer.id());
    bases.remove(buffer.id());
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
  public synchronized void writeScalars(DeviceBuffer dst, int at, long[] src) {
    long[] limbs = scalarsOf(dst, "write to");
    int count = src.length / Fr.LIMBS;
    requireFits(dst, at, count);
    System.arraycopy(src, 0, limbs, at * Fr.LIMBS, count * Fr.LIMBS);
  }

  @Override
  public synchronized long[] readScalars(DeviceBuffer src, int at, int count) {
    long[] limbs = scalarsOf(src, "read from");
    requireFits(src, at, count);
    long[] out = new long[count * Fr.LIMBS];
    System.arraycopy(limbs, at * Fr.LIMBS, out, 0, out.length);
    return out;
  }

  @Override
  public synchronized void writeBases(DeviceBuffer dst, long at, G1Bases points) {
    requireLive(dst, "write to");
    if (at < 0 || at + (long) points.size() * G1_AFFINE_BYTES > dst.bytes()) {
      throw new IllegalArgumentException(points.size() + " G1 bases at byte " + at + " need " + (at + points.size() * G1_AFFINE_BYTES)
          + " bytes, buffer " + dst.name() + " has " + dst.bytes());
    }
    bases.computeIfAbsent(dst.id(), k -> new HashMap<>()).put(at, points);
  }

  @Override
  public KernelRun ntt(String owner, DeviceBuffer data, int at, int logN, NttKind kind) {
    return launch(owner, "ntt", List.of(data), () -> {
      int n = 1 << logN;
      long[] v = readScalars(data, at, n);
      switch (kind) {
        case FORWARD -> Ntt.forward(v, logN);
        case INVERSE -> Ntt.inverse(v, logN);
        case COSET_FORWARD -> Ntt.cosetForward(v, logN);
        default -> Ntt.cosetInverse(v, logN);
      }
      writeScalars(data, at, v);
    });
  }

  @Override
  public KernelRun quotient(String owner, DeviceBuffer abc, int at, int logN, DeviceBuffer h) {
    return launch(owner, "quotient", List.of(abc, h), () -> {
      int n = 1 << logN;
      long[] a = readScalars(abc, at, n);
      long[] b = readScalars(abc, at + n, n);
      long[] c = readScalars(abc, at + 2 * n, n);
      writeScalars(h, 0, Prover.quotient(a, b, c, logN, NttBackend.CPU));
    });
  }

  @Override
  public MsmRun msm(String owner, DeviceBuffer basesBuffer, long basesAt, DeviceBuffer scalarsBuffer, int scalarsAt) {
    G1[] result = new G1[1];
    KernelRun run = launch(owner, "msm", List.of(basesBuffer, scalarsBuffer), () -> {
      G1Bases b;
      synchronized (this) {
        b = bases.getOrDefault(basesBuffer.id(), Map.of()).get(basesAt);
        if (b == null) {
          throw new IllegalStateException("buffer " + basesBuffer.name() + " holds no G1 bases at byte " + basesAt);
        }
      }
      long[] mont = readScalars(scalarsBuffer, scalarsAt, b.size());
      result[0] = Msm.msm(b, Fr.toCanonical(mont, 0, b.size()));
    });
    return MsmRun.of(run, () -> result[0]);
  }

  private void requireLive(DeviceBuffer b, String what) {
    if (b == null || !live.containsKey(b.id())) {
      throw new BufferNotLiveException(ViolationKind.USE_AFTER_FREE, what + " a buffer that is not live: " + b);
    }
  }

  private static void requireFits(DeviceBuffer b, int at, int count) {
    if (at < 0 || count < 0 || (long) (at + count) * SCALAR_BYTES > b.bytes()) {
      throw new IllegalArgumentException("scalars " + at + ".." + (at + count) + " do not fit in buffer " + b.name() + " of "
          + b.bytes() + " bytes");
    }
  }

  /** The buffer's scalar contents, made on first use (zeros, like fresh device memory in practice). */
  private long[] scalarsOf(DeviceBuffer b, String what) {
    requireLive(b, what);
    long[] existing = scalars.get(b.id());
    if (existing != null) {
      return existing;
    }
    long elements = b.bytes() / SCALAR_BYTES;
    if (elements * Fr.LIMBS > Integer.MAX_VALUE - 8) {
      throw new IllegalArgumentException("the simulated device holds at most " + ((Integer.MAX_VALUE - 8L) / Fr.LIMBS)
          + " scalars per buffer; " + b.name() + " would hold " + elements);
    }
    long[] limbs = new long[(int) elements * Fr.LIMBS];
    scalars.put(b.id(), limbs);
    return limbs;
  }

  @Override
  public synchronized void reset() {
    scalars.clear();
    bases.clear();
    live.clear();
    liveBytes = 0;
    cachedBytes = 0;
  }

  @Override
  public void close() {
    reset();
  }
}
