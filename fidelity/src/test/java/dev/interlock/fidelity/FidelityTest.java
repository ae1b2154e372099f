package dev.interlock.fidelity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.interlock.impl.device.DriverOomDevice;
import dev.interlock.impl.device.SimulatedDevice;
import dev.interlock.model.TestDesigns;
import dev.interlock.model.check.Verdict;
import dev.interlock.model.design.Design;
import dev.interlock.model.state.ViolationKind;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The model's verdicts compared with the engine's runs, on the simulated device and on devices made to differ. */
class FidelityTest {
  private static final FidelityOptions THREE_RUNS = FidelityOptions.defaults().withRuns(3);

  private static FidelityReport compare(String name, FidelityOptions o) {
    return Fidelity.compare(TestDesigns.shipped(name), TestDesigns.path(name).toString(), o);
  }

  @Test
  void aCounterexampleReplaysToTheSameOutcomeAtTheSameTransition() {
    FidelityReport r = compare("two-lock", THREE_RUNS);
    assertThat(r.model().verdict()).isInstanceOf(Verdict.Unsafe.class);
    assertThat(r.model().text()).isEqualTo("OOM at 9");
    assertThat(r.device()).isEqualTo(new DeviceOutcome.Replayed(ViolationKind.OOM, 9, Optional.empty()));
    assertThat(r.device().text()).isEqualTo("OOM at 9");
    assertThat(r.agrees()).isTrue();
  }

  @Test
  void aSafeDesignsFreeRunsCompleteWithNothingLive() {
    FidelityReport r = compare("single-lock", THREE_RUNS);
    assertThat(r.model().text()).isEqualTo("SAFE");
    assertThat(r.device()).isEqualTo(new DeviceOutcome.RunsComplete(3));
    assertThat(r.device().text()).isEqualTo("3/3 runs complete, nothing live");
    assertThat(r.agrees()).isTrue();
  }

  @Test
  void aSwallowedOomReplaysToo() {
    FidelityReport r = compare("oom-ignore", THREE_RUNS);
    assertThat(r.device().text()).isEqualTo("SWALLOWED_OOM at 4");
    assertThat(r.agrees()).isTrue();
  }

  @Test
  void aVerdictStoppedAtTheLimitIsNotComparedAndDoesNotAgree() {
    FidelityReport r = compare("single-lock", THREE_RUNS.withMaxStates(10));
    assertThat(r.model().text()).isEqualTo("LIMIT");
    assertThat(r.device()).isEqualTo(new DeviceOutcome.NotCompared());
    assertThat(r.agrees()).isFalse();
  }

  @Test
  void aRecordedSafeVerdictIsTakenAsGivenAndOnlyRun() {
    Design d = TestDesigns.shipped("single-lock");
    FidelityReport r =
        Fidelity.compare(d, "single-lock.design", ModelVerdict.recordedSafe(160), THREE_RUNS.withRuns(2));
    assertThat(r.model().text()).isEqualTo("SAFE (recorded)");
    assertThat(r.model().states()).isEqualTo(160);
    assertThat(r.device().text()).isEqualTo("2/2 runs complete, nothing live");
    assertThat(r.agrees()).isTrue();
  }

  @Test
  void aDeviceWithMoreMemoryThanTheModelsDivergesFromTheCounterexample() {
    FidelityDevice roomy = new FidelityDevice("roomy", vram -> new SimulatedDevice(2 * vram));
    FidelityReport r = compare("two-lock", THREE_RUNS.withDevice(roomy));
    assertThat(r.device()).isInstanceOf(DeviceOutcome.Diverged.class);
    assertThat(r.device().text()).startsWith("diverges at ");
    assertThat(r.agrees()).isFalse();
  }

  @Test
  void aDeviceWithLessMemoryThanTheModelsFailsASafeDesignsFreeRun() {
    FidelityDevice small = new FidelityDevice("small", vram -> new SimulatedDevice(vram / 2));
    FidelityReport r = compare("single-lock", THREE_RUNS.withDevice(small).withSeed(7));
    assertThat(r.device()).isInstanceOf(DeviceOutcome.RunFailed.class);
    DeviceOutcome.RunFailed f = (DeviceOutcome.RunFailed) r.device();
    assertThat(f.run()).isEqualTo(1);
    assertThat(f.seed()).isEqualTo(7);
    assertThat(f.text()).startsWith("run 1 (seed 7): job ").contains("failed: OOM");
    assertThat(r.agrees()).isFalse();
  }

  @Test
  void onADeviceThatReportsDriverErrorsTheOomCarriesTheDriversCode() {
    // the device's message does not name CUDA_ERROR_OUT_OF_MEMORY: only the carried code can say it
    FidelityDevice driver = new FidelityDevice("driver", DriverOomDevice::new);
    FidelityReport r = compare("two-lock", THREE_RUNS.withDevice(driver));
    assertThat(r.device())
        .isEqualTo(new DeviceOutcome.Replayed(ViolationKind.OOM, 9, Optional.of(DriverOomDevice.OOM)));
    assertThat(r.device().text()).isEqualTo("OOM at 9 (CUDA_ERROR_OUT_OF_MEMORY)");
    assertThat(r.agrees()).isTrue();
  }

  @Test
  void onADeviceThatReportsDriverErrorsAnOomWithoutTheDriversCodeDisagrees() {
    FidelityDevice lost = new FidelityDevice("lost", vram -> new DriverOomDevice(vram, false));
    FidelityReport r = compare("two-lock", THREE_RUNS.withDevice(lost));
    assertThat(r.device()).isEqualTo(new DeviceOutcome.Replayed(ViolationKind.OOM, 9, Optional.empty()));
    assertThat(r.agrees()).isFalse();
  }

  @Test
  void optionsAreValidated() {
    assertThatThrownBy(() -> THREE_RUNS.withRuns(0)).hasMessage("runs must be positive, got 0");
    assertThatThrownBy(() -> THREE_RUNS.withJitterMicros(-1)).hasMessage("jitterMicros must not be negative, got -1");
    assertThatThrownBy(() -> THREE_RUNS.withMaxStates(0)).hasMessage("maxStates must be positive, got 0");
    assertThatThrownBy(() -> new FidelityDevice(" ", SimulatedDevice::new)).hasMessageContaining("needs a name");
  }

  @Test
  void aReportWhoseDeviceOutcomeDoesNotAnswerTheModelsVerdictIsRejected() {
    ModelVerdict safe = ModelVerdict.recordedSafe(1);
    assertThatThrownBy(() -> new FidelityReport("x", safe, new DeviceOutcome.RunsComplete(1), false))
        .hasMessageContaining("does not answer model verdict SAFE");
    assertThatThrownBy(() -> new FidelityReport("x", safe, new DeviceOutcome.RunFailed(1, 1, "boom"), true))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new FidelityReport("x", safe, new DeviceOutcome.NotCompared(), false))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new FidelityReport("x", safe, new DeviceOutcome.Replayed(ViolationKind.OOM, 9,
        Optional.empty()), true)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new ModelVerdict(new Verdict.Unsafe(new dev.interlock.model.state.Violation(
        ViolationKind.OOM, "m")), Optional.empty(), 1, false)).hasMessageContaining("counterexample");
  }
}
