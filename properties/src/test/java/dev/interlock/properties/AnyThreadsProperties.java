package dev.interlock.properties;

import static org.assertj.core.api.Assertions.assertThat;

import dev.interlock.model.check.Exploration;
import dev.interlock.model.check.Explorer;
import dev.interlock.model.design.Design;
import dev.interlock.model.design.Role;
import dev.interlock.model.design.Task;
import dev.interlock.model.param.ParamAnswer;
import dev.interlock.model.param.Parameterized;
import dev.interlock.model.state.Model;
import dev.interlock.model.state.ViolationKind;
import dev.interlock.model.step.Alloc;
import dev.interlock.model.step.OnOom;
import dev.interlock.model.step.Choose;
import dev.interlock.model.step.IfFree;
import dev.interlock.model.step.Spawn;
import dev.interlock.model.step.Step;
import dev.interlock.model.step.Steps;
import dev.interlock.model.step.Sync;
import dev.interlock.properties.engine.Config;
import dev.interlock.properties.engine.PropertyRunner;
import dev.interlock.properties.model.DesignGen;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * {@code --threads r0=any} against the bounded search: on random designs made monotone (no {@code sync}, {@code if
 * free} replaced by its then branch, allocations not async, {@code on oom} handlers made {@code on oom ignore}), with their jobs and with every role looping, the
 * coverability answer for role r0 agrees with exhaustive searches of r0 at 1..4 threads (the other roles at their
 * counts).
 */
class AnyThreadsProperties {
  private static final long MAX_STATES = 30_000;
  static final int UP_TO = 4;

  /** The design with its non-monotone constructs taken out; null when that leaves it invalid. */
  static Design monotone(Design d) {
    if (d.roles().stream().anyMatch(r -> strip(r.body()).isEmpty())
        || d.tasks().stream().anyMatch(t -> strip(t.body()).isEmpty())) {
      return null;
    }
    List<Role> roles = d.roles().stream().map(r -> new Role(r.name(), r.threads(), r.jobs(), strip(r.body()))).toList();
    List<Task> tasks = d.tasks().stream().map(t -> new Task(t.name(), strip(t.body()))).toList();
    try {
      return new Design(d.name(), d.vram(), d.poolThreshold(), d.buffers(), d.mutexes(), d.semaphores(), roles, tasks);
    } catch (IllegalArgumentException e) {
      return null;
    }
  }

  private static List<Step> strip(List<Step> body) {
    List<Step> out = new ArrayList<>();
    for (Step s : body) {
      if (s instanceof Sync) {
        continue;
      }
      if (s instanceof IfFree f) {
        out.addAll(strip(f.then()));
      } else if (s instanceof Choose c) {
        out.add(new Choose(strip(c.first()), strip(c.second()))); // a choice is local: in the fragment
      } else if (s instanceof Alloc a && (a.async() || a.onOom() instanceof OnOom.Handle)) {
        // a handler is a downward-closed branch: the alloc keeps its failure as the violation SWALLOWED_OOM instead
        OnOom o = a.onOom() instanceof OnOom.Handle ? OnOom.IGNORE : a.onOom();
        out.add(new Alloc(a.buffer(), a.bytes(), false, a.keep(), o));
      } else {
        out.add(s);
      }
    }
    return out;
  }

  /** Per N in 1..UP_TO: the kinds the exhaustive search of r0 at N threads finds; empty when a search hit the limit. */
  static Optional<List<Set<ViolationKind>>> bounded(Design d) {
    List<Set<ViolationKind>> out = new ArrayList<>();
    for (int n = 1; n <= UP_TO; n++) {
      Exploration e = Explorer.explore(new Model(d.withThreads("r0", n)), "<random>",
          new Explorer.Options(MAX_STATES, true, true, Optional.empty()));
      if (e.limitReached()) {
        return Optional.empty();
      }
      Set<ViolationKind> kinds = EnumSet.noneOf(ViolationKind.class);
      e.findings().forEach(f -> kinds.add(f.violation().kind()));
      out.add(kinds);
    }
    return Optional.of(out);
  }

  /** The smallest N (1-based) at which {@code found} holds, or 0. */
  private static int first(List<Set<ViolationKind>> perN, Set<ViolationKind> kinds) {
    for (int n = 1; n <= perN.size(); n++) {
      if (perN.get(n - 1).stream().anyMatch(kinds::contains)) {
        return n;
      }
    }
    return 0;
  }

