package dev.interlock.impl.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.interlock.model.TestDesigns;
import dev.interlock.model.state.Phase;
import dev.interlock.model.state.Violation;
import dev.interlock.model.state.ViolationKind;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The union of kernel intervals from hand-made event logs, with failed and abandoned kernels. */
class KernelBusyTest {
  private static final String NTT = "kernel ntt_msm uses staged scratch";
  private final List<Event> log = new ArrayList<>();

  private void at(long nanos, String thread, String step, Optional<Phase> phase, boolean failed) {
    Optional<Violation> failure = failed ? Optional.of(new Violation(ViolationKind.OOM, "injected")) : Optional.empty();
    log.add(new Event(log.size() + 1, thread, 0, TestDesigns.step(step), phase, 0, 0, nanos, failure));
  }

  private void at(long nanos, String thread, String step, Phase phase) {
    at(nanos, thread, step, Optional.of(phase), false);
  }

  @Test
  void overlappingKernelsCountOnceAndGapsNotAtAll() {
    at(10, "w#0", NTT, Phase.BEGIN);
    at(15, "w#1", NTT, Phase.BEGIN);
    at(20, "w#0", NTT, Phase.END);
    at(30, "w#1", NTT, Phase.END);
    at(40, "w#0", NTT, Phase.BEGIN);
    at(45, "w#0", NTT, Phase.END);
    at(50, "w#1", "cpu b_g2_msm", Phase.BEGIN);
    at(90, "w#1", "cpu b_g2_msm", Phase.END);
    assertThat(KernelBusy.nanos(log)).isEqualTo(20 + 5);
    assertThat(KernelBusy.fraction(log, 100e-9)).isEqualTo(0.25);
  }

  @Test
  void anAbandonedOrFailedKernelDoesNotStopTheCount() {
    at(0, "w#0", NTT, Phase.BEGIN); // abandoned: its thread goes on without an end
    at(5, "w#0", "free staged", Optional.empty(), false);
    at(10, "w#1", NTT, Optional.of(Phase.BEGIN), true); // a failed launch enters nothing
    at(20, "w#1", NTT, Phase.BEGIN);
    at(30, "w#1", NTT, Phase.END);
    at(40, "w#0", NTT, Phase.BEGIN);
    at(50, "w#0", NTT, Optional.of(Phase.END), true); // failed at its await: it ran until then
    assertThat(KernelBusy.nanos(log)).isEqualTo(10 + 10);
  }

  @Test
  void noKernelsIsZero() {
    at(0, "w#0", "cpu synthesize", Phase.BEGIN);
    at(10, "w#0", "cpu synthesize", Phase.END);
    assertThat(KernelBusy.nanos(log)).isZero();
    assertThat(KernelBusy.fraction(List.of(), 1)).isZero();
  }
}
