package dev.interlock.impl.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.interlock.impl.device.SimulatedDevice;
import dev.interlock.impl.pipeline.HandWrittenPipelines;
import dev.interlock.impl.pipeline.InterpretedPipeline;
import dev.interlock.impl.sync.StepGate;
import dev.interlock.model.TestDesigns;
import dev.interlock.model.design.Design;
import dev.interlock.model.trace.ReplayResult;
import dev.interlock.model.trace.Replayer;
import dev.interlock.model.trace.TraceFormat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Traces of free runs (real threads, no scheduler) are linearizations: they replay on the model,
 * because steps that others depend on are recorded together with their operation.
 */
class FreeRunTracesTest {

  @ParameterizedTest
  @ValueSource(strings = {"single-lock", "single-lock-late-release", "reservation", "two-lock"})
  void freeRunTracesReplayOnTheModel(String name) {
    Design d = TestDesigns.shipped(name).withJobs("gpu_worker", 30);
    for (int run = 0; run < 20; run++) {
      for (boolean handWritten : new boolean[] {false, true}) {
        try (SimulatedDevice device = new SimulatedDevice(d.vram())) {
          RunReport r = new Engine(device, StepGate.FREE).run(d, "designs/" + name + ".design",
              handWritten ? HandWrittenPipelines.forDesign(name).orElseThrow() : InterpretedPipeline::new);
          assertThat(Replayer.replay(r.trace(), d)).as("%s run %d (%s):%n%s", name, run, handWritten ? "hand-written" : "interpreted",
              TraceFormat.print(r.trace())).isInstanceOf(ReplayResult.Confirmed.class);
        }
      }
    }
  }

  /**
   * A device-wide sync is recorded where no kernel is in flight in the log: a sync that took effect
   * between another thread's kernel end and that end's record, or before a kernel begin recorded
   * ahead of it, would put it inside a kernel and the trace would not replay.
   */
  @Test
  void aDeviceWideSyncIsRecordedWhereTheModelAllowsIt() {
    Design d = TestDesigns.parse("""
        design sync-between-kernels
        vram 4GiB
        role w x3 jobs 20
          alloc in 1GiB
          kernel k uses in
          free in
          sync
        """);
    for (int run = 0; run < 100; run++) {
      try (SimulatedDevice device = new SimulatedDevice(d.vram())) {
        RunReport r = new Engine(device, StepGate.FREE).run(d, "sync-between-kernels.design", InterpretedPipeline::new);
        assertThat(Replayer.replay(r.trace(), d)).as("run %d:%n%s", run, TraceFormat.print(r.trace()))
            .isInstanceOf(ReplayResult.Confirmed.class);
      }
    }
  }
}
