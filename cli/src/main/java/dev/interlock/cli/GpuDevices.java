package dev.interlock.cli;

import dev.interlock.gpu.cuda.CudaDevice;
import dev.interlock.gpu.cuda.CudaException;
import dev.interlock.gpu.cuda.KernelScratch;
import dev.interlock.impl.api.Device;
import dev.interlock.impl.device.SimulatedDevice;

/** Opens the CUDA device for a command; a missing GPU, or one that cannot give the budget, is bad input (exit 2). */
final class GpuDevices {
  private GpuDevices() {}

  /**
   * Device 0 with {@code budget} bytes of VRAM left to the run (the rest taken by a ballast, so that running out is
   * the driver's own CUDA_ERROR_OUT_OF_MEMORY) and {@code scratch} reserved for the kernels outside it.
   * {@code option} names what asked for the GPU in messages, e.g. "--device gpu".
   */
  static CudaDevice open(String option, long budget, KernelScratch scratch) {
    CudaDevice.unavailable().ifPresent(why -> {
      throw new CliError(option + ": " + why);
    });
    try {
      return CudaDevice.open(budget, scratch);
    } catch (IllegalStateException | IllegalArgumentException | CudaException e) {
      throw new CliError(option + ": " + e.getMessage());
    }
  }

  /**
   * The device a design's steps run on, with {@code vram} bytes: CUDA device 0 with that budget (no kernel scratch)
   * when {@code gpu}, else a simulated device.
   */
  static Device forSteps(boolean gpu, String option, long vram) {
    return forSteps(gpu, option, vram, true);
  }

  /**
   * As {@link #forSteps(boolean, String, long)}; a simulated device logs its driver calls only when {@code logCalls}
   * (CUDA's always does).
   */
  static Device forSteps(boolean gpu, String option, long vram, boolean logCalls) {
    return gpu ? open(option, vram, KernelScratch.NONE) : new SimulatedDevice(vram, logCalls);
  }

}
