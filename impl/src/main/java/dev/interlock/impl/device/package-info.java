/**
 * The devices the engine talks to, behind {@link dev.interlock.impl.api.Device}: the simulated
 * device (device-global memory as the model has it: one heap, one stream-ordered pool; kernels,
 * synchronization) and the failures a device reports.
 *
 * <p>Conventions: every failure the model names is a {@link dev.interlock.impl.device.DeviceException}
 * subclass that carries the numbers (an allocation that does not fit is
 * {@link dev.interlock.impl.device.OutOfDeviceMemoryException}, as CUDA returns
 * CUDA_ERROR_OUT_OF_MEMORY); operations that wait come as a blocking and a non-blocking
 * ({@code try}) form, so a deterministic scheduler can drive them without a thread ever parking
 * outside its control.
 */
package dev.interlock.impl.device;
