package dev.interlock.properties;

import static org.assertj.core.api.Assertions.assertThat;

import dev.interlock.model.check.CheckReport;
import dev.interlock.model.check.Checker;
import dev.interlock.model.check.Verdict;
import dev.interlock.model.design.Design;
import dev.interlock.model.state.Model;
import dev.interlock.model.state.Phase;
import dev.interlock.model.step.Alloc;
import dev.interlock.model.step.OnOom;
import dev.interlock.model.step.Step;
import dev.interlock.model.step.Steps;
import dev.interlock.properties.engine.Config;
import dev.interlock.properties.engine.Source;
import dev.interlock.properties.model.DesignGen;
import dev.interlock.properties.model.Schedule;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The random designs that every property runs over exercise {@code on oom} at a useful rate: many designs have
 * fallible allocations, handlers that take locks, allocate and free, random schedules really fail into handlers,
 * SWALLOWED_OOM is a common verdict and designs whose failures are all handled are often SAFE. Without this, the
 * properties could pass while never reaching the construct.
 */
class OnOomCoverageProperties {
  private static final int DESIGNS = 200;

  @Test
  void randomDesignsReachTheConstruct() {
    long seed = Config.defaults("on oom coverage").seed();
    System.out.println("[interlock] OnOomCoverageProperties seed=" + seed + " (rerun with -Dinterlock.seed=" + seed + ")");
    int fallible = 0;
    int ignoring = 0;
    int handling = 0;
    int handlerLocks = 0;
    int handlerAllocs = 0;
    int handlerFrees = 0;
    int failedIntoHandler = 0;
    int swallowed = 0;
    int safeWithHandler = 0;
    for (int i = 0; i < DESIGNS; i++) {
      Design d = DesignGen.designs().generate(Source.random(seed + i));
      List<Alloc> allocs = new ArrayList<>();
      List<List<Step>> bodies = new ArrayList<>();
      d.roles().forEach(r -> bodies.add(r.body()));
      d.tasks().forEach(t -> bodies.add(t.body()));
      bodies.forEach(b -> Steps.forEach(b, s -> {
        if (s instanceof Alloc a && a.fallible()) {
          allocs.add(a);
        }
      }));
      if (allocs.isEmpty()) {
        continue;
      }
      fallible++;
      ignoring += allocs.stream().anyMatch(a -> a.onOom() instanceof OnOom.Ignore) ? 1 : 0;
      List<Step> handlers = new ArrayList<>();
      allocs.stream().filter(a -> a.onOom() instanceof OnOom.Handle).forEach(a -> Steps.forEach(a.onOom().steps(),
          handlers::add));
      handling += allocs.stream().anyMatch(a -> a.onOom() instanceof OnOom.Handle) ? 1 : 0;
      handlerLocks += handlers.stream().anyMatch(dev.interlock.model.step.Lock.class::isInstance) ? 1 : 0;
      handlerAllocs += handlers.stream().anyMatch(Alloc.class::isInstance) ? 1 : 0;
      handlerFrees += handlers.stream().anyMatch(dev.interlock.model.step.Free.class::isInstance) ? 1 : 0;
      Model m = new Model(d);
      for (int k = 0; k < 5; k++) {
        Schedule sc = Schedule.of(m, "<random>").generate(Source.random(seed * 31 + i * 7L + k));
        if (sc.trace().steps().stream().anyMatch(x -> x.phase().equals(Optional.of(Phase.OOM)))) {
          failedIntoHandler++;
          break;
        }
      }
      CheckReport r = Checker.check(d, "<random>", Checker.Options.defaults(200_000));
      if (r.verdict().label().equals("SWALLOWED_OOM")) {
        swallowed++;
      }
      if (r.verdict().equals(new Verdict.Safe()) && allocs.stream().anyMatch(a -> a.onOom() instanceof OnOom.Handle)) {
        safeWithHandler++;
      }
    }
    System.out.printf("[interlock] of %d random designs: %d with on oom (%d ignore, %d handlers; handlers that lock %d,"
            + " allocate %d, free %d); a random schedule fails into a handler in %d; SWALLOWED_OOM %d; SAFE with a"
            + " handler %d%n", DESIGNS, fallible, ignoring, handling, handlerLocks, handlerAllocs, handlerFrees,
        failedIntoHandler, swallowed, safeWithHandler);
    assertThat(fallible).as("designs with on oom").isGreaterThan(DESIGNS / 4);
    assertThat(ignoring).isGreaterThan(DESIGNS / 10);
    assertThat(handling).isGreaterThan(DESIGNS / 10);
    assertThat(handlerLocks).isGreaterThan(DESIGNS / 20);
    assertThat(handlerAllocs).isGreaterThan(DESIGNS / 10);
    assertThat(handlerFrees).isGreaterThan(DESIGNS / 40);
    assertThat(failedIntoHandler).as("random schedules that fail into a handler").isGreaterThan(DESIGNS / 20);
    assertThat(swallowed).as("SWALLOWED_OOM verdicts").isGreaterThan(DESIGNS / 40);
    assertThat(safeWithHandler).as("SAFE designs with a handler").isGreaterThan(DESIGNS / 100);
  }
}
