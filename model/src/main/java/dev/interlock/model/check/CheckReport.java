package dev.interlock.model.check;

import dev.interlock.model.design.Design;
import dev.interlock.model.state.ViolationKind;
import dev.interlock.model.trace.Trace;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The result of {@link Checker#check}.
 *
 * @param design          the design as checked (parameters applied)
 * @param verdict         SAFE, the primary violation (by {@link Checker#RANK}), or LIMIT
 * @param counterexample  the primary counterexample: a shortest trace to the violation, at the minimal thread counts
 * @param threads         its per-role thread counts (the fewest that show it); the checked counts otherwise
 * @param overlap         the answer to the overlap query, when one was asked
 * @param search          statistics of the search at the checked counts
 * @param smallerConfigs  configurations with fewer threads that were searched to minimize the counterexamples
 * @param minimizeSeconds wall time spent on them
 * @param others          the other violation kinds reachable at the checked counts, each at its own fewest threads,
 *                        in the order of the rule; empty unless the verdict is a violation
 * @param stoppedSearches searches (at the checked or smaller counts) that the state limit stopped: when positive, a
 *                        violation may be missing from {@code others} and one with fewer threads may exist
 */
public record CheckReport(Design design, Verdict verdict, Optional<Trace> counterexample, Map<String, Integer> threads,
    Optional<OverlapAnswer> overlap, Exploration search, int smallerConfigs, double minimizeSeconds,
    List<Counterexample> others, int stoppedSearches) {
  public CheckReport {
    Objects.requireNonNull(design, "design");
    Objects.requireNonNull(verdict, "verdict");
    threads = Collections.unmodifiableMap(new LinkedHashMap<>(threads));
    others = List.copyOf(others);
    if ((verdict instanceof Verdict.Unsafe) != counterexample.isPresent()) {
      throw new IllegalArgumentException("a counterexample comes with a violation and only then");
    }
    if (!others.isEmpty() && !(verdict instanceof Verdict.Unsafe)) {
      throw new IllegalArgumentException("other violations come with a violation only");
    }
    Set<ViolationKind> kinds = EnumSet.noneOf(ViolationKind.class);
    if (verdict instanceof Verdict.Unsafe u) {
      kinds.add(u.violation().kind());
    }
    for (Counterexample c : others) {
      if (!kinds.add(c.violation().kind())) {
        throw new IllegalArgumentException("violation kind " + c.violation().kind() + " reported twice");
      }
    }
    if (smallerConfigs < 0 || minimizeSeconds < 0 || stoppedSearches < 0 || stoppedSearches > smallerConfigs + 1) {
      throw new IllegalArgumentException("bad statistics: smallerConfigs=" + smallerConfigs + " minimizeSeconds="
          + minimizeSeconds + " stoppedSearches=" + stoppedSearches);
    }
  }

  /** The primary counterexample and the others, in the order of the rule; empty unless the verdict is a violation. */
  public List<Counterexample> violations() {
    if (!(verdict instanceof Verdict.Unsafe u)) {
      return List.of();
    }
    List<Counterexample> all = new ArrayList<>();
    all.add(new Counterexample(u.violation(), threads, counterexample.orElseThrow()));
    all.addAll(others);
    return all;
  }
}
