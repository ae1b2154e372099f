package dev.interlock.model.state;

import java.util.Arrays;
import java.util.Optional;

/**
 * The model's device memory: live bytes, the memory pool's cached bytes per stream, the pool's
 * release threshold, and the rules that move them. {@link Model} steps through these rules, and so
 * does every device that simulates the model ({@code SimulatedDevice}) or is specified by it (the
 * Lincheck tests).
 *
 * <p>As measured on an H200 (driver 580):
 * <ul>
 *   <li>an allocation fails exactly when live bytes plus the request exceed vram;
 *   <li>an async alloc reuses cached bytes, its own stream's first, then the other streams' (most
 *       cached first; ties by stream index), and grows the pool for the rest. It synchronizes nothing;
 *   <li>a plain alloc that does not fit beside the cache makes the driver release the whole cache
 *       first; a failed plain alloc has released it too; a failed async alloc has grown the pool by
 *       all the free heap, which stays cached (attributed to the allocating stream);
 *   <li>an async free moves the bytes into the cache of the stream that freed them;
 *   <li>a synchronization releases cached bytes until the pool's reserved bytes (live async plus
 *       cached) are at most {@code max(threshold, live async)}: a device synchronization from any
 *       stream (most cached first), a stream synchronization (cudaStreamSynchronize, or the end of
 *       one of its kernels as the host learns it) only from its own stream;
 *   <li>trim (cudaMemPoolTrimTo(0)) releases every cached byte whatever the threshold.
 * </ul>
 * What cudaMemGetInfo reports as used is live plus cached bytes.
 *
 * @param vram the device's memory in bytes
 * @param threshold the pool's release threshold in bytes; {@code Long.MAX_VALUE} for {@code max}
 * @param live bytes of live buffers, plain and async
 * @param liveAsync bytes of the live buffers allocated asynchronously (from the pool)
 * @param cached per stream, the bytes it freed asynchronously that the pool keeps
 */
public record DeviceMemory(long vram, long threshold, long live, long liveAsync, long[] cached) {
  public DeviceMemory {
    cached = cached.clone();
    long total = 0;
    for (long c : cached) {
      if (c < 0) {
        throw new IllegalArgumentException("negative cached bytes: " + Arrays.toString(cached));
      }
      total += c;
    }
    if (vram < 1 || threshold < 0 || live < 0 || liveAsync < 0 || liveAsync > live || live + total > vram) {
      throw new IllegalArgumentException("inconsistent device memory: vram=" + vram + " threshold=" + threshold
          + " live=" + live + " liveAsync=" + liveAsync + " cached=" + Arrays.toString(cached));
    }
  }

  /** An empty device with {@code streams} streams and a release threshold of 0. */
  public static DeviceMemory empty(long vram, int streams) {
    return new DeviceMemory(vram, 0, 0, 0, new long[streams]);
  }

  /** The same device with release threshold {@code bytes}. */
  public DeviceMemory withThreshold(long bytes) {
    return new DeviceMemory(vram, bytes, live, liveAsync, cached);
  }

  /** The same device with {@code n} streams; new streams have nothing cached, dropped ones must have nothing. */
  public DeviceMemory withStreams(int n) {
    for (int i = n; i < cached.length; i++) {
      if (cached[i] != 0) {
        throw new IllegalArgumentException("stream " + i + " still has cached bytes");
      }
    }
    return new DeviceMemory(vram, threshold, live, liveAsync, Arrays.copyOf(cached, n));
  }

  /** Number of streams. */
  public int streams() {
    return cached.length;
  }

  /** Bytes cached for stream s. */
  public long cached(int s) {
    return cached[s];
  }

  /** All cached bytes. */
  public long cachedTotal() {
    long total = 0;
    for (long c : cached) {
      total += c;
    }
    return total;
  }

  /** What cudaMemGetInfo reports as used: live plus cached bytes. */
  public long used() {
    return live + cachedTotal();
  }

  /** What cudaMemGetInfo reports as free: vram minus live and cached bytes. */
  public long free() {
    return vram - used();
  }

  /** Whether an allocation of {@code bytes} succeeds beside {@code live} live bytes: the one OOM rule. */
  public static boolean fits(long vram, long live, long bytes) {
    return live + bytes <= vram;
  }

