package dev.interlock.gpu.cuda;

import java.util.Optional;
import org.junit.jupiter.api.Assumptions;

/** GPU tests run where a CUDA device is, and skip visibly, with the reason, where none is. */
final class Gpu {
  private static final Optional<String> UNAVAILABLE = CudaDevice.unavailable();

  private Gpu() {}

  /** Skips the calling test (with the reason printed and reported) unless a CUDA device is present. */
  static void assumePresent() {
    if (UNAVAILABLE.isPresent()) {
      System.out.println("[interlock] GPU test skipped: " + UNAVAILABLE.get());
    }
    Assumptions.assumeTrue(UNAVAILABLE.isEmpty(), () -> "no GPU: " + UNAVAILABLE.get());
  }
}
