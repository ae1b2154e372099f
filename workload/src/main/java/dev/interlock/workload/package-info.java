/**
 * What binds the prover to the engine: {@link dev.interlock.workload.ProvingWorkload} runs Groth16 partitions as the work
 * behind a design's {@code cpu} and {@code kernel} steps, and {@link dev.interlock.workload.ProvingKernels} is the one
 * seam through which that work reaches a device (its CPU implementation {@link dev.interlock.workload.CpuProvingKernels},
 * and the GPU backend's CUDA kernels).
 *
 * <p>Conventions: kernels work on the engine's {@link dev.interlock.impl.api.DeviceBuffer}s and are launched through
 * the device's {@code launch}, so they count as running kernels and a freed buffer is USE_AFTER_FREE; scalars are
 * Montgomery-form Fr vectors (the prover's layout); a design step the workload has no stage for is refused when the
 * pipeline binds it, never ignored.
 */
package dev.interlock.workload;
