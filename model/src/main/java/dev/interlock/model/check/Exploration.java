package dev.interlock.model.check;

import dev.interlock.model.trace.Trace;
import java.util.List;
import java.util.Optional;

/**
 * What one breadth-first search saw.
 *
 * @param findings      violations with shortest traces: the first one, or the first of each kind when all were asked for
 * @param witness       the shortest trace to an overlap, when a query was given and it is reachable
 * @param states        distinct states visited (after symmetry reduction)
 * @param transitions   transitions computed
 * @param seconds       wall time
 * @param limitReached  the state limit stopped the search before it was exhaustive
 * @param exhaustive    every reachable state was visited: neither the limit nor a stopping rule ended the search
 */
public record Exploration(List<Finding> findings, Optional<Trace> witness, long states, long transitions, double seconds,
    boolean limitReached, boolean exhaustive) {
  public Exploration {
    findings = List.copyOf(findings);
    if (limitReached && exhaustive) {
      throw new IllegalArgumentException("a search stopped by the limit is not exhaustive");
    }
    if (states < 1 || transitions < 0 || seconds < 0) {
      throw new IllegalArgumentException("bad statistics: states=" + states + " transitions=" + transitions + " seconds=" + seconds);
    }
  }

  /** States per second of wall time. */
  public double statesPerSecond() {
    return seconds > 0 ? states / seconds : states;
  }
}
