package dev.interlock.model.sim;

/**
 * The machine a simulation runs a design on.
 *
 * @param cores         host cores: while the running {@code cpu} steps ask for more, they share them (Simulator)
 * @param gpuConcurrent kernels the GPU runs at once (1: one at a time, FIFO by launch, the default)
 * @param gpuSlowdown   how much longer a kernel takes when it starts beside another one (1 when it never shares)
 */
public record Machine(int cores, int gpuConcurrent, double gpuSlowdown) {
  public Machine {
    if (cores < 1) {
      throw new IllegalArgumentException("a machine needs at least 1 core, got " + cores);
    }
    if (gpuConcurrent < 1) {
      throw new IllegalArgumentException("the GPU runs at least 1 kernel at a time, got " + gpuConcurrent);
    }
    if (!(gpuSlowdown >= 1.0) || Double.isInfinite(gpuSlowdown)) {
      throw new IllegalArgumentException("a shared kernel's slowdown is a factor of at least 1, got " + gpuSlowdown);
    }
  }

  /** One kernel at a time, and {@code cores} host cores. */
  public static Machine withCores(int cores) {
    return new Machine(cores, 1, 1.0);
  }
}
