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
 * @param memoryLimit   the limit that stopped the search was the memory one ({@code --max-memory}), not the state count
 * @param peakBytes     the state store's peak size in bytes: packed states, parents, hash table and a level's new
 *                      states before they are merged (the largest over the searches when there were two)
 * @param reduced       the statistics are those of a partial-order reduced search that reduced at least one state (when
 *                      it found nothing to show; when it found a violation or a witness, or met a pool tie, the plain
 *                      search that made the shortest traces or answered is reported, and this is false)
 * @param heapLimit     the limit that stopped the search was the Java heap: an OutOfMemoryError inside the search,
 *                      caught with a reserve released, ended it with the statistics so far
 */
public record Exploration(List<Finding> findings, Optional<Trace> witness, long states, long transitions, double seconds,
    boolean limitReached, boolean exhaustive, boolean memoryLimit, long peakBytes, boolean reduced, boolean heapLimit) {
  public Exploration {
    if ((memoryLimit || heapLimit) && !limitReached || memoryLimit && heapLimit) {
      throw new IllegalArgumentException("the memory or the heap limit is one limit");
    }
    findings = List.copyOf(findings);
    if (limitReached && exhaustive) {
      throw new IllegalArgumentException("a search stopped by the limit is not exhaustive");
    }
    if (states < 1 || transitions < 0 || seconds < 0 || peakBytes < 0) {
      throw new IllegalArgumentException("bad statistics: states=" + states + " transitions=" + transitions + " seconds=" + seconds);
    }
  }

  /** States per second of wall time. */
  public double statesPerSecond() {
    return seconds > 0 ? states / seconds : states;
  }
}
