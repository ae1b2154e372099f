package dev.interlock.model.check;

import dev.interlock.model.design.Design;
import dev.interlock.model.state.ViolationKind;
import dev.interlock.model.trace.Parameters;
import dev.interlock.model.trace.Trace;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The result of {@link Checker#check}.
 *
 * @param design          the design as checked (parameters applied)
 * @param verdict         SAFE, the primary counterexample's violation, or LIMIT
 * @param primary         the primary counterexample (by {@link Checker#RANK}): a shortest trace to the violation, at
 *                        the fewest threads that show it; present exactly when the verdict is a violation
 * @param overlap         the answer to the overlap query, when one was asked
 * @param search          statistics of the search at the checked counts
 * @param smallerConfigs  configurations with fewer threads that were searched to minimize the counterexamples
 * @param minimizeSeconds wall time spent on them
 * @param others          the other violation kinds reachable at the checked counts, each at its own fewest threads,
 *                        in the order of the rule; empty unless the verdict is a violation
 * @param stoppedSearches searches (at the checked or smaller counts) that the state limit stopped: when positive, a
 *                        violation may be missing from {@code others} and one with fewer threads may exist
 */
public record CheckReport(Design design, Verdict verdict, Optional<Counterexample> primary,
    Optional<OverlapAnswer> overlap, Exploration search, int smallerConfigs, double minimizeSeconds,
    List<Counterexample> others, int stoppedSearches) {
  public CheckReport {
    Objects.requireNonNull(design, "design");
    Objects.requireNonNull(verdict, "verdict");
    Objects.requireNonNull(primary, "primary");
    others = List.copyOf(others);
    if (primary.isPresent() ? !verdict.equals(new Verdict.Unsafe(primary.get().violation()))
        : verdict instanceof Verdict.Unsafe) {
      throw new IllegalArgumentException("the verdict " + verdict.label() + " must be the primary counterexample's violation, "
          + primary.map(c -> c.violation().kind().name()).orElse("none"));
    }
    if (!others.isEmpty() && primary.isEmpty()) {
      throw new IllegalArgumentException("other violations come with a violation only");
    }
    Set<ViolationKind> kinds = EnumSet.noneOf(ViolationKind.class);
    for (Counterexample c : violationsOf(primary, others)) {
      if (!kinds.add(c.violation().kind())) {
        throw new IllegalArgumentException("violation kind " + c.violation().kind() + " reported twice");
      }
    }
    if (smallerConfigs < 0 || minimizeSeconds < 0 || stoppedSearches < 0 || stoppedSearches > smallerConfigs + 1) {
      throw new IllegalArgumentException("bad statistics: smallerConfigs=" + smallerConfigs + " minimizeSeconds="
          + minimizeSeconds + " stoppedSearches=" + stoppedSearches);
    }
  }

  /** The primary counterexample's trace, when the verdict is a violation. */
  public Optional<Trace> counterexample() {
    return primary.map(Counterexample::trace);
  }

  /** Per-role thread counts of the primary counterexample (the fewest that show it); the checked counts otherwise. */
  public Map<String, Integer> threads() {
    return primary.map(Counterexample::threads).orElseGet(() -> Parameters.of(design).threads());
  }

  /** The primary counterexample and the others, in the order of the rule; empty unless the verdict is a violation. */
  public List<Counterexample> violations() {
    return violationsOf(primary, others);
  }

  private static List<Counterexample> violationsOf(Optional<Counterexample> primary, List<Counterexample> others) {
    List<Counterexample> all = new ArrayList<>();
    primary.ifPresent(all::add);
    all.addAll(others);
    return List.copyOf(all);
  }
}
