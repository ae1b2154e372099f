package dev.interlock.junit.api;

import dev.interlock.model.check.CheckReport;
import dev.interlock.model.check.Counterexample;
import dev.interlock.model.check.OverlapAnswer;
import dev.interlock.model.check.Verdict;
import dev.interlock.model.param.AnyReport;
import dev.interlock.model.trace.Trace;
import dev.interlock.model.trace.TraceFormat;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * What a {@link DesignCheck} answered: the verdict, the counterexample (a shortest trace at the fewest threads that
 * show a violation), the overlap answer and the search's size. Immutable; assert on it with
 * {@link InterlockAssertions#assertThat(CheckResult)}.
 */
public final class CheckResult {
  private final DesignCheck check;
  private final CheckReport report;
  private final Optional<AnyReport> any;

  CheckResult(DesignCheck check, CheckReport report, Optional<AnyReport> any) {
    this.check = Objects.requireNonNull(check, "check");
    this.report = Objects.requireNonNull(report, "report");
    this.any = Objects.requireNonNull(any, "any");
  }

  /** The design file as it was named ({@value Interlock#STRING_SOURCE} for text). */
  public String source() {
    return check.source();
  }

  /** The design's name (its {@code design} line). */
  public String design() {
    return report.design().name();
  }

  /**
   * The verdict label: {@code SAFE}, a {@link Violation} name, {@code LIMIT} (the state limit stopped the search: no
   * proof either way) or, for {@link DesignCheck#threadsAny}, {@code UNKNOWN} (not decided for every number).
   */
  public String verdict() {
    return verdictOf().label();
  }

  /** Whether the verdict is SAFE: the search was exhaustive and no reachable state violates. */
  public boolean isSafe() {
    return verdictOf() instanceof Verdict.Safe;
  }

  /** The violation of the counterexample, when the verdict is one. */
  public Optional<Violation> violation() {
    return report.primary().map(c -> Violation.valueOf(c.violation().kind().name()));
  }

  /** The violation's one-line explanation (e.g. which allocation does not fit), when the verdict is one. */
  public Optional<String> message() {
    return report.primary().map(c -> c.violation().message());
  }

  /**
   * Per-role thread counts of the counterexample: the fewest that show the violation, which may be fewer than
   * checked. Without a counterexample, the checked counts.
   */
  public Map<String, Integer> threads() {
    return report.threads();
  }

  /**
   * Transitions of the trace the check shows: the counterexample, else the overlap witness, else 0 (the CLI's JSON
   * {@code length}).
   */
  public int length() {
    return shown().map(Trace::length).orElse(0);
  }

  /** The answer to the overlap query, when one was asked. */
  public Optional<Overlap> overlap() {
    return report.overlap().map(o -> new Overlap(o.query().a(), o.query().b(),
        Overlap.Reachability.valueOf(o.reachability().name())));
  }

  /** The counterexample as trace text (the format of {@code interlock check --trace-out}), when there is one. */
  public Optional<String> counterexample() {
    return report.counterexample().map(TraceFormat::print);
  }

  /** The overlap witness as trace text: a shortest schedule into the overlap, when it is REACHABLE. */
  public Optional<String> witness() {
    return report.overlap().flatMap(OverlapAnswer::witness).map(TraceFormat::print);
  }

  /** The other violations found at the checked counts, each at its own fewest threads; empty when SAFE. */
  public List<Violation> otherViolations() {
    return report.others().stream().map(Counterexample::violation)
        .map(v -> Violation.valueOf(v.kind().name())).toList();
  }

  /** Distinct states of the search at the checked thread counts. */
  public long statesSearched() {
    return report.search().states();
  }

  /** The whole report as text, counterexample and witness traces included: for messages and logs. */
  public String report() {
    return ReportText.of(this);
  }

  /** The whole report, as {@link #report()}. */
  @Override
  public String toString() {
    return report();
  }

  Verdict verdictOf() {
    return any.map(AnyReport::verdict).orElse(report.verdict());
  }

  /** The trace the check shows: the counterexample, else the overlap witness. */
  Optional<Trace> shown() {
    return report.counterexample().or(() -> report.overlap().flatMap(OverlapAnswer::witness));
  }

  DesignCheck check() {
    return check;
  }

  CheckReport model() {
    return report;
  }

  Optional<AnyReport> any() {
    return any;
  }
}
