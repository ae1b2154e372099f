package dev.interlock.properties;

import static org.assertj.core.api.Assertions.assertThat;

import dev.interlock.model.check.Checker;
import dev.interlock.model.design.Design;
import dev.interlock.model.design.Sizes;
import dev.interlock.model.state.Model;
import dev.interlock.model.trace.Outcome;
import dev.interlock.model.trace.ReplayResult;
import dev.interlock.model.trace.Replayer;
import dev.interlock.model.trace.Trace;
import dev.interlock.properties.engine.PropertyResult;
import dev.interlock.properties.engine.PropertyRunner;
import dev.interlock.properties.model.Schedule;
import org.junit.jupiter.api.Test;

/** Random schedules of the shipped designs. */
class ScheduleProperties {

  @Test
  void twoLockSchedulesViolateAndShrinkToNoLongerThanTheBfsCounterexample() {
    Design d = Shipped.design("two-lock");
    PropertyResult.Failed<Schedule> failed = PropertyRunner.assertFails("two-lock schedules never violate",
        Schedule.of(new Model(d), Shipped.path("two-lock")), s -> !s.violates());
    Trace shrunk = failed.shrunk().trace();
    Trace bfs = Checker.check(d, Shipped.path("two-lock"), Checker.Options.defaults(1_000_000)).counterexample().orElseThrow();
    assertThat(((Outcome.Violated) shrunk.outcome()).violation().kind().name()).isEqualTo("OOM");
    assertThat(shrunk.length()).isLessThanOrEqualTo(bfs.length()).isEqualTo(9);
    assertThat(shrunk.length()).isLessThan(failed.original().trace().length());
    assertThat(Replayer.replay(shrunk, d)).isInstanceOf(ReplayResult.Confirmed.class);
  }

  @Test
  void singleLockSchedulesNeverViolate() {
    Design d = Shipped.design("single-lock").withThreads("gpu_worker", 4);
    PropertyRunner.assertHolds("single-lock schedules complete", Schedule.of(new Model(d), Shipped.path("single-lock")),
        s -> s.trace().outcome() instanceof Outcome.Completed);
  }

  @Test
  void reservationSchedulesNeverViolate() {
    Design d = Shipped.design("reservation");
    PropertyRunner.assertHolds("reservation schedules complete", Schedule.of(new Model(d), Shipped.path("reservation")),
        s -> s.trace().outcome() instanceof Outcome.Completed);
    Design big = d.withVram(32 * Sizes.GIB).withPermits("vram_units", 32).withThreads("gpu_worker", 4);
    PropertyRunner.assertHolds("reservation at 32GiB schedules complete", Schedule.of(new Model(big), Shipped.path("reservation")),
        s -> s.trace().outcome() instanceof Outcome.Completed && s.trace().steps().stream().allMatch(x -> x.used() <= big.vram()));
  }
}
