package dev.interlock.impl.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.interlock.impl.device.SimulatedDevice;
import dev.interlock.impl.pipeline.InterpretedPipeline;
import dev.interlock.model.TestDesigns;
import dev.interlock.model.design.Design;
import dev.interlock.model.state.Phase;
import dev.interlock.model.state.Violation;
import dev.interlock.model.state.ViolationKind;
import dev.interlock.model.trace.ReplayResult;
import dev.interlock.model.trace.Trace;
import dev.interlock.model.trace.TraceFormat;
import dev.interlock.model.trace.TraceStep;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Overlap counts from a run's events, on hand-made logs and on the model's overlap witnesses replayed on the engine. */
class OverlapsTest {
  private final List<Event> log = new ArrayList<>();

  private void at(String thread, String step, Phase phase) {
    log.add(new Event(log.size() + 1, thread, 0, TestDesigns.step(step), Optional.of(phase), 0, 0, 0, Optional.empty()));
  }

  @Test
  void intervalsOfTwoThreadsThatInterleaveOverlap() {
    at("w#0", "kernel ntt_msm uses staged scratch", Phase.BEGIN);
    at("w#1", "kernel h2d uses staged", Phase.BEGIN);
    at("w#0", "kernel ntt_msm uses staged scratch", Phase.END);
    at("w#1", "kernel h2d uses staged", Phase.END);
    assertThat(Overlaps.count(log, "h2d", "ntt_msm")).isEqualTo(1);
    assertThat(Overlaps.count(log, "ntt_msm", "h2d")).isEqualTo(1);
  }

  @Test
  void aLogThatEndsInsideBothCounts() {
    at("w#0", "kernel ntt_msm uses staged scratch", Phase.BEGIN);
    at("w#1", "cpu synthesize", Phase.BEGIN);
    at("w#1", "cpu synthesize", Phase.END);
    at("w#1", "kernel h2d uses staged", Phase.BEGIN);
    assertThat(Overlaps.count(log, "h2d", "ntt_msm")).isEqualTo(1);
  }

  @Test
  void aRoleThreadAndItsTasksAreOneWorkerUnlessPairsWithinAWorkerAreAskedFor() {
    at("w#0", "kernel ntt_msm uses staged scratch", Phase.BEGIN);
    at("w#0/prep@1", "cpu b_g2_msm", Phase.BEGIN);
    at("w#0/prep@1", "cpu b_g2_msm", Phase.END);
    at("w#0", "kernel ntt_msm uses staged scratch", Phase.END);
    assertThat(Overlaps.count(log, "b_g2_msm", "ntt_msm")).isZero();
    assertThat(Overlaps.count(log, "b_g2_msm", "ntt_msm", true)).isEqualTo(1);
    at("w#1", "kernel ntt_msm uses staged scratch", Phase.BEGIN);
    at("w#0/prep@2", "cpu b_g2_msm", Phase.BEGIN);
    assertThat(Overlaps.count(log, "b_g2_msm", "ntt_msm")).isEqualTo(1);
  }

  @Test
  void backToBackIntervalsAndOneThreadsOwnIntervalsDoNot() {
    at("w#0", "kernel h2d uses staged", Phase.BEGIN);
    at("w#0", "kernel h2d uses staged", Phase.END);
    at("w#1", "kernel ntt_msm uses staged scratch", Phase.BEGIN);
    at("w#1", "kernel ntt_msm uses staged scratch", Phase.END);
    at("w#1", "kernel h2d uses staged", Phase.BEGIN);
    at("w#1", "kernel h2d uses staged", Phase.END);
    assertThat(Overlaps.count(log, "h2d", "ntt_msm")).isZero();
    assertThat(Overlaps.count(log, "h2d", "h2d")).isZero();
    assertThat(Overlaps.count(log, "stage", "ntt_msm")).isZero();
  }

  @Test
  void aFailedEndLeavesTheIntervalAndAFailedBeginNeverEntersIt() {
    Optional<Violation> oom = Optional.of(new Violation(ViolationKind.OOM, "out of memory"));
    log.add(new Event(1, "w#0", 0, TestDesigns.step("kernel ntt_msm uses staged scratch"), Optional.of(Phase.BEGIN), 0, 0, 0,
        Optional.empty()));
    log.add(new Event(2, "w#0", 0, TestDesigns.step("kernel ntt_msm uses staged scratch"), Optional.of(Phase.END), 0, 0, 0, oom));
    log.add(new Event(3, "w#1", 0, TestDesigns.step("kernel h2d uses staged"), Optional.of(Phase.BEGIN), 0, 0, 0, Optional.empty()));
    assertThat(Overlaps.count(log, "h2d", "ntt_msm")).isZero();

    log.clear();
    log.add(new Event(1, "w#0", 0, TestDesigns.step("kernel ntt_msm uses staged scratch"), Optional.of(Phase.BEGIN), 0, 0, 0, oom));
    log.add(new Event(2, "w#1", 0, TestDesigns.step("kernel h2d uses staged"), Optional.of(Phase.BEGIN), 0, 0, 0, Optional.empty()));
    assertThat(Overlaps.count(log, "h2d", "ntt_msm")).isZero();
  }

  @Test
  void eachEntryIntoAnOverlapCountsOnce() {
    at("w#0", "cpu b_g2_msm", Phase.BEGIN);
    at("w#1", "cpu b_g2_msm", Phase.BEGIN);
    at("w#2", "cpu b_g2_msm", Phase.BEGIN);
    at("w#0", "cpu b_g2_msm", Phase.END);
    at("w#1", "cpu b_g2_msm", Phase.END);
    at("w#2", "cpu b_g2_msm", Phase.END);
    // w#1 enters while w#0 is inside, w#2 while w#0 and w#1 are
    assertThat(Overlaps.count(log, "b_g2_msm", "b_g2_msm")).isEqualTo(2);
    assertThat(Overlaps.count(log, "b_g2_msm", "ntt_msm")).isZero();
  }

  @Test
  void theModelsOverlapWitnessesOverlapOnTheEngine() throws Exception {
    for (String[] w : new String[][] {
        {"reservation-32GiB.overlap.trace", "reservation", "h2d", "ntt_msm"},
        {"single-lock.overlap.trace", "single-lock", "b_g2_msm", "ntt_msm"}}) {
      Trace t = TraceFormat.read(TestDesigns.root().resolve("traces/" + w[0]));
      Design d = t.params().applyTo(TestDesigns.shipped(w[1]));
      Scheduled.Replay r = Scheduled.replay(d, t.source(), t, new SimulatedDevice(d.vram()), InterpretedPipeline::new);
      assertThat(r.result()).as(w[0]).isInstanceOf(ReplayResult.Confirmed.class);
      assertThat(Overlaps.count(r.report().events(), w[2], w[3])).as(w[0]).isPositive();
      assertThat(r.report().memory().peakUsed()).as(w[0])
          .isEqualTo(t.steps().stream().mapToLong(TraceStep::used).max().orElseThrow());
    }
  }
}
