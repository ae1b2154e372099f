package dev.interlock.workload;

import dev.interlock.impl.api.Device;
import dev.interlock.impl.api.DeviceBuffer;
import dev.interlock.impl.api.KernelRun;
import dev.interlock.impl.device.BufferNotLiveException;
import dev.interlock.prover.G1FixedBase;
import dev.interlock.prover.curve.G1;
import dev.interlock.prover.curve.G1Bases;
import dev.interlock.prover.curve.G2;
import dev.interlock.prover.curve.G2Bases;
import java.util.OptionalDouble;

/**
 * The proving kernels a Groth16 engine runs on its device, over the engine's {@link DeviceBuffer}s: host copies of
 * scalars and G1 and G2 bases, NTTs, ntt_h's quotient, G1 MSMs and the G2 MSM. {@link CpuProvingKernels} computes them on the CPU over a
 * simulated device's buffers; a GPU backend implements them with CUDA kernels.
 *
 * <p>Every kernel is launched through {@link #device()}'s {@link Device#launch}, so it counts as running for
 * synchronization and a freed buffer is USE_AFTER_FREE, as for any design kernel. Scalars are Montgomery-form Fr
 * vectors, 4 limbs each.
 */
public interface ProvingKernels {
  /** Bytes a buffer needs per scalar-field element (4 limbs of 64 bits). */
  long SCALAR_BYTES = 32;

  /** Bytes a buffer needs per affine G1 base (x and y, 48 bytes each). */
  long G1_AFFINE_BYTES = 96;

  /** Bytes a buffer needs per affine G2 base (x and y in F_p2, 96 bytes each). */
  long G2_AFFINE_BYTES = 192;

  /** The device whose buffers these kernels read and write. */
  Device device();

  /**
   * How many times the device under these kernels has been replaced by a fresh one (a context recreated after a
   * poison): what a buffer held in an earlier generation is gone, even where its handle lives on. 0 for kernels whose
   * device is never replaced.
   */
  default int generation() {
    return 0;
  }

  /**
   * Copies scalar-field elements from the host into {@code dst} at element offset {@code at}: cudaMemcpy host to
   * device.
   *
   * @throws IllegalArgumentException when they do not fit in the buffer
   * @throws BufferNotLiveException (USE_AFTER_FREE) when the buffer is not live
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
   * Launches ntt_h's whole computation: from the evaluations a, b, c on the domain staged at element offsets
   * {@code at}, {@code at + n} and {@code at + 2n} of {@code abc} (n = 2^logN; they are overwritten), the n
   * coefficients of H = (A·B - C)/Z at element 0 of {@code h}, as {@code Prover.quotient} computes them.
   *
   * @throws BufferNotLiveException (USE_AFTER_FREE) when a buffer is not live
   */
  KernelRun quotient(String owner, DeviceBuffer abc, int at, int logN, DeviceBuffer h);

  /**
   * Launches a G1 MSM: for each base i written at byte offset {@code basesAt} of {@code bases}, the scalar at element
   * offset {@code scalarsAt + i} of {@code scalars} times it, summed.
   *
   * @throws BufferNotLiveException (USE_AFTER_FREE) when a buffer is not live
   */
  MsmRun<G1> msm(String owner, DeviceBuffer bases, long basesAt, DeviceBuffer scalars, int scalarsAt);

  /**
   * Bytes of the MSM table {@link #msmTable} builds for {@code count} G1 bases with up to {@code copies} copies of each
   * (the bases themselves are copy 0 and take no table bytes): (copies - 1)·count·96 unless the kernels use fewer
   * copies. Device memory a design must hold for as long as the table is used.
   */
  default long tableBytes(int count, int copies) {
    if (copies < 1 || count < 0) {
      throw new IllegalArgumentException("an MSM table of " + count + " bases needs at least one copy, got " + copies);
    }
    return (long) (copies - 1) * count * G1_AFFINE_BYTES;
  }

  /**
   * Launches the build of an MSM table: into byte {@code tableAt} of {@code table}, the precomputed copies of the G1
   * bases written at byte {@code basesAt} of {@code bases} that {@link #msm(String, DeviceBuffer, long, DeviceBuffer, int,
   * DeviceBuffer, long)} reads; a proving key's one-time work. Rewriting those bases or freeing either buffer forgets it.
   *
   * @throws BufferNotLiveException (USE_AFTER_FREE) when a buffer is not live
   */
  KernelRun msmTable(String owner, DeviceBuffer bases, long basesAt, DeviceBuffer table, long tableAt, int copies);

  /**
   * As {@link #msm(String, DeviceBuffer, long, DeviceBuffer, int)} with the table {@link #msmTable} built for those bases
   * at byte {@code tableAt} of {@code table}: the same value, computed with fewer additions per scalar.
   *
   * @throws IllegalStateException when no table of these bases is there
   */
  MsmRun<G1> msm(String owner, DeviceBuffer bases, long basesAt, DeviceBuffer scalars, int scalarsAt, DeviceBuffer table, long tableAt);

  /** Copies G2 bases (affine points) from the host into {@code dst} at byte offset {@code at}. */
  void writeG2Bases(DeviceBuffer dst, long at, G2Bases bases);

  /**
   * Launches a G2 MSM (b_g2_msm on the device): for each G2 base i written at byte offset {@code basesAt} of
   * {@code bases}, the scalar at element offset {@code scalarsAt + i} of {@code scalars} times it, summed.
   *
   * @throws BufferNotLiveException (USE_AFTER_FREE) when a buffer is not live
   */
  MsmRun<G2> g2Msm(String owner, DeviceBuffer bases, long basesAt, DeviceBuffer scalars, int scalarsAt);

  /** Setup's fixed-base multiplication where these kernels run; the CPU's unless the device has its own. */
  default G1FixedBase fixedBase() {
    return G1FixedBase.CPU;
  }

  /** Device time spent in the NTT and MSM kernels so far, where the device measures it (device events); else empty. */
  default OptionalDouble kernelSeconds() {
    return OptionalDouble.empty();
  }
}
