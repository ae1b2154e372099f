package dev.interlock.gpu.cuda;

import dev.interlock.impl.lincheck.DesignLincheck;
import dev.interlock.model.TestDesigns;

/**
 * impl's DesignLincheck with the engine on the JVM's one CudaDevice ({@link LincheckGpu}), reset for each Lincheck
 * invocation: nothing live or cached when a scenario starts.
 *
 * <p>Public, as are its operation and its Spec's, because Lincheck calls them reflectively.
 */
public abstract class CudaDesignLincheck extends DesignLincheck {

  /** A fresh engine for {@code design} on the shared device, reset; none where there is no GPU (the test skips). */
  protected CudaDesignLincheck(String design) {
    super(TestDesigns.shipped(design), resetDevice());
  }

  private static CudaDevice resetDevice() {
    CudaDevice device = LincheckGpu.device();
    if (device != null) {
      device.reset();
    }
    return device;
  }
}
