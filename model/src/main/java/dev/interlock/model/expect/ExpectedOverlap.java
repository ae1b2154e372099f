package dev.interlock.model.expect;

import dev.interlock.model.check.OverlapAnswer.Reachability;
import dev.interlock.model.check.OverlapQuery;
import java.util.Objects;

/**
 * The {@code overlap(A,B)=REACHABLE|UNREACHABLE} clause of an expect line: the answer expected to the overlap query
 * across workers.
 */
public record ExpectedOverlap(String a, String b, Reachability reachability) {
  public ExpectedOverlap {
    Objects.requireNonNull(a, "a");
    Objects.requireNonNull(b, "b");
    if (reachability != Reachability.REACHABLE && reachability != Reachability.UNREACHABLE) {
      throw new IllegalArgumentException("an expected overlap is REACHABLE or UNREACHABLE, got " + reachability);
    }
  }

  /** The query the check must answer. */
  public OverlapQuery query() {
    return new OverlapQuery(a, b);
  }

  /** The clause as written in an expect line. */
  public String text() {
    return "overlap(" + a + "," + b + ")=" + reachability;
  }
}
