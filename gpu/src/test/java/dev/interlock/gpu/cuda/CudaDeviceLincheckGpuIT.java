package dev.interlock.gpu.cuda;

import static org.assertj.core.api.Assertions.assertThat;

import dev.interlock.impl.api.DeviceBuffer;
import dev.interlock.impl.lincheck.DeviceLincheck;
import dev.interlock.impl.lincheck.DeviceMemorySpec;
import dev.interlock.impl.lincheck.GpuLincheckRuns;
import dev.interlock.model.design.Sizes;
import dev.interlock.model.state.DeviceMemory;
import java.util.List;
import jcuda.driver.CUstream;
import org.jetbrains.lincheck.LincheckAssertionError;
import org.jetbrains.lincheck.datastructures.IntGen;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Param;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@link CudaDevice} is linearizable against the model's device, {@link DeviceMemory}, on real VRAM: every call, from
 * any number of threads, acts as one atomic step of the model's memory rules, with the driver deciding every figure.
 * impl's {@link DeviceLincheck} operations and buffer naming, as SimulatedDeviceLincheckTest has them, plus the pool's
 * release threshold and what cuMemGetInfo reports.
 *
 * <p>Each Lincheck thread has its own stream, which the sequential specification cannot know; so the operations are
 * those whose figures do not depend on which stream freed what. Kernels run on a stream of their own that frees
 * nothing, so a kernel's end (a synchronization of that stream) releases nothing; {@code sync} synchronizes the
 * device, which releases down to the threshold whichever stream freed the bytes. Buffers are numbered from the last
 * one allocated before the invocation (the device counts on across invocations). Sizes are whole GiB, and so are the
 * figures; cuMemGetInfo's, off by at most {@link CudaDevice#FREE_TOLERANCE}, are rounded to GiB.
 */
@Param(name = "level", gen = IntGen.class, conf = "0:3")
public class CudaDeviceLincheckGpuIT extends DeviceLincheck {
  static final long VRAM = DeviceMemorySpec.VRAM;
  private static final String KERNELS = "lincheck-kernels";

  private final CudaDevice device = LincheckGpu.device();
  private final CUstream kernels = LincheckGpu.kernelStream();

  /** A fresh start on the shared device: nothing live or cached, threshold 0. */
  public CudaDeviceLincheckGpuIT() {
    super(LincheckGpu.device(), resetForLincheck(LincheckGpu.device()));
  }

  /** Resets the device for an invocation and returns the last buffer id so far (0 without a device). */
  private static long resetForLincheck(CudaDevice device) {
    if (device == null) {
      return 0;
    }
    device.reset();
    device.poolThreshold(0);
    return device.lastBufferId();
  }

  @BeforeAll
  static void open() {
    LincheckGpu.open(VRAM);
  }

  @AfterAll
  static void close() {
    LincheckGpu.close();
  }

  /** On the kernels' own stream, which frees nothing. */
  @Override
  protected void kernelOn(DeviceBuffer b) {
    device.onStream(kernels, () -> {
      device.launch(KERNELS, "k", List.of(b), () -> {}).await();
      return null;
    });
  }

  @Operation
  public String threshold(@Param(name = "level") int level) {
    device.poolThreshold(DeviceMemorySpec.THRESHOLDS[level]);
    return "ok";
  }

  /** What cuMemGetInfo reports free, less the ballast's slack, in GiB. */
  @Operation
  public long reportedFree() {
    return Math.round(device.driverFree() / (double) Sizes.GIB);
  }

  @Test
  void theSpecificationFollowsTheModelsMemoryRules() {
    DeviceMemorySpec s = new DeviceMemorySpec();
    assertThat(s.alloc(12, true)).isEqualTo("b1");
    assertThat(s.free(1)).isEqualTo("ok");
    assertThat(s.cached()).isEqualTo(12);
    assertThat(s.reportedFree()).as("cached bytes count as used").isEqualTo(4);
    assertThat(s.kernel(1)).isEqualTo("USE_AFTER_FREE");
    assertThat(s.threshold(1)).isEqualTo("ok");
    assertThat(s.sync()).isEqualTo("ok");
    assertThat(s.cached()).as("released down to the 4 GiB threshold").isEqualTo(4);
    assertThat(s.alloc(6, false)).isEqualTo("b2");
    assertThat(s.cached()).as("a plain alloc that does not fit beside the cache releases it").isEqualTo(4);
    assertThat(s.alloc(8, false)).isEqualTo("b3");
    assertThat(s.cached()).isZero();
    assertThat(s.threshold(0)).isEqualTo("ok");
    assertThat(s.alloc(4, true)).isEqualTo("OOM");
    assertThat(s.cached()).as("threshold 0: a failed async alloc keeps none of the pool's growth").isZero();
    assertThat(s.reportedFree()).isEqualTo(2);
    assertThat(s.threshold(3)).isEqualTo("ok");
    assertThat(s.alloc(4, true)).isEqualTo("OOM");
    assertThat(s.cached()).as("threshold max: it keeps all of it, the free heap").isEqualTo(2);
    assertThat(s.reportedFree()).isZero();
    assertThat(s.threshold(0)).isEqualTo("ok");
    assertThat(s.sync()).isEqualTo("ok");
    assertThat(s.cached()).isZero();
    assertThat(s.liveBuffers()).isEqualTo(2);
  }

  @Test
  void everyExploredInterleavingIsLinearizable() {
    Gpu.assumePresent();
    LincheckAssertionError failure = GpuLincheckRuns.modelCheck(CudaDeviceLincheckGpuIT.class, DeviceMemorySpec.class,
        4, 30, 3, 2, 2, 1, LincheckGpu.guarantees());
    assertThat(failure).as("Lincheck's report").isNull();
  }

  @Test
  void concurrentCallsOnRealThreadsAreLinearizable() {
    Gpu.assumePresent();
    LincheckAssertionError failure = GpuLincheckRuns.stress(CudaDeviceLincheckGpuIT.class, DeviceMemorySpec.class,
        4, 30, 3, 2, 2, 1);
    assertThat(failure).as("Lincheck's report").isNull();
  }
}