  /** The device after allocating {@code bytes} on stream s, or empty when that is out of memory. */
  public Optional<DeviceMemory> alloc(long bytes, boolean async, int stream) {
    if (!fits(vram, live, bytes)) {
      return Optional.empty();
    }
    long[] c = cached.clone();
    if (async) {
      take(c, stream, bytes);
      return Optional.of(new DeviceMemory(vram, threshold, live + bytes, liveAsync + bytes, c));
    }
    if (live + cachedTotal() + bytes > vram) {
      Arrays.fill(c, 0);
    }
    return Optional.of(new DeviceMemory(vram, threshold, live + bytes, liveAsync, c));
  }

  /** The device after an allocation of {@code bytes} on stream s failed (when {@link #alloc} is empty). */
  public DeviceMemory afterFailedAlloc(long bytes, boolean async, int stream) {
    if (fits(vram, live, bytes)) {
      throw new IllegalArgumentException(bytes + " bytes fit beside " + live + " live bytes: the allocation does not fail");
    }
    long[] c = cached.clone();
    if (async) {
      c[stream] += vram - live - cachedTotal();
    } else {
      Arrays.fill(c, 0);
    }
    return new DeviceMemory(vram, threshold, live, liveAsync, c);
  }

  /** The device after stream s freed a live buffer of {@code bytes}. */
  public DeviceMemory free(long bytes, boolean async, int stream) {
    if (bytes > live || (async && bytes > liveAsync)) {
      throw new IllegalArgumentException("free of " + bytes + (async ? " async" : "") + " bytes with only " + live
          + " live (" + liveAsync + " async)");
    }
    long[] c = cached.clone();
    if (async) {
      c[stream] += bytes;
      return new DeviceMemory(vram, threshold, live - bytes, liveAsync - bytes, c);
    }
    return new DeviceMemory(vram, threshold, live - bytes, liveAsync, c);
  }

  /** The device after cudaMemPoolTrimTo(0). */
  public DeviceMemory trim() {
    return new DeviceMemory(vram, threshold, live, liveAsync, new long[cached.length]);
  }

  /** The device after a device-wide synchronization (cudaDeviceSynchronize). */
  public DeviceMemory synchronizeDevice() {
    long[] c = cached.clone();
    long excess = cachedTotal() - keepable();
    while (excess > 0) {
      int s = mostCached(c, -1);
      long r = Math.min(excess, c[s]);
      c[s] -= r;
      excess -= r;
    }
    return new DeviceMemory(vram, threshold, live, liveAsync, c);
  }

  /** The device after stream s synchronized: cudaStreamSynchronize, or the host learning that its kernel ended. */
  public DeviceMemory synchronizeStream(int stream) {
    long excess = cachedTotal() - keepable();
    if (excess <= 0 || cached[stream] == 0) {
      return this;
    }
    long[] c = cached.clone();
    c[stream] -= Math.min(excess, c[stream]);
    return new DeviceMemory(vram, threshold, live, liveAsync, c);
  }

  /** Cached bytes the pool may keep at a synchronization: reserved bytes stay at most max(threshold, live async). */
  private long keepable() {
    return threshold == Long.MAX_VALUE ? Long.MAX_VALUE : Math.max(0, threshold - liveAsync);
  }

  /** Takes up to {@code bytes} from the caches, stream s's first, then the others most cached first. */
  private static void take(long[] c, int stream, long bytes) {
    long need = bytes;
    long own = Math.min(need, c[stream]);
    c[stream] -= own;
    need -= own;
    while (need > 0) {
      int s = mostCached(c, stream);
      if (s < 0 || c[s] == 0) {
        return;
      }
      long r = Math.min(need, c[s]);
      c[s] -= r;
      need -= r;
    }
  }

  /** The stream other than {@code except} with the most cached bytes (lowest index on ties), or -1. */
  private static int mostCached(long[] c, int except) {
    int best = -1;
    for (int i = 0; i < c.length; i++) {
      if (i != except && (best < 0 || c[i] > c[best])) {
        best = i;
      }
    }
    return best;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof DeviceMemory m && vram == m.vram && threshold == m.threshold && live == m.live
        && liveAsync == m.liveAsync && Arrays.equals(cached, m.cached);
  }

  @Override
  public int hashCode() {
    return Long.hashCode(live) * 31 + Arrays.hashCode(cached);
  }

  @Override
  public String toString() {
    return "DeviceMemory[vram=" + vram + ", threshold=" + threshold + ", live=" + live + ", liveAsync=" + liveAsync
        + ", cached=" + Arrays.toString(cached) + "]";
  }

  @Override
  public long[] cached() {
    return cached.clone();
  }
}