  private static boolean agrees(Design d, AtomicInteger compared, AtomicInteger unsafe) {
    ParamAnswer a = Parameterized.analyze(d, List.of("r0"), new Parameterized.Limits(100_000, 100_000, 50_000, 20));
    if (a instanceof ParamAnswer.Unknown u) {
      assertThat(u.reason()).as("a monotone design is undecided only by a limit").contains("backward search");
      return true;
    }
    Optional<List<Set<ViolationKind>>> plain = bounded(d);
    if (plain.isEmpty()) {
      return true;
    }
    compared.incrementAndGet();
    List<Set<ViolationKind>> perN = plain.get();
    Map<ViolationKind, Integer> any = new EnumMap<>(ViolationKind.class);
    ((ParamAnswer.Decided) a).minimal().forEach((k, m) -> any.put(k, m.map(c -> c.get("r0")).orElse(0)));
    for (Role r : d.roles()) {
      ((ParamAnswer.Decided) a).minimal().values().forEach(m -> m.ifPresent(c -> {
        if (!r.name().equals("r0")) {
          assertThat(c.get(r.name())).as("a fixed role keeps its count").isEqualTo(r.threads());
        }
      }));
    }
    int all = any.values().stream().filter(n -> n > 0).mapToInt(Integer::intValue).min().orElse(0);
    int allBounded = first(perN, Parameterized.UPWARD);
    if (allBounded > 0 || (all > 0 && all <= UP_TO)) {
      assertThat(all).as("fewest r0 threads of any upward-closed kind: any vs bounded " + perN).isEqualTo(allBounded);
      unsafe.incrementAndGet();
    } else {
      assertThat(allBounded).isZero();
    }
    // a failed allocation is OOM or, with on oom ignore, SWALLOWED_OOM: the two together are exact
    Set<ViolationKind> failed = EnumSet.of(ViolationKind.OOM, ViolationKind.SWALLOWED_OOM);
    int oom = failed.stream().mapToInt(any::get).filter(n -> n > 0).min().orElse(0);
    int oomBounded = first(perN, failed);
    if (oomBounded > 0 || (oom > 0 && oom <= UP_TO)) {
      assertThat(oom).as("fewest r0 threads of OOM or SWALLOWED_OOM: any vs bounded " + perN).isEqualTo(oomBounded);
    }
    if (!ignores(d)) {
      int plainOom = any.get(ViolationKind.OOM);
      int plainBounded = first(perN, Set.of(ViolationKind.OOM));
      if (plainBounded > 0 || (plainOom > 0 && plainOom <= UP_TO)) {
        assertThat(plainOom).as("fewest r0 threads of OOM: any vs bounded " + perN).isEqualTo(plainBounded);
      }
    }
    for (ViolationKind k : Parameterized.UPWARD) {
      int n = any.get(k);
      int nb = first(perN, Set.of(k));
      if (n == 0) {
        assertThat(nb).as(k + " is safe for every N, so at 1.." + UP_TO + " too: " + perN).isZero();
      } else {
        assertThat(nb == 0 || nb >= n).as(k + " not below the any answer " + n + ": " + perN).isTrue();
        if (n <= UP_TO) {
          assertThat(perN.get(n - 1)).as(k + " or a failed allocation at " + n).containsAnyOf(k, ViolationKind.OOM,
              ViolationKind.SWALLOWED_OOM);
        }
      }
    }
    return true;
  }

  /** Whether some alloc of d ignores its failure. */
  private static boolean ignores(Design d) {
    List<Step> all = new ArrayList<>();
    d.roles().forEach(r -> Steps.forEach(r.body(), all::add));
    d.tasks().forEach(t -> Steps.forEach(t.body(), all::add));
    return all.stream().anyMatch(x -> x instanceof Alloc a && a.onOom() instanceof OnOom.Ignore);
  }

  @Test
  void theAnyAnswerAgreesWithTheBoundedSearchAtOneToFourThreads() {
    AtomicInteger cases = new AtomicInteger();
    AtomicInteger compared = new AtomicInteger();
    AtomicInteger unsafe = new AtomicInteger();
    // 45 tries in mvn verify (about 35 s on 2 cores); -Dinterlock.anythreads.tries=1000 for a deeper run
    Config config = Config.defaults("any vs bounded on random monotone designs")
        .withTries(Integer.getInteger("interlock.anythreads.tries", 45));
    PropertyRunner.assertHolds("any vs bounded on random monotone designs", DesignGen.designs(), generated -> {
      Design d = monotone(generated);
      if (d == null) {
        return true;
      }
      cases.incrementAndGet();
      agrees(d, compared, unsafe);
      boolean spawns = d.roles().stream().anyMatch(r -> Steps.flatten(r.body()).stream().anyMatch(Spawn.class::isInstance));
      if (!spawns) {
        Design looping = d;
        for (Role r : d.roles()) {
          looping = looping.withJobs(r.name(), Role.FOREVER);
        }
        agrees(looping, compared, unsafe);
      }
      return true;
    }, config);
    System.out.printf("[interlock] any vs bounded: %d designs, %d comparisons (%d with an upward-closed violation)%n",
        cases.get(), compared.get(), unsafe.get());
    assertThat(compared.get()).as("designs small enough for the bounded search").isGreaterThan(cases.get() / 2);
    assertThat(unsafe.get()).as("some comparisons have a violation to agree on").isPositive();
  }
}
