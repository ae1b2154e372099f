package dev.interlock.properties;

import static org.assertj.core.api.Assertions.assertThat;

import dev.interlock.model.design.Design;
import dev.interlock.model.design.DesignPrinter;
import dev.interlock.model.design.Role;
import dev.interlock.model.state.Model;
import dev.interlock.model.trace.Outcome;
import dev.interlock.model.trace.ReplayResult;
import dev.interlock.model.trace.Replayer;
import dev.interlock.model.trace.Trace;
import dev.interlock.properties.engine.Gen;
import dev.interlock.properties.engine.PropertyRunner;
import dev.interlock.properties.model.DesignGen;
import dev.interlock.properties.model.Schedule;
import dev.interlock.properties.shrink.ScheduleShrinker;
import dev.interlock.properties.shrink.ShrunkSchedule;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Random designs: shrinking a violating random schedule keeps its kind, replays, and never grows. */
class ShrinkProperties {

  /** A design (one more thread per role than the generator's, so there is a thread to drop) with random schedules of it. */
  record Case(Design design, List<Schedule> schedules) {
    @Override
    public String toString() {
      return "\n" + DesignPrinter.print(design) + "schedules:" + schedules;
    }
  }

  private static Design oneMoreThread(Design d) {
    for (Role r : d.roles()) {
      d = d.withThreads(r.name(), r.threads() + 1);
    }
    return d;
  }

  private static final Gen<Case> CASES = DesignGen.designs().map(ShrinkProperties::oneMoreThread)
      .flatMap(d -> Gen.lists(Schedule.of(new Model(d), "<random>"), 1, 4).map(s -> new Case(d, s)));

  @Test
  void aShrunkScheduleReplaysToTheSameKindWithNoMoreThreadsJobsOrTransitions() {
    AtomicInteger shrunk = new AtomicInteger();
    AtomicInteger fewerThreads = new AtomicInteger();
    PropertyRunner.assertHolds("shrunk random schedules replay and never grow", CASES, c -> {
      for (Schedule s : c.schedules()) {
        if (!(s.trace().outcome() instanceof Outcome.Violated v)) {
          continue;
        }
        ShrunkSchedule r = new ScheduleShrinker(2_000).shrink(c.design(), s.trace());
        Trace t = r.shrunk();
        assertThat(Replayer.replay(t, c.design())).as("replay of the shrunk%n%s", t)
            .isEqualTo(new ReplayResult.Confirmed(t.length(), t.outcome()));
        assertThat(((Outcome.Violated) t.outcome()).violation().kind()).isEqualTo(v.violation().kind());
        assertThat(t.length()).isLessThanOrEqualTo(s.trace().length());
        for (Role role : c.design().roles()) {
          assertThat(t.params().threads().get(role.name())).as("threads of %s", role.name()).isLessThanOrEqualTo(role.threads());
          assertThat(t.params().jobs().get(role.name())).as("jobs of %s", role.name()).isLessThanOrEqualTo(role.jobs());
        }
        shrunk.incrementAndGet();
        if (!t.params().threads().equals(s.trace().params().threads())) {
          fewerThreads.incrementAndGet();
        }
      }
      return true;
    });
    assertThat(shrunk.get()).as("violating schedules shrunk").isGreaterThan(20);
    assertThat(fewerThreads.get()).as("shrunk to fewer threads").isPositive();
  }
}
