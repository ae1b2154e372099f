package dev.interlock.fidelity;

import dev.interlock.model.check.CheckReport;
import dev.interlock.model.check.Verdict;
import dev.interlock.model.trace.Trace;
import java.util.Objects;
import java.util.Optional;

/**
 * The model's side of a comparison: the verdict of the exhaustive search, or a SAFE verdict recorded by an earlier one.
 *
 * @param verdict        the verdict
 * @param counterexample the minimal counterexample, present exactly when the verdict is a violation
 * @param states         distinct states the search visited (for a recorded verdict, the recorded search's)
 * @param recorded       whether the verdict was taken as given from an earlier search (SAFE only), not searched now
 */
public record ModelVerdict(Verdict verdict, Optional<Trace> counterexample, long states, boolean recorded) {
  public ModelVerdict {
    Objects.requireNonNull(verdict, "verdict");
    Objects.requireNonNull(counterexample, "counterexample");
    if (counterexample.isPresent() != verdict instanceof Verdict.Unsafe) {
      throw new IllegalArgumentException("a counterexample goes with a violation, and only with one; verdict "
          + verdict.label());
    }
    if (states < 0) {
      throw new IllegalArgumentException("negative states " + states);
    }
    if (recorded && !(verdict instanceof Verdict.Safe)) {
      throw new IllegalArgumentException("only a SAFE verdict is recorded, got " + verdict.label());
    }
  }

  /** The verdict of a check. */
  public static ModelVerdict of(CheckReport r) {
    return new ModelVerdict(r.verdict(), r.verdict() instanceof Verdict.Unsafe ? r.counterexample() : Optional.empty(),
        r.search().states(), false);
  }

  /** SAFE, as an earlier search of {@code states} states recorded it. */
  public static ModelVerdict recordedSafe(long states) {
    return new ModelVerdict(new Verdict.Safe(), Optional.empty(), states, true);
  }

  /** Whether there is something to compare: SAFE or a violation (not LIMIT or UNKNOWN). */
  public boolean decided() {
    return verdict instanceof Verdict.Safe || verdict instanceof Verdict.Unsafe;
  }

  /** As a report shows it: {@code OOM at 9} (kind, counterexample length), {@code SAFE (recorded)}, {@code LIMIT}. */
  public String text() {
    if (verdict instanceof Verdict.Unsafe u) {
      return u.label() + " at " + counterexample.orElseThrow().length();
    }
    return verdict.label() + (recorded ? " (recorded)" : "");
  }
}
