package dev.interlock.model.state;

import java.util.Arrays;
import java.util.Optional;

/**
 * The model's device memory: live bytes, the memory pool's cached bytes per stream, the pool's
 * release threshold, and the rules that move them. {@link Model} steps through these rules, and so
 * does every device that simulates the model ({@code SimulatedDevice}) or is specified by it (the
 * Lincheck tests).
 *
 * <p>As measured on an H200 (driver 580; PoolSemanticsGpuIT):
 * <ul>
 *   <li>an async free moves the bytes into the cache of the stream that freed them, as <em>pending</em>:
 *       no synchronization has seen the free complete yet. A synchronization of that stream (or of
 *       the device) <em>settles</em> them;
 *   <li>a synchronization releases cached bytes until the pool's reserved bytes (live async plus
 *       cached) are at most {@code max(threshold, live async)}: a device synchronization from any
 *       stream (most cached first), a stream synchronization (cudaStreamSynchronize, or the end of
 *       one of its kernels as the host learns it) only from its own stream;
 *   <li>an async alloc fails exactly when live bytes plus the request exceed vram. It reuses cached
 *       bytes, pending or settled, without synchronizing: its own stream's first, then the other
 *       stream whose cache fits the rest most tightly (best fit; if none holds it all, the most
 *       cached first; ties by stream index), and grows the pool for the rest. A failed async alloc
 *       grows the pool by all the free heap (attributed to the allocating stream), then releases as a
 *       device synchronization does: down to the threshold, other streams' unsynchronized frees
 *       included. (Which cached bytes the driver reuses is per block: it took the bytes freed
 *       first in every case measured. The model keeps bytes per stream, not per block, so it can
 *       differ in which stream's later synchronization releases what; never in live bytes.);
 *   <li>a plain alloc can take back only settled bytes: when it does not fit beside the cache, the
 *       driver releases every settled byte, and the alloc fails when live plus pending bytes plus
 *       the request exceed vram. A failed plain alloc has released the settled bytes too. (The driver
 *       can also take back pending bytes whose free the GPU has already finished, which depends on
 *       timing: the model takes the outcome where it has not, the one a safety check must consider;
 *       see {@link #withFreesCompleted()}.)
 *   <li>trim (cudaMemPoolTrimTo(0)) releases every cached byte whatever the threshold (a device
 *       implements it after synchronizing the frees, so nothing is pending when it trims).
 * </ul>
 * What cudaMemGetInfo reports as used is live plus cached bytes. The pool also rounds its growth up
 * (a 368MiB async alloc reserved 384MiB); the model does not: a device's figures may differ by that
 * (see {@code Device.figureTolerance()}).
 *
 * @param vram the device's memory in bytes
 * @param threshold the pool's release threshold in bytes; {@code Long.MAX_VALUE} for {@code max}
 * @param live bytes of live buffers, plain and async
 * @param liveAsync bytes of the live buffers allocated asynchronously (from the pool)
 * @param cached per stream, the bytes it freed asynchronously that the pool keeps
 * @param settled per stream, the part of {@code cached} that a synchronization has seen freed
 */
public record DeviceMemory(long vram, long threshold, long live, long liveAsync, long[] cached, long[] settled) {
  public DeviceMemory {
    cached = cached.clone();
    settled = settled.clone();
    if (settled.length != cached.length) {
      throw new IllegalArgumentException("cached and settled bytes for different stream counts");
    }
    long total = 0;
    for (int i = 0; i < cached.length; i++) {
      if (cached[i] < 0 || settled[i] < 0 || settled[i] > cached[i]) {
        throw new IllegalArgumentException("inconsistent cached bytes: " + Arrays.toString(cached) + " settled "
            + Arrays.toString(settled));
      }
      total += cached[i];
    }
    if (vram < 1 || threshold < 0 || live < 0 || liveAsync < 0 || liveAsync > live || live + total > vram) {
      throw new IllegalArgumentException("inconsistent device memory: vram=" + vram + " threshold=" + threshold
          + " live=" + live + " liveAsync=" + liveAsync + " cached=" + Arrays.toString(cached));
    }
  }

  /** A device whose cached bytes are all settled. */
  public DeviceMemory(long vram, long threshold, long live, long liveAsync, long[] cached) {
    this(vram, threshold, live, liveAsync, cached, cached);
  }

  /** An empty device with {@code streams} streams and a release threshold of 0. */
  public static DeviceMemory empty(long vram, int streams) {
    return new DeviceMemory(vram, 0, 0, 0, new long[streams], new long[streams]);
  }

  /** The same device with release threshold {@code bytes}. */
  public DeviceMemory withThreshold(long bytes) {
    return new DeviceMemory(vram, bytes, live, liveAsync, cached, settled);
  }

