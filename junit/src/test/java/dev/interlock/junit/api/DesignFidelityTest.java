package dev.interlock.junit.api;

import static dev.interlock.junit.api.InterlockAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.interlock.impl.device.DriverOomDevice;
import dev.interlock.model.TestDesigns;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** {@code Interlock.fidelity}: the fidelity library's comparison from a user's tests, and its assertions. */
class DesignFidelityTest {
  private static final Path TWO_LOCK = TestDesigns.path("two-lock");
  private static final Path SINGLE_LOCK = TestDesigns.path("single-lock");

  @Test
  void twoLocksCounterexampleReplaysOnTheSimulatedDevice() {
    FidelityResult r = Interlock.fidelity(TWO_LOCK).run();
    assertThat(r).agrees();
    assertThat(r.verdict()).isEqualTo("OOM");
    assertThat(r.model()).isEqualTo("OOM at 9");
    assertThat(r.device()).isEqualTo("OOM at 9");
    assertThat(r.source()).isEqualTo(TWO_LOCK.toString());
    assertThat(r.design()).isEqualTo("two-lock");
  }

  @Test
  void aSafeDesignsFreeRunsComplete() {
    FidelityResult r = Interlock.fidelity(SINGLE_LOCK).runs(2).seed(5).jitterMicros(50).run();
    assertThat(r).agrees();
    assertThat(r.device()).isEqualTo("2/2 runs complete, nothing live");
    assertThat(r.report()).contains("on the simulated device: 2 free runs per SAFE design, jitter seed 5 up to 50 us")
        .contains("fidelity  agree");
  }

  @Test
  void aLimitDisagreesAndAgreesFailsWithTheComparison() {
    FidelityResult r = Interlock.fidelity(SINGLE_LOCK).maxStates(10).run();
    assertThat(r).disagrees();
    assertThat(r.verdict()).isEqualTo("LIMIT");
    assertThatThrownBy(() -> assertThat(r).agrees()).isInstanceOf(AssertionError.class)
        .hasMessageContaining("expected the device to agree with the model, got DISAGREE")
        .hasMessageContaining("model     LIMIT")
        .hasMessageContaining("device    not compared: the model has no verdict");
  }

  @Test
  void onADeviceThatReportsDriverErrorsAnOomMustCarryTheDrivers() {
    assertThat(Interlock.fidelity(TWO_LOCK).device("driver", DriverOomDevice::new).run()).agrees()
        .satisfies(r -> assertThat(r.device()).isEqualTo("OOM at 9 (CUDA_ERROR_OUT_OF_MEMORY)"));
    FidelityResult lost = Interlock.fidelity(TWO_LOCK).device("lost", vram -> new DriverOomDevice(vram, false)).run();
    assertThat(lost).disagrees();
    assertThatThrownBy(() -> assertThat(lost).agrees()).hasMessageContaining("on the lost device");
  }

  @Test
  void badInputIsAnIllegalArgumentExceptionNamingTheFile() {
    DesignFidelity f = Interlock.fidelity(SINGLE_LOCK);
    assertThatThrownBy(() -> f.runs(0)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage(SINGLE_LOCK + ": runs must be positive, got 0");
    assertThatThrownBy(() -> f.jitterMicros(-1))
        .hasMessage(SINGLE_LOCK + ": jitterMicros must not be negative, got -1");
    assertThatThrownBy(() -> f.maxStates(0)).hasMessage(SINGLE_LOCK + ": maxStates must be positive, got 0");
    assertThatThrownBy(() -> f.device(" ", DriverOomDevice::new)).hasMessageContaining("needs a name");
    assertThatThrownBy(() -> Interlock.fidelity("x.design", "design x\nvram 16GiB\nrole w x1 jobs 1\n  spawn nobody\n"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("x.design:4:");
    assertThatThrownBy(() -> Interlock.fidelity(Path.of("no/such.design")))
        .hasMessageStartingWith("no/such.design:1:1: cannot read file");
  }
}
