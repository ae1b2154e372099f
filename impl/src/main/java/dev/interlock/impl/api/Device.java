package dev.interlock.impl.api;

import java.util.List;

/**
 * A GPU as the engine sees it: device-global memory, kernel launches, synchronization.
 *
 * <p>It is a contract so that the same pipeline runs on the simulated device, which asks the model
 * for its rules, and on a real GPU. From a pipeline, wait for the whole device through
 * {@link Resources#synchronizeDevice()} rather than {@link #synchronize()}, so that a controlled
 * scheduler sees the wait.
 *
 * <p>Memory follows the model's rules ({@link dev.interlock.model.state.DeviceMemory}): an allocation fails exactly
 * when live bytes of all threads plus the request exceed capacity; async allocations reuse pool-cached bytes; a plain
 * allocation that does not fit beside the cache makes the driver release the cache; async frees go to the cache of the
 * freeing thread's stream, which a synchronization releases down to the pool's threshold and {@link #trim()} empties.
 * Each thread has its own stream, named by the thread's name. A kernel's end, as {@link KernelRun#await()} learns it,
 * is a synchronization of the launching thread's stream. What a kernel computes is not the device's business: the
 * work passed to {@link #launch} (the proving kernels live in the workload module). Implementations are thread-safe.
 */
public interface Device extends AutoCloseable {

  /**
   * cudaMalloc ({@code async} false) or cudaMallocAsync from the device's pool.
   *
   * @throws dev.interlock.impl.device.OutOfDeviceMemoryException when live bytes plus {@code bytes} exceed capacity
   */
  DeviceBuffer allocate(String owner, String name, long bytes, boolean async);

  /**
   * Frees a buffer: plain ones back to the heap, async ones into the pool's cache.
   *
   * @throws dev.interlock.impl.device.BufferNotLiveException (BAD_FREE) when it is not live
   */
  default void free(DeviceBuffer buffer) {
    free(buffer, buffer == null ? null : buffer.owner());
  }

  /**
   * Frees a buffer on the stream of thread {@code thread}, which may be another thread than the one that allocated
   * it (a task freeing its job's buffer): async bytes go into that stream's cache.
   *
   * @throws dev.interlock.impl.device.BufferNotLiveException (BAD_FREE) when it is not live
   */
  void free(DeviceBuffer buffer, String thread);

  /**
   * cudaStreamSynchronize of thread {@code thread}'s stream: waits for its work, then lets the pool release the bytes
   * freed on that stream, down to the release threshold.
   */
  void synchronizeStream(String thread);

  /** Sets the memory pool's release threshold (cudaMemPoolAttrReleaseThreshold); {@code Long.MAX_VALUE}: max. */
  void poolThreshold(long bytes);

  /** cudaMemPoolTrimTo(0): returns every cached byte to the heap, never a live one. */
  void trim();

  /**
   * Launches a kernel that reads and writes {@code uses}; {@code work} is what it computes.
   *
   * @throws dev.interlock.impl.device.BufferNotLiveException (USE_AFTER_FREE) when a used buffer is not live
   */
  KernelRun launch(String owner, String name, List<DeviceBuffer> uses, Runnable work);

  /**
   * cudaDeviceSynchronize: returns once no kernel of any thread is running, and lets the pool release cached bytes
   * of every stream down to the release threshold.
   */
  void synchronize() throws InterruptedException;

  /** The non-blocking form of {@link #synchronize()}: true when no kernel is running. */
  boolean trySynchronize();

  /** Current memory figures. */
  MemoryInfo memory();

  /**
   * What cudaMemGetInfo reports as free, as an {@code if free} step reads it: by default the figures' free bytes
   * (capacity minus live and cached). A real device asks its driver; its answer may differ from the figures by up to
   * {@link #figureTolerance()}.
   */
  default long reportedFree() {
    return memory().free();
  }

  /**
   * How far this device's figures (used, cached, {@link #reportedFree()}) may be from the model's: 0 unless the device
   * measures it (a real pool rounds its growth up, and its driver takes memory of its own).
   */
  default long figureTolerance() {
    return 0;
  }

  /**
   * The device's own times of the kernel launches awaited so far, in the order they were awaited, on the host clock:
   * empty for a device without a clock of its own, such as the simulated one.
   */
  default List<KernelTiming> kernelTimings() {
    return List.of();
  }

  /**
   * The driver-level calls this device made so far, in order ({@link DeviceCall}): what a capture of the process
   * records on the device side, to be compared with it call for call. Empty for a device that keeps no log.
   */
  default List<DeviceCall> deviceCalls() {
    return List.of();
  }

  /**
   * Whether this device's failures come from a driver that names them ({@link DriverError}, carried by
   * {@link dev.interlock.impl.device.DeviceException#driverError()}): a real GPU's do; the simulated device has no
   * driver, and by default a device has none.
   */
  default boolean reportsDriverErrors() {
    return false;
  }

  /** Whether {@code buffer} is live on this device. */
  boolean isLive(DeviceBuffer buffer);

  /** Live buffers, optionally only those of one owner (null: all). */
  List<DeviceBuffer> liveBuffers(String owner);

  /** How reports name this device, e.g. "simulated device" or the GPU's name and budget. */
  String description();

  /** Frees every live buffer and empties the pool; the device stays usable. */
  void reset();

  @Override
  void close();
}
