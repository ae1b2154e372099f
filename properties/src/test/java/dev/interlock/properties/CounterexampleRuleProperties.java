package dev.interlock.properties;

import static org.assertj.core.api.Assertions.assertThat;

import dev.interlock.model.check.CheckReport;
import dev.interlock.model.check.Checker;
import dev.interlock.model.check.Counterexample;
import dev.interlock.model.check.Exploration;
import dev.interlock.model.check.Explorer;
import dev.interlock.model.check.Finding;
import dev.interlock.model.design.Design;
import dev.interlock.model.design.Role;
import dev.interlock.model.state.Model;
import dev.interlock.model.state.ViolationKind;
import dev.interlock.properties.engine.PropertyRunner;
import dev.interlock.properties.model.DesignGen;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The checker's rule for the primary counterexample, against the plain search: every thread-count vector searched
 * without symmetry reduction for all violations, the kinds of the checked counts each at its fewest threads, then
 * ranked by total threads, transitions and kind.
 */
class CounterexampleRuleProperties {
  private static final long MAX_STATES = 30_000;

  /** What the rule ranks: a kind with its thread counts and shortest length there. */
  record Ranked(ViolationKind kind, Map<String, Integer> threads, int length) {
    int total() {
      return threads.values().stream().mapToInt(Integer::intValue).sum();
    }

    static Ranked of(Counterexample c) {
      return new Ranked(c.violation().kind(), c.threads(), c.length());
    }
  }

  private static final Comparator<Ranked> RULE = Comparator.comparingInt(Ranked::total)
      .thenComparingInt(Ranked::length).thenComparing(Ranked::kind);

  /** Every vector from all ones to the design's counts, component-wise, in lexicographic order. */
  private static List<int[]> vectors(Design d) {
    int[] max = d.roles().stream().mapToInt(Role::threads).toArray();
    List<int[]> all = new ArrayList<>();
    int[] c = new int[max.length];
    Arrays.fill(c, 1);
    while (true) {
      all.add(c.clone());
      int i = c.length - 1;
      while (i >= 0 && c[i] == max[i]) {
        c[i] = 1;
        i--;
      }
      if (i < 0) {
        return all;
      }
      c[i]++;
    }
  }

  private static Map<String, Integer> counts(Design d) {
    Map<String, Integer> m = new LinkedHashMap<>();
    d.roles().forEach(r -> m.put(r.name(), r.threads()));
    return m;
  }

  /** The rule computed from plain searches, or empty when one of them reached the state limit. */
  private static Optional<List<Ranked>> expected(Design d) {
    Map<ViolationKind, Ranked> best = new EnumMap<>(ViolationKind.class);
    Map<ViolationKind, Integer> atChecked = new EnumMap<>(ViolationKind.class);
    List<int[]> vectors = vectors(d);
    vectors.sort(Comparator.comparingInt(v -> Arrays.stream(v).sum()));  // stable: lexicographic within a total
    for (int[] v : vectors) {
      Design smaller = d.withThreadCounts(v);
      Exploration e = Explorer.explore(new Model(smaller), "<random>", new Explorer.Options(MAX_STATES, false, true, Optional.empty()));
      if (e.limitReached()) {
        return Optional.empty();
      }
      for (Finding f : e.findings()) {
        Ranked r = new Ranked(f.violation().kind(), counts(smaller), f.trace().length());
        Ranked old = best.get(r.kind());
        if (old == null || RULE.compare(r, old) < 0) {  // vectors come by total, then lexicographic: ties keep the first
          best.put(r.kind(), r);
        }
        if (counts(smaller).equals(counts(d))) {
          atChecked.put(r.kind(), r.length());
        }
      }
    }
    return Optional.of(best.values().stream().filter(r -> atChecked.containsKey(r.kind())).sorted(RULE).toList());
  }

  @Test
  void thePrimaryAndTheOthersFollowTheRuleOfTheFewestThreadsThenTransitions() {
    AtomicInteger cases = new AtomicInteger();
    AtomicInteger compared = new AtomicInteger();
    AtomicInteger notBfsFirst = new AtomicInteger();
    PropertyRunner.assertHolds("the primary counterexample has the fewest threads, then transitions", DesignGen.designs(), d -> {
      cases.incrementAndGet();
      Optional<List<Ranked>> plain = expected(d);
      if (plain.isEmpty()) {
        return true;
      }
      compared.incrementAndGet();
      List<Ranked> want = plain.get();
      CheckReport all = Checker.check(d, "<random>", Checker.Options.defaults(MAX_STATES).withAllViolations());
      CheckReport quick = Checker.check(d, "<random>", Checker.Options.defaults(MAX_STATES));
      assertThat(all.stoppedSearches()).isZero();
      assertThat(quick.stoppedSearches()).isZero();
      if (want.isEmpty()) {
        assertThat(all.verdict().label()).isEqualTo("SAFE");
        assertThat(quick.verdict().label()).isEqualTo("SAFE");
        return true;
      }
      List<Ranked> got = all.violations().stream().map(Ranked::of).toList();
      assertThat(got).as("--all-violations: primary and others").isEqualTo(want);
      List<Ranked> quickGot = quick.violations().stream().map(Ranked::of).toList();
      assertThat(quickGot.get(0)).as("default: the primary").isEqualTo(want.get(0));
      assertThat(want).as("default: the others are among the plain search's").containsAll(quickGot);
      assertThat(quickGot).as("default: kinds in the rule's order").isSortedAccordingTo(RULE);
      if (quick.search().exhaustive()) {
        assertThat(quickGot).as("default, when the checked counts were searched exhaustively").isEqualTo(want);
      }
      Exploration bfs = Explorer.explore(new Model(d), "<random>", Explorer.Options.firstViolation(MAX_STATES));
      if (bfs.findings().get(0).violation().kind() != want.get(0).kind()) {
        notBfsFirst.incrementAndGet();
      }
      return true;
    });
    System.out.printf("[interlock] counterexample rule: %d of %d designs compared with the plain search, %d whose primary kind"
        + " is not BFS's first at the checked counts%n", compared.get(), cases.get(), notBfsFirst.get());
    assertThat(compared.get()).as("designs small enough for the plain search").isGreaterThan(cases.get() / 2);
  }
}