  /** The same device with {@code n} streams; new streams have nothing cached, dropped ones must have nothing. */
  public DeviceMemory withStreams(int n) {
    for (int i = n; i < cached.length; i++) {
      if (cached[i] != 0) {
        throw new IllegalArgumentException("stream " + i + " still has cached bytes");
      }
    }
    return new DeviceMemory(vram, threshold, live, liveAsync, Arrays.copyOf(cached, n), Arrays.copyOf(settled, n));
  }

  /** Number of streams. */
  public int streams() {
    return cached.length;
  }

  /** Bytes cached for stream s. */
  public long cached(int s) {
    return cached[s];
  }

  /** Bytes cached for stream s that a synchronization has seen freed. */
  public long settled(int s) {
    return settled[s];
  }

  /** All cached bytes. */
  public long cachedTotal() {
    long total = 0;
    for (long c : cached) {
      total += c;
    }
    return total;
  }

  /** Bytes freed asynchronously on any stream that no synchronization has seen yet (cached but not settled). */
  public long pendingTotal() {
    long total = 0;
    for (int i = 0; i < cached.length; i++) {
      total += cached[i] - settled[i];
    }
    return total;
  }

  /**
   * Whether a device synchronization now (or the release after a failed async alloc) would release every cached byte,
   * whatever the streams cache: the pool may keep nothing, its threshold being no more than the live async bytes.
   */
  public boolean synchronizeReleasesAll() {
    return keepable() == 0;
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
    long[] c = cached.clone();
    long[] st = settled.clone();
    if (async) {
      if (!fits(vram, live, bytes)) {
        return Optional.empty();
      }
      take(c, st, stream, bytes);
      return Optional.of(new DeviceMemory(vram, threshold, live + bytes, liveAsync + bytes, c, st));
    }
    if (live + cachedTotal() + bytes > vram) {
      releaseSettled(c, st);
    }
    if (!fits(vram, live + total(c), bytes)) {
      return Optional.empty();
    }
    return Optional.of(new DeviceMemory(vram, threshold, live + bytes, liveAsync, c, st));
  }

  /** The device after an allocation of {@code bytes} on stream s failed (when {@link #alloc} is empty). */
  public DeviceMemory afterFailedAlloc(long bytes, boolean async, int stream) {
    if (alloc(bytes, async, stream).isPresent()) {
      throw new IllegalArgumentException(bytes + " bytes fit beside " + live + " live bytes: the allocation does not fail");
    }
    if (async) {
      // measured: then the pool releases down to its threshold as at a device synchronization, other streams'
      // unsynchronized frees included
      return grownByFailedAsyncAlloc(stream).synchronizeDevice();
    }
    long[] c = cached.clone();
    long[] st = settled.clone();
    releaseSettled(c, st);
    return new DeviceMemory(vram, threshold, live, liveAsync, c, st);
  }

  /** The device after stream s freed a live buffer of {@code bytes}. */
  public DeviceMemory free(long bytes, boolean async, int stream) {
    if (bytes > live || (async && bytes > liveAsync)) {
      throw new IllegalArgumentException("free of " + bytes + (async ? " async" : "") + " bytes with only " + live
          + " live (" + liveAsync + " async)");
    }
    if (async) {
      long[] c = cached.clone();
      c[stream] += bytes;
      return new DeviceMemory(vram, threshold, live - bytes, liveAsync - bytes, c, settled);
    }
    return new DeviceMemory(vram, threshold, live - bytes, liveAsync, cached, settled);
  }

  /**
   * The device once the GPU has finished every pending free: all cached bytes settled, none released. A driver may get
   * there before any synchronization; the model's steps never assume it (a plain alloc may fail beside pending bytes).
   */
  public DeviceMemory withFreesCompleted() {
    return new DeviceMemory(vram, threshold, live, liveAsync, cached, cached);
  }

  /** The device after cudaMemPoolTrimTo(0). */
  public DeviceMemory trim() {
    return new DeviceMemory(vram, threshold, live, liveAsync, new long[cached.length], new long[cached.length]);
  }

  /** The device after a device-wide synchronization (cudaDeviceSynchronize). */
  public DeviceMemory synchronizeDevice() {
    long[] c = cached.clone();
    release(c, cachedTotal() - keepable());
    return new DeviceMemory(vram, threshold, live, liveAsync, c, c);
  }

  /** Releases {@code excess} cached bytes, most cached stream first; whether it chose among streams caching as many. */
  private static boolean release(long[] c, long excess) {
    boolean tie = false;
    while (excess > 0) {
      int s = mostCached(c, -1);
      tie |= tied(c, -1, s);
      long r = Math.min(excess, c[s]);
      c[s] -= r;
      excess -= r;
    }
    return tie;
  }

