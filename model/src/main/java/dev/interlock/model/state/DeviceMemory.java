package dev.interlock.model.state;

import java.util.Optional;

/**
 * The model's device memory: live and pool-cached bytes of one device, and the rules that move
 * them. {@link Model} steps through these rules, and so does any sequential specification of a
 * device (the Lincheck test of the simulated device).
 *
 * <p>As measured on an H200: an allocation fails exactly when live bytes plus the request exceed
 * vram; an async alloc reuses cached bytes and grows the pool for the rest; a plain alloc that does
 * not fit beside the cache makes the driver release the whole cache first; an async free moves the
 * bytes into the cache; trim empties it. A failed allocation still changes the cache
 * ({@link #afterFailedAlloc}).
 */
public record DeviceMemory(long vram, long live, long cached) {
  public DeviceMemory {
    if (vram < 1 || live < 0 || cached < 0 || live + cached > vram) {
      throw new IllegalArgumentException("inconsistent device memory: vram=" + vram + " live=" + live + " cached=" + cached);
    }
  }

  /** An empty device. */
  public static DeviceMemory empty(long vram) {
    return new DeviceMemory(vram, 0, 0);
  }

  /** What cudaMemGetInfo reports as used. */
  public long used() {
    return live + cached;
  }

  /** The device after allocating {@code bytes}, or empty when that is out of memory. */
  public Optional<DeviceMemory> alloc(long bytes, boolean async) {
    if (live + bytes > vram) {
      return Optional.empty();
    }
    long c = async ? Math.max(0, cached - bytes) : live + cached + bytes > vram ? 0 : cached;
    return Optional.of(new DeviceMemory(vram, live + bytes, c));
  }

  /**
   * The device after an allocation of {@code bytes} failed (when {@link #alloc} is empty), as
   * measured on an H200 (driver 580): a failed plain cudaMalloc has still released the pool's
   * cache; a failed cudaMallocAsync has grown the pool by all the free heap, which stays cached.
   */
  public DeviceMemory afterFailedAlloc(long bytes, boolean async) {
    if (live + bytes <= vram) {
      throw new IllegalArgumentException(bytes + " bytes fit beside " + live + " live bytes: the allocation does not fail");
    }
    return new DeviceMemory(vram, live, async ? vram - live : 0);
  }

  /** The device after freeing a live buffer of {@code bytes}. */
  public DeviceMemory free(long bytes, boolean async) {
    if (bytes > live) {
      throw new IllegalArgumentException("free of " + bytes + " bytes with only " + live + " live");
    }
    return new DeviceMemory(vram, live - bytes, async ? cached + bytes : cached);
  }

  /** The device after cudaMemPoolTrimTo(0). */
  public DeviceMemory trim() {
    return new DeviceMemory(vram, live, 0);
  }
}
