package dev.interlock.impl.lincheck;

import static org.assertj.core.api.Assertions.assertThat;

import dev.interlock.impl.api.DeviceBuffer;
import dev.interlock.impl.api.KernelRun;
import dev.interlock.impl.device.BufferNotLiveException;
import dev.interlock.impl.device.OutOfDeviceMemoryException;
import dev.interlock.impl.device.SimulatedDevice;
import dev.interlock.model.design.Sizes;
import dev.interlock.model.state.DeviceMemory;
import java.util.List;
import org.jetbrains.lincheck.LincheckAssertionError;
import org.jetbrains.lincheck.datastructures.BooleanGen;
import org.jetbrains.lincheck.datastructures.IntGen;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Param;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * {@link SimulatedDevice} is linearizable against the model's device, {@link DeviceMemory}: every
 * call, from any number of threads, acts as one atomic step of the model's memory rules.
 *
 * <p>Results are comparable between the two because buffers are named by the device's own ids,
 * which count successful allocations from 1 (the specification counts the same way): alloc
 * answers the id ("b3") or "OOM"; free and kernel take an id (1..5) and look the buffer up among
 * the live ones, answering "ok", or BAD_FREE / USE_AFTER_FREE when no such buffer is live. A
 * lookup that finds the buffer and a free or launch that then finds it gone (freed by another
 * thread in between) answer the same verdict, so each operation still has one point where it
 * takes effect. Sizes are whole GiB, and so are the figures live(), cached() and used() report.
 */
@Tag("lincheck")
@Param(name = "gib", gen = IntGen.class, conf = "1:12")
@Param(name = "async", gen = BooleanGen.class)
@Param(name = "id", gen = IntGen.class, conf = "1:5")
public class SimulatedDeviceLincheckTest {
  static final long VRAM = DeviceMemorySpec.VRAM;
  private static final String OWNER = "lincheck";
  /** Kernels launch on a stream that frees nothing, so a kernel's end (a sync of that stream) releases nothing. */
  private static final String KERNELS = "lincheck-kernels";

  private final SimulatedDevice device = new SimulatedDevice(VRAM);

  @Operation
  public String alloc(@Param(name = "gib") int gib, @Param(name = "async") boolean async) {
    try {
      return "b" + device.allocate(OWNER, "buf", gib * Sizes.GIB, async).id();
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

  /** Launches a kernel that uses buffer {@code id} and waits for it. */
  @Operation
  public String kernel(@Param(name = "id") int id) {
    DeviceBuffer b = live(id);
    if (b == null) {
      return "USE_AFTER_FREE";
    }
    try {
      KernelRun run = device.launch(KERNELS, "k", List.of(b), () -> {});
      run.await();
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

  /** cudaDeviceSynchronize: waits out kernels that other threads are inside. */
  @Operation
  public String sync() throws InterruptedException {
    device.synchronize();
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

  @Operation
  public int liveBuffers() {
    return device.liveBuffers(null).size();
  }

  private DeviceBuffer live(int id) {
    for (DeviceBuffer b : device.liveBuffers(null)) {
      if (b.id() == id) {
        return b;
      }
    }
    return null;
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
