package dev.interlock.impl.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.interlock.impl.device.SimulatedDevice;
import dev.interlock.impl.pipeline.InterpretedPipeline;
import dev.interlock.impl.sync.StepGate;
import dev.interlock.model.TestDesigns;
import dev.interlock.model.design.Design;
import dev.interlock.model.state.Phase;
import dev.interlock.model.state.Violation;
import dev.interlock.model.state.ViolationKind;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Lock holds and waits from a run's events: on a hand-made log, and on free runs of the shipped designs. */
class LockHoldsTest {
  private final List<Event> log = new ArrayList<>();

  private void at(long millis, String thread, String step) {
    log.add(new Event(log.size() + 1, thread, 0, TestDesigns.step(step), Optional.empty(), 0, 0, millis * 1_000_000, Optional.empty()));
  }

  @Test
  void holdsRunFromTakingToGivingBackAndWaitsFromTheThreadsPreviousEvent() {
    at(0, "w#0", "lock m");
    at(1, "w#1", "alloc staged 1GiB");
    at(10, "w#0", "unlock m");
    at(11, "w#1", "lock m"); // w#1 waited from 1 to 11
    at(14, "w#1", "acquire s 2");
    at(30, "w#1", "unlock m");
    at(31, "w#1", "release s 2");
    Map<String, LockHolds.Figures> f = LockHolds.of(log);
    assertThat(f.keySet()).containsExactly("m", "s");
    assertThat(f.get("m").heldMillis()).containsExactly(10.0, 19.0);
    assertThat(f.get("m").waitedMillis()).containsExactly(0.0, 10.0);
    assertThat(f.get("m").medianHeld()).isEqualTo(19.0);
    assertThat(f.get("s").heldMillis()).containsExactly(17.0);
    assertThat(f.get("s").waitedMillis()).containsExactly(3.0);
  }

  @Test
  void intervalsOfCrossingLocksAreTheFiguresOneByOne() {
    at(0, "w#0", "cpu prepare");
    at(2, "w#0", "lock a");
    at(5, "w#0", "lock b");
    at(9, "w#0", "unlock a");
    at(20, "w#0", "unlock b");
    List<LockHolds.Interval> i = LockHolds.intervals(log);
    assertThat(i).containsExactly(
        new LockHolds.Interval("a", "w#0", LockHolds.Kind.WAIT, 0, 2_000_000),
        new LockHolds.Interval("b", "w#0", LockHolds.Kind.WAIT, 2_000_000, 5_000_000),
        new LockHolds.Interval("a", "w#0", LockHolds.Kind.HOLD, 2_000_000, 9_000_000),
        new LockHolds.Interval("b", "w#0", LockHolds.Kind.HOLD, 5_000_000, 20_000_000));
    Map<String, LockHolds.Figures> f = LockHolds.of(log);
    assertThat(f.get("a").heldMillis()).containsExactly(7.0);
    assertThat(f.get("b").heldMillis()).containsExactly(15.0);
    assertThat(f.get("b").waitedMillis()).containsExactly(3.0);
  }

  @Test
  void aHoldLastsWhileTheThreadHoldsAnyPermitAsTheModelCountsThem() {
    at(0, "w#0", "acquire s 1");
    at(4, "w#0", "acquire s 1"); // a second take: a wait, but the hold that began at 0 goes on
    at(10, "w#0", "release s 2");
    at(20, "w#0", "acquire s 2");
    at(25, "w#0", "release s 1"); // one permit still held
    at(40, "w#0", "release s 1");
    assertThat(LockHolds.intervals(log)).filteredOn(i -> i.kind() == LockHolds.Kind.HOLD).containsExactly(
        new LockHolds.Interval("s", "w#0", LockHolds.Kind.HOLD, 0, 10_000_000),
        new LockHolds.Interval("s", "w#0", LockHolds.Kind.HOLD, 20_000_000, 40_000_000));
    assertThat(LockHolds.of(log).get("s").waitedMillis()).hasSize(3);
  }

  @Test
  void failedStepsTakeNothingAndUnclosedHoldsAreLeftOut() {
    at(0, "w#0", "lock m");
    log.add(new Event(2, "w#1", 0, TestDesigns.step("acquire s 20"), Optional.empty(), 0, 0, 5_000_000,
        Optional.of(new Violation(ViolationKind.DEADLOCK, "stuck"))));
    at(6, "w#1", "release s 20");
    Map<String, LockHolds.Figures> f = LockHolds.of(log);
    assertThat(f.get("m").heldMillis()).isEmpty();
    assertThat(f.get("m").medianHeld()).isZero();
    assertThat(f).doesNotContainKey("s");
  }

  @Test
  void everyHoldOfAFreeRunIsCounted() {
    Design d = TestDesigns.shipped("reservation").withJobs("gpu_worker", 4);
    try (SimulatedDevice device = new SimulatedDevice(d.vram())) {
      RunReport r = new Engine(device, StepGate.FREE).run(d, "reservation", InterpretedPipeline::new);
      Map<String, LockHolds.Figures> f = LockHolds.of(r.events());
      int jobs = 3 * 4;
      assertThat(r.completed()).isEqualTo(jobs);
      assertThat(f.get("compute_mtx").heldMillis()).hasSize(jobs).allSatisfy(h -> assertThat(h).isNotNegative());
      assertThat(f.get("vram_units").heldMillis()).hasSize(jobs);
      assertThat(f.get("vram_units").waitedMillis()).hasSize(jobs);
    }
  }
}
