package dev.interlock.gpu.cuda;

import static dev.interlock.model.design.Sizes.GIB;
import static org.assertj.core.api.Assertions.assertThat;

import dev.interlock.impl.api.DeviceCall;
import dev.interlock.impl.device.SimulatedDevice;
import dev.interlock.impl.engine.Engine;
import dev.interlock.impl.engine.RunReport;
import dev.interlock.impl.pipeline.InterpretedPipeline;
import dev.interlock.impl.sync.StepGate;
import dev.interlock.model.TestDesigns;
import dev.interlock.model.design.Design;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * CudaDevice logs every driver call a capture records (docs/capture.md, "The engine's own device calls"): the ballast
 * at open and its frees at close, each allocation with its pointer and result (the driver's OOM as rc 2), a free of a
 * pointer it allocated, one touch launch per buffer of a kernel step; and its workers' calls have the shape the
 * simulated device logs for the same design.
 */
class DeviceCallsGpuIT {

  /** Per worker thread, its calls as (kind, bytes, kernel, rc), pointers and streams left out. */
  private static Map<String, List<String>> shapes(List<DeviceCall> calls) {
    return calls.stream().filter(c -> c.threadName().startsWith("gpu_worker"))
        .collect(Collectors.groupingBy(DeviceCall::threadName,
            Collectors.mapping(c -> c.kind() + " " + c.bytes() + " " + c.kernel() + " rc=" + c.rc(), Collectors.toList())));
  }

  @Test
  void singleLockLogsBallastStepsAndFreesCallForCall() {
    Gpu.assumePresent();
    Design d = TestDesigns.shipped("single-lock");
    List<DeviceCall> calls;
    RunReport r;
    try (CudaDevice gpu = CudaDevice.open(d.vram())) {
      r = new Engine(gpu, StepGate.FREE).run(d, "single-lock.design", InterpretedPipeline::new);
      gpu.close();
      calls = gpu.deviceCalls();
    }
    assertThat(r.completed()).isEqualTo(6);
    List<DeviceCall> ballast = calls.stream().filter(c -> c.kind() == DeviceCall.Kind.ALLOC && c.threadName().equals("main")).toList();
    System.out.println("[interlock] single-lock on the GPU: " + calls.size() + " device calls, " + ballast.size() + " ballast blocks");
    assertThat(ballast).isNotEmpty().allMatch(c -> c.bytes() <= GIB && c.ok() && c.ptr() != 0);
    assertThat(calls.get(0).kind()).isEqualTo(DeviceCall.Kind.POOL_THRESHOLD);
    assertThat(calls.stream().filter(c -> c.kind() == DeviceCall.Kind.MEMINFO)).isNotEmpty().allMatch(c -> c.total() > c.bytes());
    List<DeviceCall> steps = calls.stream().filter(c -> c.kind() == DeviceCall.Kind.ALLOC && c.threadName().startsWith("gpu_worker")).toList();
    assertThat(steps.stream().filter(c -> c.bytes() == 12 * GIB)).hasSize(6);
    assertThat(steps.stream().filter(c -> c.bytes() == 2 * GIB)).hasSize(6);
    assertThat(calls.stream().filter(c -> c.kind() == DeviceCall.Kind.LAUNCH)).hasSize(12).allMatch(c -> c.kernel().equals("touch") && c.stream() != 0);
    // every free frees a live pointer of an earlier allocation; at close nothing is left
    Set<Long> live = new HashSet<>();
    for (DeviceCall c : calls) {
      if (c.kind() == DeviceCall.Kind.ALLOC && c.ok()) {
        assertThat(live.add(c.ptr())).as("call %d allocates a live pointer", c.seq()).isTrue();
      } else if (c.kind() == DeviceCall.Kind.FREE) {
        assertThat(live.remove(c.ptr())).as("call %d frees a live pointer", c.seq()).isTrue();
      }
    }
    assertThat(live).isEmpty();
    assertThat(calls.stream().filter(c -> c.kind() == DeviceCall.Kind.FREE)).hasSize(12 + ballast.size());
    // the simulated device logs the same calls per worker (single-lock's jobs are alike, whichever worker takes which)
    SimulatedDevice sim = new SimulatedDevice(d.vram());
    new Engine(sim, StepGate.FREE).run(d, "single-lock.design", InterpretedPipeline::new);
    assertThat(shapes(calls)).isEqualTo(shapes(sim.deviceCalls()));
  }

  @Test
  void twoLockLogsTheDriversOutOfMemoryAsRc2() {
    Gpu.assumePresent();
    Design d = TestDesigns.shipped("two-lock");
    try (CudaDevice gpu = CudaDevice.open(d.vram())) {
      RunReport r = new Engine(gpu, StepGate.FREE).run(d, "two-lock.design", InterpretedPipeline::new);
      List<DeviceCall> failed = gpu.deviceCalls().stream().filter(c -> c.kind() == DeviceCall.Kind.ALLOC && !c.ok()).toList();
      System.out.println("[interlock] two-lock on the GPU: " + r.failed() + " jobs failed, " + failed.size() + " allocations refused");
      assertThat(failed).hasSize((int) gpu.outOfMemoryErrors())
          .allMatch(c -> c.rc() == DeviceCall.OUT_OF_MEMORY && c.ptr() == 0 && c.bytes() == 12 * GIB);
    }
  }
}
