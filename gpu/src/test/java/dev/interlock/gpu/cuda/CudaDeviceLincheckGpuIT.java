package dev.interlock.gpu.cuda;

import static org.assertj.core.api.Assertions.assertThat;

import dev.interlock.impl.api.DeviceBuffer;
import dev.interlock.impl.device.BufferNotLiveException;
import dev.interlock.impl.device.OutOfDeviceMemoryException;
import dev.interlock.impl.lincheck.DeviceMemorySpec;
import dev.interlock.impl.lincheck.GpuLincheckRuns;
import dev.interlock.model.design.Sizes;
import dev.interlock.model.state.DeviceMemory;
import java.util.List;
import jcuda.driver.CUstream;
import org.jetbrains.lincheck.LincheckAssertionError;
import org.jetbrains.lincheck.datastructures.BooleanGen;
import org.jetbrains.lincheck.datastructures.IntGen;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Param;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@link CudaDevice} is linearizable against the model's device, {@link DeviceMemory}, on real VRAM: every call, from
 * any number of threads, acts as one atomic step of the model's memory rules, with the driver deciding every figure.
 * The GPU twin of impl's SimulatedDeviceLincheckTest, with the same operations and buffer naming, plus the pool's
 * release threshold and what cuMemGetInfo reports.
 *
 * <p>Each Lincheck thread has its own stream, which the sequential specification cannot know; so the operations are
 * those whose figures do not depend on which stream freed what. Kernels run on a stream of their own that frees
 * nothing, so a kernel's end (a synchronization of that stream) releases nothing; {@code sync} synchronizes the
 * device, which releases down to the threshold whichever stream freed the bytes. Buffers are numbered from the last
 * one allocated before the invocation (the device counts on across invocations). Sizes are whole GiB, and so are the
 * figures; cuMemGetInfo's, off by at most {@link CudaDevice#FREE_TOLERANCE}, are rounded to GiB.
 */
@Param(name = "gib", gen = IntGen.class, conf = "1:12")
@Param(name = "async", gen = BooleanGen.class)
@Param(name = "id", gen = IntGen.class, conf = "1:5")
@Param(name = "level", gen = IntGen.class, conf = "0:3")
public class CudaDeviceLincheckGpuIT {
  static final long VRAM = DeviceMemorySpec.VRAM;
  private static final String OWNER = "lincheck";
  private static final String KERNELS = "lincheck-kernels";

  private final CudaDevice device = LincheckGpu.device();
  private final CUstream kernels = LincheckGpu.kernelStream();
  private final long firstId;

  /** A fresh start on the shared device: nothing live or cached, threshold 0. */
  public CudaDeviceLincheckGpuIT() {
    if (device != null) {
      device.reset();
      device.poolThreshold(0);
      firstId = device.lastBufferId();
    } else {
      firstId = 0;
    }
  }

  @BeforeAll
  static void open() {
    LincheckGpu.open(VRAM);
  }

  @AfterAll
  static void close() {
    LincheckGpu.close();
  }

  @Operation
  public String alloc(@Param(name = "gib") int gib, @Param(name = "async") boolean async) {
    try {
      return "b" + (device.allocate(OWNER, "buf", gib * Sizes.GIB, async).id() - firstId);
    } catch (OutOfDeviceMemoryException e) {
      return "OOM";
    }
  }

  @Operation
  public String free(@Param(name = "id") int id) {
    DeviceBuffer b = live(id);
    if (b == null) {
      return "BAD_FREE";
    }
    try {
      device.free(b);
      return "ok";
    } catch (BufferNotLiveException e) {
      return e.kind().name();
    }
  }

  /** Launches a kernel that uses buffer {@code id} on the kernels' stream and waits for it. */
  @Operation
  public String kernel(@Param(name = "id") int id) {
    DeviceBuffer b = live(id);
    if (b == null) {
      return "USE_AFTER_FREE";
    }
    try {
      device.onStream(kernels, () -> {
        device.launch(KERNELS, "k", List.of(b), () -> {}).await();
        return null;
      });
      return "ok";
    } catch (BufferNotLiveException e) {
      return e.kind().name();
    }
  }

  @Operation
  public String trim() {
    device.trim();
    return "ok";
  }

  /** cuCtxSynchronize: waits out kernels that other threads are inside, and lets the pool release to its threshold. */
  @Operation
  public String sync() throws InterruptedException {
    device.synchronize();
    return "ok";
  }

  @Operation
  public String threshold(@Param(name = "level") int level) {
    device.poolThreshold(DeviceMemorySpec.THRESHOLDS[level]);
    return "ok";
  }

  @Operation
  public long live() {
    return device.memory().live() / Sizes.GIB;
  }

  @Operation
  public long cached() {
    return device.memory().cached() / Sizes.GIB;
  }

  @Operation
  public long used() {
    return device.memory().used() / Sizes.GIB;
  }

  /** What cuMemGetInfo reports free, less the ballast's slack, in GiB. */
  @Operation
  public long reportedFree() {
    return Math.round(device.driverFree() / (double) Sizes.GIB);
  }

  @Operation
  public int liveBuffers() {
    return device.liveBuffers(null).size();
  }

  private DeviceBuffer live(int id) {
    for (DeviceBuffer b : device.liveBuffers(null)) {
      if (b.id() - firstId == id) {
        return b;
      }
    }
    return null;
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
