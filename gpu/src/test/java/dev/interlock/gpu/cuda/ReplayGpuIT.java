package dev.interlock.gpu.cuda;

import static dev.interlock.model.design.Sizes.GIB;
import static org.assertj.core.api.Assertions.assertThat;

import dev.interlock.impl.api.DriverError;
import dev.interlock.impl.engine.Engine;
import dev.interlock.impl.engine.JobResult;
import dev.interlock.impl.engine.Overlaps;
import dev.interlock.impl.engine.RunReport;
import dev.interlock.impl.engine.Scheduled;
import dev.interlock.impl.pipeline.HandWrittenPipelines;
import dev.interlock.impl.pipeline.InterpretedPipeline;
import dev.interlock.impl.sync.StepGate;
import dev.interlock.model.TestDesigns;
import dev.interlock.model.design.Design;
import dev.interlock.model.state.ViolationKind;
import dev.interlock.model.trace.ReplayResult;
import dev.interlock.model.trace.Trace;
import dev.interlock.model.trace.TraceFormat;
import dev.interlock.model.trace.TraceStep;
import org.junit.jupiter.api.Test;

/** The model's counterexamples replay on real VRAM; the safe design stays within it on real threads. */
class ReplayGpuIT {

  @Test
  void twoLockCounterexampleGivesTheDriversOutOfMemoryAtTheSameTransition() throws Exception {
    Gpu.assumePresent();
    Trace t = TraceFormat.read(TestDesigns.root().resolve("traces/two-lock.oom.trace"));
    Design d = t.params().applyTo(TestDesigns.shipped("two-lock"));
    for (String pipeline : new String[] {"hand-written", "interpreted"}) {
      try (CudaDevice gpu = CudaDevice.open(d.vram())) {
        Scheduled.Replay r = Scheduled.replay(d, t.source(), t, gpu,
            pipeline.equals("interpreted") ? InterpretedPipeline::new : HandWrittenPipelines.forDesign("two-lock").orElseThrow());
        System.out.println("[interlock] two-lock on " + gpu.name() + " (" + pipeline + "): " + r.result());
        assertThat(r.result()).isInstanceOf(ReplayResult.Confirmed.class);
        JobResult.Failed f = (JobResult.Failed) r.report().results().stream().filter(j -> j instanceof JobResult.Failed).findFirst().orElseThrow();
        System.out.println("[interlock]   " + f.violation().message());
        assertThat(f.violation().kind()).isEqualTo(ViolationKind.OOM);
        assertThat(f.violation().message()).contains("CUDA_ERROR_OUT_OF_MEMORY");
        assertThat(f.driverError()).as("the driver's code, carried")
            .contains(new DriverError("CUDA_ERROR_OUT_OF_MEMORY", 2));
        assertThat(f.step()).isEqualTo("alloc staged 12GiB");
        assertThat(r.report().trace().length()).isEqualTo(t.length());
        assertThat(gpu.memory().live()).isZero();
      }
    }
  }

  @Test
  void theModelsOverlapWitnessesReplayOnRealVramWithinTheBudget() throws Exception {
    Gpu.assumePresent();
    // reservation with room for two reservations stages one partition while another worker's kernels run: both
    // staged buffers (24 GiB) and a scratch are live on the real device at once, inside the 32 GiB budget
    for (String[] w : new String[][] {
        {"reservation-32GiB.overlap.trace", "reservation", "h2d", "ntt_msm"},
        {"single-lock.overlap.trace", "single-lock", "b_g2_msm", "ntt_msm"}}) {
      Trace t = TraceFormat.read(TestDesigns.root().resolve("traces/" + w[0]));
      Design d = t.params().applyTo(TestDesigns.shipped(w[1]));
      try (CudaDevice gpu = CudaDevice.open(d.vram())) {
        Scheduled.Replay r = Scheduled.replay(d, t.source(), t, gpu, InterpretedPipeline::new);
        System.out.printf("[interlock] %s on %s: %s, peak %d B of %d B%n", w[0], gpu.name(), r.result(),
            r.report().memory().peakUsed(), d.vram());
        assertThat(r.result()).as(w[0]).isInstanceOf(ReplayResult.Confirmed.class);
        assertThat(Overlaps.count(r.report().events(), w[2], w[3])).as(w[0]).isPositive();
        assertThat(r.report().memory().peakUsed()).as(w[0]).isLessThanOrEqualTo(d.vram())
            .isEqualTo(t.steps().stream().mapToLong(TraceStep::used).max().orElseThrow());
      }
    }
  }

  @Test
  void singleLockRunsOnRealVramWithinTheBudget() {
    Gpu.assumePresent();
    Design d = TestDesigns.shipped("single-lock").withJobs("gpu_worker", 10);
    for (int run = 0; run < 3; run++) {
      try (CudaDevice gpu = CudaDevice.open(16 * GIB)) {
        RunReport r = new Engine(gpu, StepGate.FREE).run(d, "designs/single-lock.design", HandWrittenPipelines.forDesign("single-lock").orElseThrow());
        System.out.printf("[interlock] single-lock on GPU run %d: %d completed, %d failed, peak %d B, %.3f s%n", run, r.completed(), r.failed(),
            r.memory().peakUsed(), r.seconds());
        assertThat(r.completed()).isEqualTo(30);
        assertThat(r.memory().peakUsed()).isLessThanOrEqualTo(16 * GIB).isGreaterThanOrEqualTo(14 * GIB);
      }
    }
  }
}
