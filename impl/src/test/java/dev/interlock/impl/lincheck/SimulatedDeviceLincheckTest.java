package dev.interlock.impl.lincheck;

import static org.assertj.core.api.Assertions.assertThat;

import dev.interlock.impl.api.DeviceBuffer;
import dev.interlock.impl.api.KernelRun;
import dev.interlock.impl.device.SimulatedDevice;
import dev.interlock.model.state.DeviceMemory;
import java.util.List;
import org.jetbrains.lincheck.LincheckAssertionError;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * {@link SimulatedDevice} is linearizable against the model's device, {@link DeviceMemory}: every
 * call, from any number of threads, acts as one atomic step of the model's memory rules.
 *
 * <p>The operations and buffer naming are {@link DeviceLincheck}'s, which gpu's CudaDeviceLincheckGpuIT shares.
 */
@Tag("lincheck")
public class SimulatedDeviceLincheckTest extends DeviceLincheck {
  /** Kernels launch on a stream that frees nothing, so a kernel's end (a sync of that stream) releases nothing. */
  private static final String KERNELS = "lincheck-kernels";

  public SimulatedDeviceLincheckTest() {
    super(new SimulatedDevice(DeviceMemorySpec.VRAM), 0);
  }

  @Override
  protected void kernelOn(DeviceBuffer b) {
    KernelRun run = device().launch(KERNELS, "k", List.of(b), () -> {});
    run.await();
  }

  @Test
  void theSpecificationFollowsTheModelsMemoryRules() {
    DeviceMemorySpec s = new DeviceMemorySpec();
    assertThat(s.alloc(12, true)).isEqualTo("b1");
    assertThat(s.alloc(6, false)).isEqualTo("OOM");
    assertThat(s.free(1)).isEqualTo("ok");
    assertThat(s.cached()).isEqualTo(12);
    // no synchronization has seen the free: a plain alloc cannot take the bytes back (the driver's rule)
    assertThat(s.alloc(6, false)).isEqualTo("OOM");
    assertThat(s.sync()).isEqualTo("ok");
    assertThat(s.cached()).as("threshold 0: the synchronization released them").isZero();
    assertThat(s.alloc(6, false)).isEqualTo("b2");
    assertThat(s.free(1)).isEqualTo("BAD_FREE");
    assertThat(s.kernel(2)).isEqualTo("ok");
    assertThat(s.used()).isEqualTo(6);
  }

  @Test
  void everyExploredInterleavingIsLinearizable() {
    LincheckAssertionError failure = LincheckRuns.check(SimulatedDeviceLincheckTest.class, DeviceMemorySpec.class,
        new LincheckBudget(10, 100, 3, 2, 2, 1));
    assertThat(failure).as("Lincheck's report").isNull();
  }
}
