package dev.interlock.model.check;

import dev.interlock.model.design.Design;
import dev.interlock.model.design.Role;
import dev.interlock.model.state.Model;
import dev.interlock.model.state.ViolationKind;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Checks a design exhaustively and makes a counterexample minimal: shortest in transitions (BFS),
 * then in threads (the fewest threads per role, down to 1, that still show the same violation).
 */
public final class Checker {
  private Checker() {}

  /**
   * Check options.
   *
   * @param maxStates state limit for each search
   * @param overlap   an overlap query to answer as well
   * @param minimize  search smaller thread counts for the violation
   * @param symmetry  use symmetry reduction (off only to measure what it saves)
   */
  public record Options(long maxStates, Optional<OverlapQuery> overlap, boolean minimize, boolean symmetry) {
    public Options {
      if (maxStates < 1) {
        throw new IllegalArgumentException("max states must be positive, got " + maxStates);
      }
    }

    /** Defaults: the given limit, no overlap query, minimization and symmetry on. */
    public static Options defaults(long maxStates) {
      return new Options(maxStates, Optional.empty(), true, true);
    }

    public Options withOverlap(OverlapQuery q) {
      return new Options(maxStates, Optional.of(q), minimize, symmetry);
    }
  }

  /** Checks {@code design}; {@code source} is the design file as the user named it, recorded in traces. */
  public static CheckReport check(Design design, String source, Options options) {
    Model model = new Model(design);
    Exploration main = Explorer.explore(model, source,
        new Explorer.Options(options.maxStates(), options.symmetry(), false, options.overlap()));
    Optional<OverlapAnswer> overlap = options.overlap().map(q -> new OverlapAnswer(q,
        main.witness().isPresent() ? OverlapAnswer.Reachability.REACHABLE
            : main.limitReached() ? OverlapAnswer.Reachability.UNKNOWN : OverlapAnswer.Reachability.UNREACHABLE,
        main.witness()));
    if (main.findings().isEmpty()) {
      Verdict v = main.limitReached() ? new Verdict.LimitReached(options.maxStates()) : new Verdict.Safe();
      return new CheckReport(design, v, Optional.empty(), counts(design), overlap, main, 0, 0);
    }
    Finding finding = main.findings().get(0);
    Design minimal = design;
    int tried = 0;
    long start = System.nanoTime();
    if (options.minimize()) {
      ViolationKind kind = finding.violation().kind();
      for (int[] counts : smallerCounts(design)) {
        tried++;
        Design smaller = design.withThreadCounts(counts);
        Exploration e = Explorer.explore(new Model(smaller), source,
            new Explorer.Options(options.maxStates(), options.symmetry(), false, Optional.empty()));
        if (!e.findings().isEmpty() && e.findings().get(0).violation().kind() == kind) {
          finding = e.findings().get(0);
          minimal = smaller;
          break;
        }
      }
    }
    double seconds = (System.nanoTime() - start) / 1e9;
    return new CheckReport(design, new Verdict.Unsafe(finding.violation()), Optional.of(finding.trace()), counts(minimal),
        overlap, main, tried, seconds);
  }

  /** Thread-count vectors below the design's, component-wise, fewest threads first, then lexicographic. */
  static List<int[]> smallerCounts(Design design) {
    int[] max = design.roles().stream().mapToInt(Role::threads).toArray();
    List<int[]> all = new ArrayList<>();
    int[] c = new int[max.length];
    Arrays.fill(c, 1);
    while (true) {
      if (!Arrays.equals(c, max)) {
        all.add(c.clone());
      }
      int i = c.length - 1;
      while (i >= 0 && c[i] == max[i]) {
        c[i] = 1;
        i--;
      }
      if (i < 0) {
        break;
      }
      c[i]++;
    }
    all.sort(Comparator.<int[]>comparingInt(v -> Arrays.stream(v).sum()).thenComparing(Arrays::compare));
    return all;
  }

  private static Map<String, Integer> counts(Design d) {
    Map<String, Integer> m = new LinkedHashMap<>();
    d.roles().forEach(r -> m.put(r.name(), r.threads()));
    return m;
  }
}
