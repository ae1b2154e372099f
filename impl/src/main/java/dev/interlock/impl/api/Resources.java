package dev.interlock.impl.api;

import java.util.Map;

/**
 * What the threads of one run share: the device, and the design's mutexes, semaphores and device buffers, by name.
 *
 * <p>A pipeline takes its locks from here rather than making its own, so that their waits go through the engine's
 * scheduler and a misuse (unlocking a mutex it does not hold, releasing permits it does not have) is reported as
 * the model's violation.
 */
public interface Resources {
  /** The run's device. */
  Device device();

  /**
   * The mutex the design declares as {@code mutex NAME}.
   *
   * @throws IllegalArgumentException when the design has none of that name
   */
  Mutex mutex(String name);

  /**
   * The semaphore the design declares as {@code semaphore NAME PERMITS}.
   *
   * @throws IllegalArgumentException when the design has none of that name
   */
  Semaphore semaphore(String name);

  /** The device buffer the design declares as {@code buffer NAME SIZE}, or null when it has none of that name. */
  DeviceBuffer deviceBuffer(String name);

  /** The design's device buffers by name, allocated before any thread runs and freed at the run's end. */
  Map<String, DeviceBuffer> deviceBuffers();

  /**
   * The step {@code sync}: cudaDeviceSynchronize, waiting under the engine's scheduler; use it rather than
   * {@link Device#synchronize()}, whose wait no controlled scheduler could see.
   */
  void synchronizeDevice();
}
