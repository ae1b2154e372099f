package dev.interlock.model.check;

import dev.interlock.model.trace.Trace;
import java.util.Objects;
import java.util.Optional;

/** The answer to an {@link OverlapQuery}: REACHABLE with a shortest witness, UNREACHABLE, or UNKNOWN at the state limit. */
public record OverlapAnswer(OverlapQuery query, Reachability reachability, Optional<Trace> witness) {
  public OverlapAnswer {
    Objects.requireNonNull(query, "query");
    Objects.requireNonNull(reachability, "reachability");
    if ((reachability == Reachability.REACHABLE) != witness.isPresent()) {
      throw new IllegalArgumentException("a witness comes with REACHABLE and only then");
    }
  }

  /** Whether the overlap can happen. */
  public enum Reachability {
    REACHABLE,
    UNREACHABLE,
    UNKNOWN
  }
}
