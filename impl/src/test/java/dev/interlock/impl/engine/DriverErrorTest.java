package dev.interlock.impl.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.interlock.impl.api.DriverError;
import dev.interlock.impl.device.DriverOomDevice;
import dev.interlock.impl.device.SimulatedDevice;
import dev.interlock.impl.pipeline.InterpretedPipeline;
import dev.interlock.model.TestDesigns;
import dev.interlock.model.design.Design;
import dev.interlock.model.trace.ReplayResult;
import dev.interlock.model.trace.Trace;
import dev.interlock.model.trace.TraceFormat;
import org.junit.jupiter.api.Test;

/** A failed job carries the driver's error of the device call that failed, not only a message that may name it. */
class DriverErrorTest {
  private static JobResult.Failed failed(Scheduled.Replay r) {
    return (JobResult.Failed) r.report().results().stream().filter(j -> j instanceof JobResult.Failed).findFirst()
        .orElseThrow();
  }

  @Test
  void anOutOfMemoryThatTheDriverReportedCarriesItsCodeIntoTheJobResult() throws Exception {
    Trace t = TraceFormat.read(TestDesigns.root().resolve("traces/two-lock.oom.trace"));
    Design d = t.params().applyTo(TestDesigns.shipped("two-lock"));
    Scheduled.Replay r = Scheduled.replay(d, t.source(), t, new DriverOomDevice(d.vram()), InterpretedPipeline::new);
    assertThat(r.result()).isInstanceOf(ReplayResult.Confirmed.class);
    JobResult.Failed f = failed(r);
    assertThat(f.violation().message()).as("the message does not name the code").doesNotContain("CUDA_ERROR_");
    assertThat(f.driverError()).contains(DriverOomDevice.OOM);
  }

  @Test
  void theSimulatedDevicesOutOfMemoryHasNoDriverError() throws Exception {
    Trace t = TraceFormat.read(TestDesigns.root().resolve("traces/two-lock.oom.trace"));
    Design d = t.params().applyTo(TestDesigns.shipped("two-lock"));
    Scheduled.Replay r = Scheduled.replay(d, t.source(), t, new SimulatedDevice(d.vram()), InterpretedPipeline::new);
    assertThat(failed(r).driverError()).isEmpty();
  }

  @Test
  void aDriverErrorHasAnUpperCaseNameAndANonZeroCode() {
    assertThatThrownBy(() -> new DriverError("CUDA_ERROR_OUT_OF_MEMORY", 0)).hasMessageContaining("code 0 is success");
    assertThatThrownBy(() -> new DriverError("out of memory", 2)).hasMessageContaining("'out of memory'");
  }
}
