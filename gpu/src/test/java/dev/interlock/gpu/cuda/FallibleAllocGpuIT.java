package dev.interlock.gpu.cuda;

import static org.assertj.core.api.Assertions.assertThat;

import dev.interlock.impl.engine.Engine;
import dev.interlock.impl.engine.JobResult;
import dev.interlock.impl.engine.MissingUse;
import dev.interlock.impl.engine.Overlaps;
import dev.interlock.impl.engine.RunReport;
import dev.interlock.impl.engine.Scheduled;
import dev.interlock.impl.pipeline.InterpretedPipeline;
import dev.interlock.impl.sync.StepGate;
import dev.interlock.model.TestDesigns;
import dev.interlock.model.design.Design;
import dev.interlock.model.state.Phase;
import dev.interlock.model.state.ViolationKind;
import dev.interlock.model.trace.Outcome;
import dev.interlock.model.trace.ReplayResult;
import dev.interlock.model.trace.Trace;
import dev.interlock.model.trace.TraceFormat;
import dev.interlock.model.trace.TraceStep;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Allocations with {@code on oom} on real VRAM: the model's traces with a handled and an ignored failure replay on the
 * GPU, each failure being the driver's own CUDA_ERROR_OUT_OF_MEMORY at the transition the model names (phase oom),
 * after which the handler runs or the job goes on without the buffer.
 */
class FallibleAllocGpuIT {

  private static Trace golden(String name) throws Exception {
    return TraceFormat.read(TestDesigns.root().resolve("traces/" + name));
  }

  @Test
  void aHandledFailureIsTheDriversOutOfMemoryAndTheHandlerRunsBesideTheOthersKernel() throws Exception {
    Gpu.assumePresent();
    Trace t = golden("oom-fallback.overlap.trace");
    Design d = t.params().applyTo(TestDesigns.shipped("oom-fallback"));
    try (CudaDevice gpu = CudaDevice.open(d.vram())) {
      Scheduled.Replay r = Scheduled.replay(d, t.source(), t, gpu, InterpretedPipeline::new);
      System.out.printf("[interlock] oom-fallback.overlap.trace on %s: %s, %d driver OOM, peak %d B%n", gpu.name(),
          r.result(), gpu.outOfMemoryErrors(), r.report().memory().peakUsed());
      assertThat(r.result()).isInstanceOf(ReplayResult.Confirmed.class);
      TraceStep failed = r.report().trace().steps().get(2);
      assertThat(failed.phase()).contains(Phase.OOM);
      assertThat(failed.step().text()).isEqualTo("alloc d_a 10GiB");
      assertThat(gpu.outOfMemoryErrors()).as("the driver refused the 10 GiB once").isEqualTo(1);
      assertThat(Overlaps.count(r.report().events(), "plan_tiles", "msm")).isPositive();
      assertThat(r.report().memory().peakUsed()).isEqualTo(t.steps().stream().mapToLong(TraceStep::used).max().orElseThrow());
      assertThat(r.report().swallowed()).isEmpty();
      assertThat(gpu.memory().live()).isZero();
    }
  }

  @Test
  void anIgnoredFailureIsTheDriversOutOfMemoryAndEndsTheTraceAsSwallowed() throws Exception {
    Gpu.assumePresent();
    Trace t = golden("oom-ignore.swallowed.trace");
    Design d = t.params().applyTo(TestDesigns.shipped("oom-ignore"));
    try (CudaDevice gpu = CudaDevice.open(d.vram())) {
      Scheduled.Replay r = Scheduled.replay(d, t.source(), t, gpu, InterpretedPipeline::new);
      System.out.printf("[interlock] oom-ignore.swallowed.trace on %s: %s%n", gpu.name(), r.result());
      assertThat(r.result()).isInstanceOf(ReplayResult.Confirmed.class);
      assertThat(r.report().trace().length()).isEqualTo(t.length());
      assertThat(r.report().trace().outcome()).isInstanceOfSatisfying(Outcome.Violated.class,
          o -> assertThat(o.violation().kind()).isEqualTo(ViolationKind.SWALLOWED_OOM));
      assertThat(r.report().trace().steps().get(t.length() - 1).phase()).contains(Phase.OOM);
      assertThat(r.report().swallowed()).singleElement().satisfies(v -> {
        System.out.println("[interlock]   " + v.message());
        assertThat(v.message()).contains("gpu_worker#1 alloc d_temp 8GiB").contains("CUDA_ERROR_OUT_OF_MEMORY");
      });
      assertThat(gpu.outOfMemoryErrors()).isEqualTo(1);
      assertThat(r.report().failed()).as("an ignored failure fails no job").isZero();
      assertThat(gpu.memory().live()).isZero();
    }
  }

  @Test
  void aFreeRunGoesOnWithoutTheBufferAndTheKernelRunsWithoutIt() {
    Gpu.assumePresent();
    // 4 GiB: the 8 GiB scratch never fits; the handled fast path never does either
    Design d = TestDesigns.parse("""
        design certain
        vram 4GiB
        role w jobs 2
          alloc fast 8GiB
          on oom
            alloc fast 1GiB
          end
          alloc a 1GiB
          alloc t 8GiB async
          on oom ignore
          kernel k uses a t fast
          free t
          free a
          free fast
        """);
    try (CudaDevice gpu = CudaDevice.open(d.vram())) {
      RunReport r = new Engine(gpu, StepGate.FREE).run(d, "certain.design", InterpretedPipeline::new);
      System.out.printf("[interlock] certain on %s: %d swallowed, %s%n", gpu.name(), r.swallowedJobs(),
          r.withoutBuffers().stream().map(MissingUse::describe).toList());
      assertThat(r.results()).hasSize(2).allSatisfy(j -> assertThat(j).isInstanceOf(JobResult.Swallowed.class));
      assertThat(r.swallowed()).hasSize(2).allSatisfy(v -> assertThat(v.message()).contains("CUDA_ERROR_OUT_OF_MEMORY"));
      assertThat(r.withoutBuffers()).hasSize(2).allSatisfy(u -> assertThat(u.buffers()).containsExactly("t"));
      assertThat(r.events()).filteredOn(e -> e.phase().equals(Optional.of(Phase.OOM))).hasSize(4);
      assertThat(gpu.outOfMemoryErrors()).isEqualTo(4);
      assertThat(r.leftover()).isZero();
      assertThat(gpu.memory().live()).isZero();
    }
  }
}
