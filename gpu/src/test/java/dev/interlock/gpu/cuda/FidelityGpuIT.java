package dev.interlock.gpu.cuda;

import static org.assertj.core.api.Assertions.assertThat;

import dev.interlock.fidelity.DeviceOutcome;
import dev.interlock.fidelity.Fidelity;
import dev.interlock.fidelity.FidelityDevice;
import dev.interlock.fidelity.FidelityOptions;
import dev.interlock.fidelity.FidelityReport;
import dev.interlock.impl.api.DriverError;
import dev.interlock.model.TestDesigns;
import dev.interlock.model.state.ViolationKind;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The fidelity library on the GPU (what {@code interlock fidelity --device gpu} prints): two-lock's counterexample ends
 * in the driver's own out-of-memory, carried as its code, at the transition the model names; single-lock's free runs
 * complete on real VRAM.
 */
class FidelityGpuIT {
  private static final FidelityOptions GPU =
      FidelityOptions.defaults().withDevice(new FidelityDevice("gpu", CudaDevice::open)).withRuns(3);

  private static FidelityReport compare(String name) {
    FidelityReport r = Fidelity.compare(TestDesigns.shipped(name), TestDesigns.path(name).toString(), GPU);
    System.out.printf("[interlock] fidelity of %s on the GPU: model %s, device %s, %s%n", name, r.model().text(),
        r.device().text(), r.agrees() ? "agree" : "DISAGREE");
    return r;
  }

  @Test
  void twoLocksOutOfMemoryIsTheDriversAndAgrees() {
    Gpu.assumePresent();
    FidelityReport r = compare("two-lock");
    assertThat(r.device()).isEqualTo(new DeviceOutcome.Replayed(ViolationKind.OOM, 9,
        Optional.of(new DriverError("CUDA_ERROR_OUT_OF_MEMORY", 2))));
    assertThat(r.device().text()).isEqualTo("OOM at 9 (CUDA_ERROR_OUT_OF_MEMORY)");
    assertThat(r.agrees()).isTrue();
  }

  @Test
  void singleLocksFreeRunsCompleteOnRealVram() {
    Gpu.assumePresent();
    FidelityReport r = compare("single-lock");
    assertThat(r.device()).isEqualTo(new DeviceOutcome.RunsComplete(3));
    assertThat(r.agrees()).isTrue();
  }
}
