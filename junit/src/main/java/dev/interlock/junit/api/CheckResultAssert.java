package dev.interlock.junit.api;

import dev.interlock.model.check.OverlapQuery;
import dev.interlock.model.design.DesignException;
import dev.interlock.model.expect.ExpectLine;
import dev.interlock.model.expect.Expectation;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.assertj.core.api.AbstractAssert;

/**
 * AssertJ assertions on a {@link CheckResult}. A failure's message names what was expected, then the whole report:
 * the verdict, the parameters and the counterexample (or overlap witness) as trace text; the HTML view of that trace
 * is written to the reports directory ({@code target/surefire-reports/interlock/} of the module under test, or the
 * system property {@code interlock.reports.dir}) and the message names the file.
 */
public final class CheckResultAssert extends AbstractAssert<CheckResultAssert, CheckResult> {
  CheckResultAssert(CheckResult actual) {
    super(actual, CheckResultAssert.class);
  }

  /** Verifies that the verdict is SAFE: the search was exhaustive and found no violation (LIMIT fails). */
  public CheckResultAssert isSafe() {
    isNotNull();
    if (!actual.isSafe()) {
      fail(actual, "expected SAFE, got " + actual.verdict());
    }
    return this;
  }

  /** Verifies that the verdict is the violation {@code expected}; chain the counterexample's assertions after it. */
  public CheckResultAssert hasViolation(Violation expected) {
    isNotNull();
    Objects.requireNonNull(expected, "expected");
    if (!actual.verdict().equals(expected.name())) {
      fail(actual, "expected " + expected + ", got " + actual.verdict());
    }
    return this;
  }

  /**
   * Verifies that the counterexample runs {@code n} threads of {@code role}: the fewest that show its violation. Fails
   * when there is no counterexample.
   */
  public CheckResultAssert withMinimalThreads(String role, int n) {
    counterexample("at " + role + ":" + n);
    Integer got = actual.threads().get(role);
    if (got == null || got != n) {
      fail(actual, "expected the counterexample at " + role + ":" + n + ", got "
          + (got == null ? "no role " + role : role + ":" + got));
    }
    return this;
  }

  /**
   * Verifies that the counterexample has {@code n} transitions (the CLI's JSON {@code length}). Fails when there is
   * no counterexample.
   */
  public CheckResultAssert withCounterexampleOfLength(int n) {
    counterexample("of " + n + " transitions");
    if (actual.length() != n) {
      fail(actual, "expected a counterexample of " + n + " transitions, got " + actual.length());
    }
    return this;
  }

  /**
   * Verifies that a thread can be inside interval {@code a} while a thread of another worker is inside {@code b}. When
   * the check did not ask this query ({@link DesignCheck#overlap}), it is run again asking it, with the same
   * parameters; the answer UNKNOWN (the state limit) fails.
   *
   * @throws IllegalArgumentException when the design has no such interval, or its threads were any
   */
  public CheckResultAssert overlapIsReachable(String a, String b) {
    return overlapIs(a, b, Overlap.Reachability.REACHABLE);
  }

  /**
   * Verifies that no schedule puts a thread inside interval {@code a} while a thread of another worker is inside
   * {@code b}; asked as {@link #overlapIsReachable} does.
   *
   * @throws IllegalArgumentException when the design has no such interval, or its threads were any
   */
  public CheckResultAssert overlapIsUnreachable(String a, String b) {
    return overlapIs(a, b, Overlap.Reachability.UNREACHABLE);
  }

  /**
   * Verifies that the result meets the design's {@code # expect:} line (SAFE where it has none): its verdict, and the
   * thread counts, length and overlap answer the line names. An overlap the check did not ask is asked by running it
   * again. A malformed expect line fails with its position, {@code FILE:LINE:COL: message}.
   */
  public CheckResultAssert meetsItsExpectation() {
    isNotNull();
    Expectation e;
    try {
      e = ExpectLine.expectation(actual.source(), actual.check().text(), actual.check().parsed());
    } catch (DesignException x) {
      failWithMessage("%s", x.getMessage());
      return this;
    }
    CheckResult r = actual;
    if (e.overlap().isPresent() && !sameQuery(r, e.overlap().get().query())) {
      r = rerun(r.check().withOverlap(e.overlap().get().query()));
    }
    List<String> mismatches = e.mismatches(r.model());
    if (!mismatches.isEmpty()) {
      fail(r, "expected " + e.text() + (e.written() ? " (the expect line, line " + e.line() + ")" : " (no expect line)")
          + ":\n  " + String.join("\n  ", mismatches));
    }
    return this;
  }

  private CheckResultAssert overlapIs(String a, String b, Overlap.Reachability expected) {
    isNotNull();
    CheckResult r = sameQuery(actual, new OverlapQuery(a, b)) ? actual : rerun(actual.check().overlap(a, b));
    Overlap.Reachability got = r.overlap().orElseThrow().reachability();
    if (got != expected) {
      fail(r, "expected overlap(" + a + "," + b + ") " + expected + ", got " + got);
    }
    return this;
  }

  private static boolean sameQuery(CheckResult r, OverlapQuery q) {
    return r.model().overlap().map(o -> o.query().equals(q)).orElse(false);
  }

  private static CheckResult rerun(DesignCheck check) {
    return check.run();
  }

  private void counterexample(String what) {
    isNotNull();
    if (actual.model().counterexample().isEmpty()) {
      fail(actual, "expected a counterexample " + what + ", got none: the verdict is " + actual.verdict());
    }
  }

  /** Fails with {@code headline}, then the report of {@code r} and where its HTML view was written. */
  private void fail(CheckResult r, String headline) {
    failWithMessage("%s", message(r, headline));
  }

  /** The message of a failure about {@code r}: the headline, the whole report, and the HTML view's file. */
  static String message(CheckResult r, String headline) {
    Optional<String> html = HtmlReports.write(r);
    return headline + "\n\n" + r.report() + html.map(h -> "\n" + h).orElse("");
  }
}
