package dev.interlock.properties;

import static org.assertj.core.api.Assertions.assertThat;

import dev.interlock.model.check.Exploration;
import dev.interlock.model.check.Explorer;
import dev.interlock.model.check.Finding;
import dev.interlock.model.design.Design;
import dev.interlock.model.design.DesignPrinter;
import dev.interlock.model.state.Model;
import dev.interlock.model.state.ViolationKind;
import dev.interlock.model.trace.Outcome;
import dev.interlock.model.trace.ReplayResult;
import dev.interlock.model.trace.Replayer;
import dev.interlock.properties.engine.Gen;
import dev.interlock.properties.engine.PropertyRunner;
import dev.interlock.properties.model.DesignGen;
import dev.interlock.properties.model.Schedule;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** Random designs: the exhaustive search agrees with random schedules, and its traces replay. */
class RandomDesignProperties {
  private static final long MAX_STATES = 30_000;

  /** A design with some random schedules of it. */
  record Case(Design design, List<Schedule> schedules) {
    @Override
    public String toString() {
      return "\n" + DesignPrinter.print(design) + "schedules:" + schedules;
    }
  }

  private static final Gen<Case> CASES = DesignGen.designs()
      .flatMap(d -> Gen.lists(Schedule.of(new Model(d), "<random>"), 1, 6).map(s -> new Case(d, s)));

  private static Exploration all(Design d, boolean symmetry) {
    return Explorer.explore(new Model(d), "<random>", new Explorer.Options(MAX_STATES, symmetry, true, Optional.empty()));
  }

  private static Map<ViolationKind, Integer> shortest(Exploration e) {
    Map<ViolationKind, Integer> m = new EnumMap<>(ViolationKind.class);
    for (Finding f : e.findings()) {
      m.put(f.violation().kind(), f.trace().length());
    }
    return m;
  }

  @Test
  void everyViolationOfARandomScheduleIsFoundByBfsWithATraceNoLonger() {
    PropertyRunner.assertHolds("BFS finds every violation random schedules find", CASES, c -> {
      Exploration e = all(c.design(), true);
      Map<ViolationKind, Integer> bfs = shortest(e);
      for (Schedule s : c.schedules()) {
        if (s.trace().outcome() instanceof Outcome.Violated v && !(e.limitReached() && !bfs.containsKey(v.violation().kind()))) {
          ViolationKind k = v.violation().kind();
          assertThat(bfs).as("BFS kinds vs a schedule ending in %s", k).containsKey(k);
          assertThat(bfs.get(k)).as("shortest %s", k).isLessThanOrEqualTo(s.trace().length());
        }
      }
      return true;
    });
  }

  @Test
  void bfsCounterexamplesReplayToTheSameVerdict() {
    PropertyRunner.assertHolds("BFS counterexamples replay", DesignGen.designs(), d -> {
      for (Finding f : all(d, true).findings()) {
        ReplayResult r = Replayer.replay(f.trace(), d);
        assertThat(r).as("replay of %s", f.violation()).isInstanceOf(ReplayResult.Confirmed.class);
      }
      return true;
    });
  }

  @Test
  void symmetryReductionAgreesWithThePlainSearch() {
    AtomicInteger compared = new AtomicInteger();
    AtomicInteger cases = new AtomicInteger();
    PropertyRunner.assertHolds("symmetry reduction changes no answer", DesignGen.designs(), d -> {
      cases.incrementAndGet();
      Exploration with = all(d, true);
      Exploration without = all(d, false);
      assertThat(with.states()).isLessThanOrEqualTo(without.states());
      if (without.limitReached()) {
        return true;
      }
      compared.incrementAndGet();
      assertThat(with.limitReached()).isFalse();
      assertThat(shortest(with)).isEqualTo(shortest(without));
      return true;
    });
    assertThat(compared.get()).as("designs small enough to search without symmetry reduction").isGreaterThan(cases.get() / 2);
  }

  @Test
  void theGeneratorReachesEveryVerdict() {
    Gen<List<Design>> many = Gen.lists(DesignGen.designs(), 300, 300);
    PropertyRunner.assertHolds("random designs reach every verdict", many, ds -> {
      var seen = ds.stream().flatMap(d -> all(d, true).findings().stream()).map(f -> f.violation().kind())
          .collect(Collectors.toSet());
      assertThat(seen).containsExactlyInAnyOrder(ViolationKind.values());
      return ds.stream().anyMatch(d -> all(d, true).findings().isEmpty());
    }, dev.interlock.properties.engine.Config.defaults("random designs reach every verdict").withTries(1));
  }
}
