/**
 * The engine's {@link dev.interlock.impl.api.Device} on a real CUDA GPU, through JCuda's driver
 * API: cuMemAlloc/cuMemFree for plain buffers, the device's default memory pool
 * (cuMemAllocAsync/cuMemFreeAsync on each worker's own stream, release threshold 0 as in CUDA until
 * the design's {@code pool threshold} sets it, cuMemPoolTrimTo) for async ones, cuCtxSynchronize for
 * {@code sync}, cuStreamSynchronize for {@code sync stream} and a kernel's end, and a real kernel per
 * design kernel. It synchronizes nowhere else, since each synchronization lets the pool release
 * cached bytes. One context is shared by all threads, as in cuzk.
 *
 * <p>The proving kernels ({@link dev.interlock.gpu.cuda.CudaProvingKernels}, the workload's ProvingKernels over a
 * CudaDevice's buffers, opened with it; their launches are {@link dev.interlock.gpu.cuda.Kernels}, sources in
 * gpu/src/main/cuda) take data in the host's own layouts: Fr scalars as the Java vectors' Montgomery limbs, G1 points
 * as blst's limbs; MSM plans and their scratch are {@link dev.interlock.gpu.cuda.MsmPlan}s; scratch is reserved at
 * open, outside the budget ({@link dev.interlock.gpu.cuda.KernelScratch}). Every NTT, quotient and MSM is enqueued on
 * the calling thread's stream between two device events and counts as a running kernel of the device until awaited,
 * failures included.
 *
 * <p>Conventions: the driver decides every out-of-memory (CUDA_ERROR_OUT_OF_MEMORY becomes
 * {@link dev.interlock.impl.device.OutOfDeviceMemoryException}); a VRAM budget makes a large card
 * behave like a smaller one by allocating a ballast once at start, never by a counter of ours.
 * The calls JCuda 12.6.0 lacks (cuDeviceGetDefaultMemPool, cuMemPoolSetAttribute/GetAttribute) go
 * through JNA on JCuda's context.
 */
package dev.interlock.gpu.cuda;
