package dev.interlock.model.check;

import dev.interlock.model.design.Design;
import dev.interlock.model.trace.Trace;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The result of {@link Checker#check}.
 *
 * @param design         the design as checked (parameters applied)
 * @param verdict        SAFE, a violation, or LIMIT
 * @param counterexample the shortest trace to the violation, at the minimal thread counts
 * @param threads        minimal per-role thread counts that still show the violation; the checked counts otherwise
 * @param overlap        the answer to the overlap query, when one was asked
 * @param search         statistics of the search at the checked counts
 * @param smallerConfigs configurations with fewer threads that were searched to minimize the counterexample
 * @param minimizeSeconds wall time spent on them
 */
public record CheckReport(Design design, Verdict verdict, Optional<Trace> counterexample, Map<String, Integer> threads,
    Optional<OverlapAnswer> overlap, Exploration search, int smallerConfigs, double minimizeSeconds) {
  public CheckReport {
    Objects.requireNonNull(design, "design");
    Objects.requireNonNull(verdict, "verdict");
    threads = Collections.unmodifiableMap(new LinkedHashMap<>(threads));
    if ((verdict instanceof Verdict.Unsafe) != counterexample.isPresent()) {
      throw new IllegalArgumentException("a counterexample comes with a violation and only then");
    }
  }
}
