package dev.interlock.impl.device;

import dev.interlock.impl.groth16.curve.G1Bases;
import java.util.List;

/**
 * A GPU as the engine sees it: device-global memory, kernels, synchronization.
 *
 * <p>Memory follows the model: an allocation fails exactly when live bytes of all threads plus the
 * request exceed capacity; async allocations reuse pool-cached bytes; a plain allocation that does
 * not fit beside the cache makes the driver release the cache; async frees go to the cache,
 * which {@link #trim()} empties. Implementations are thread-safe.
 */
public interface Device extends AutoCloseable {

  /**
   * cudaMalloc ({@code async} false) or cudaMallocAsync from the device's pool.
   *
   * @throws OutOfDeviceMemoryException when live bytes plus {@code bytes} exceed capacity
   */
  DeviceBuffer allocate(String owner, String name, long bytes, boolean async);

  /**
   * Frees a buffer: plain ones back to the heap, async ones into the pool's cache.
   *
   * @throws BufferNotLiveException (BAD_FREE) when it is not live
   */
  void free(DeviceBuffer buffer);

  /** cudaMemPoolTrimTo(0): returns every cached byte to the heap, never a live one. */
  void trim();

  /**
   * Launches a kernel that reads and writes {@code uses}; {@code work} is what it computes.
   *
   * @throws BufferNotLiveException (USE_AFTER_FREE) when a used buffer is not live
   */
  KernelRun launch(String owner, String name, List<DeviceBuffer> uses, Runnable work);

  /** Bytes a buffer needs per scalar-field element (4 limbs of 64 bits). */
  long SCALAR_BYTES = 32;

  /** Bytes a buffer needs per affine G1 base (x and y, 48 bytes each). */
  long G1_AFFINE_BYTES = 96;

  /**
   * Copies scalar-field elements (a Montgomery-form Fr vector, 4 limbs each) from the host into
   * {@code dst} at element offset {@code at}: cudaMemcpy host to device.
   *
   * @throws IllegalArgumentException when they do not fit in the buffer
   */
  void writeScalars(DeviceBuffer dst, int at, long[] src);

  /** Copies {@code count} scalars from element offset {@code at} of {@code src} to the host. */
  long[] readScalars(DeviceBuffer src, int at, int count);

  /** Copies G1 bases (affine points) from the host into {@code dst} at byte offset {@code at}. */
  void writeBases(DeviceBuffer dst, long at, G1Bases bases);

  /**
   * Launches an in-place NTT over the {@code 2^logN} scalars at element offset {@code at} of {@code data}.
   *
   * @throws BufferNotLiveException (USE_AFTER_FREE) when the buffer is not live
   */
  KernelRun ntt(String owner, DeviceBuffer data, int at, int logN, NttKind kind);

  /**
   * Launches ntt_h's whole computation on the device: from the evaluations a, b, c on the domain staged at element
   * offsets {@code at}, {@code at + n} and {@code at + 2n} of {@code abc} (n = 2^logN; they are overwritten), the n
   * coefficients of H = (A·B - C)/Z at element 0 of {@code h}, as {@code Prover.quotient} computes them.
   *
   * @throws BufferNotLiveException (USE_AFTER_FREE) when a buffer is not live
   */
  KernelRun quotient(String owner, DeviceBuffer abc, int at, int logN, DeviceBuffer h);

  /**
   * Launches a G1 MSM: for each base i written at byte offset {@code basesAt} of {@code bases}, the
   * scalar at element offset {@code scalarsAt + i} of {@code scalars} (Montgomery form) times it, summed.
   *
   * @throws BufferNotLiveException (USE_AFTER_FREE) when a buffer is not live
   */
  MsmRun msm(String owner, DeviceBuffer bases, long basesAt, DeviceBuffer scalars, int scalarsAt);

  /** cudaDeviceSynchronize: returns once no kernel of any thread is running. */
  void synchronize() throws InterruptedException;

  /** The non-blocking form of {@link #synchronize()}: true when no kernel is running. */
  boolean trySynchronize();

  /** Current memory figures. */
  MemoryInfo memory();

  /** Live buffers, optionally only those of one owner (null: all). */
  List<DeviceBuffer> liveBuffers(String owner);

  /** Frees every live buffer and empties the pool; the device stays usable. */
  void reset();

  @Override
  void close();
}