  /**
   * Whether {@link #synchronizeDevice} chooses among streams that cache equally many bytes, where it takes the lowest
   * index: then its outcome depends on the order of the streams, not only on what they cache.
   */
  public boolean synchronizeBreaksTie() {
    return release(cached.clone(), cachedTotal() - keepable());
  }

  /**
   * Whether {@link #alloc} of {@code bytes} on stream s (or, when it fails, {@link #afterFailedAlloc}) chooses among
   * streams that cache equally many bytes, where it takes the lowest index: then its outcome depends on the order of
   * the streams, not only on what they cache. A plain alloc never chooses.
   */
  public boolean allocBreaksTie(long bytes, boolean async, int stream) {
    if (!async) {
      return false;
    }
    if (!fits(vram, live, bytes)) {
      return grownByFailedAsyncAlloc(stream).synchronizeBreaksTie();
    }
    return take(cached.clone(), settled.clone(), stream, bytes);
  }

  /** The device as a failed async alloc on stream s leaves the pool before it releases: grown by all the free heap. */
  private DeviceMemory grownByFailedAsyncAlloc(int stream) {
    long[] c = cached.clone();
    c[stream] += vram - live - cachedTotal();
    return new DeviceMemory(vram, threshold, live, liveAsync, c, c);
  }

  /** The device after stream s synchronized: cudaStreamSynchronize, or the host learning that its kernel ended. */
  public DeviceMemory synchronizeStream(int stream) {
    long excess = cachedTotal() - keepable();
    if (cached[stream] == settled[stream] && (excess <= 0 || cached[stream] == 0)) {
      return this;
    }
    long[] c = cached.clone();
    long[] st = settled.clone();
    c[stream] -= Math.max(0, Math.min(excess, c[stream]));
    st[stream] = c[stream];
    return new DeviceMemory(vram, threshold, live, liveAsync, c, st);
  }

  /** Cached bytes the pool may keep at a synchronization: reserved bytes stay at most max(threshold, live async). */
  private long keepable() {
    return threshold == Long.MAX_VALUE ? Long.MAX_VALUE : Math.max(0, threshold - liveAsync);
  }

  /**
   * Takes up to {@code bytes} from the caches: stream s's first, then the other stream whose cache holds the rest most
   * tightly (best fit), or, when none holds it all, the most cached one, and so on. A stream's pending bytes go first.
   */
  private static boolean take(long[] c, long[] st, int stream, long bytes) {
    long need = takeFrom(c, st, stream, bytes);
    boolean tie = false;
    while (need > 0) {
      int s = bestFit(c, stream, need);
      if (s < 0) {
        s = mostCached(c, stream);
      }
      if (s < 0 || c[s] == 0) {
        return tie;
      }
      tie |= tied(c, stream, s);
      need = takeFrom(c, st, s, need);
    }
    return tie;
  }

  /** Whether another stream than {@code except} and {@code chosen} caches as many bytes as {@code chosen}. */
  private static boolean tied(long[] c, int except, int chosen) {
    for (int i = 0; i < c.length; i++) {
      if (i != except && i != chosen && c[i] == c[chosen]) {
        return true;
      }
    }
    return false;
  }

  /** Takes up to {@code need} bytes of stream s's cache, pending ones first; returns what is still needed. */
  private static long takeFrom(long[] c, long[] st, int s, long need) {
    long r = Math.min(need, c[s]);
    c[s] -= r;
    st[s] = Math.min(st[s], c[s]);
    return need - r;
  }

  /** The stream other than {@code except} with the fewest cached bytes that are at least {@code need}, or -1. */
  private static int bestFit(long[] c, int except, long need) {
    int best = -1;
    for (int i = 0; i < c.length; i++) {
      if (i != except && c[i] >= need && (best < 0 || c[i] < c[best])) {
        best = i;
      }
    }
    return best;
  }

  /** Releases every settled byte. */
  private static void releaseSettled(long[] c, long[] st) {
    for (int i = 0; i < c.length; i++) {
      c[i] -= st[i];
      st[i] = 0;
    }
  }

  private static long total(long[] c) {
    long t = 0;
    for (long x : c) {
      t += x;
    }
    return t;
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
        && liveAsync == m.liveAsync && Arrays.equals(cached, m.cached) && Arrays.equals(settled, m.settled);
  }

  @Override
  public int hashCode() {
    return Long.hashCode(live) * 31 + Arrays.hashCode(cached);
  }

  @Override
  public String toString() {
    return "DeviceMemory[vram=" + vram + ", threshold=" + threshold + ", live=" + live + ", liveAsync=" + liveAsync
        + ", cached=" + Arrays.toString(cached) + ", settled=" + Arrays.toString(settled) + "]";
  }

  @Override
  public long[] cached() {
    return cached.clone();
  }

  @Override
  public long[] settled() {
    return settled.clone();
  }
}
