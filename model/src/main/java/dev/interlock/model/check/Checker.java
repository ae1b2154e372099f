package dev.interlock.model.check;

import dev.interlock.model.design.Design;
import dev.interlock.model.design.Role;
import dev.interlock.model.state.Model;
import dev.interlock.model.state.ViolationKind;
import dev.interlock.model.trace.Parameters;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

/**
 * Checks a design exhaustively and picks its primary counterexample by a fixed rule: of all violation kinds, the
 * one with the fewest threads in total, then the fewest transitions; the other kinds are reported too.
 */
public final class Checker {
  private Checker() {}

  /**
   * Check options.
   *
   * @param maxStates     state limit for each search
   * @param overlap       an overlap query to answer as well
   * @param minimize      search smaller thread counts for the fewest threads of each violation kind
   * @param symmetry      use symmetry reduction (off only to measure what it saves)
   * @param allViolations search the checked counts exhaustively, so that the list of violation kinds is complete
   * @param por           partial-order reduction in each search (off only to measure what it saves)
   * @param searchThreads threads of each search (the answers do not depend on it)
   * @param maxMemory     state store bytes at which each search stops, like {@code maxStates}
   */
  public record Options(long maxStates, Optional<OverlapQuery> overlap, boolean minimize, boolean symmetry,
      boolean allViolations, boolean por, int searchThreads, long maxMemory) {
    public Options {
      if (maxStates < 1) {
        throw new IllegalArgumentException("max states must be positive, got " + maxStates);
      }
      if (searchThreads < 1 || maxMemory < 1) {
        throw new IllegalArgumentException("search threads and max memory must be positive, got " + searchThreads
            + " and " + maxMemory);
      }
      Objects.requireNonNull(overlap, "overlap");
    }

    /** Options with partial-order reduction, one search thread and no memory limit. */
    public Options(long maxStates, Optional<OverlapQuery> overlap, boolean minimize, boolean symmetry,
        boolean allViolations) {
      this(maxStates, overlap, minimize, symmetry, allViolations, true, 1, Long.MAX_VALUE);
    }

    /** Options without the exhaustive list of violation kinds. */
    public Options(long maxStates, Optional<OverlapQuery> overlap, boolean minimize, boolean symmetry) {
      this(maxStates, overlap, minimize, symmetry, false);
    }

    /** Defaults: the given limit, no overlap query, minimization and symmetry on. */
    public static Options defaults(long maxStates) {
      return new Options(maxStates, Optional.empty(), true, true, false);
    }

    public Options withOverlap(OverlapQuery q) {
      return new Options(maxStates, Optional.of(q), minimize, symmetry, allViolations, por, searchThreads, maxMemory);
    }

    public Options withAllViolations() {
      return new Options(maxStates, overlap, minimize, symmetry, true, por, searchThreads, maxMemory);
    }

    /** These options with the given reduction, search threads and memory limit. */
    public Options withSearch(boolean por, int searchThreads, long maxMemory) {
      return new Options(maxStates, overlap, minimize, symmetry, allViolations, por, searchThreads, maxMemory);
    }

    /** The explorer's options for one search of these. */
    Explorer.Options explorer(boolean all, Optional<OverlapQuery> query, Set<ViolationKind> until) {
      return new Explorer.Options(maxStates, symmetry, all, query, until).withSearch(por, searchThreads, maxMemory);
    }
  }

  /** The checker's rule: fewest threads in total, then fewest transitions, then the kind's declaration order. */
  public static final Comparator<Counterexample> RANK = Comparator.comparingInt(Counterexample::totalThreads)
      .thenComparingInt(Counterexample::length).thenComparing(c -> c.violation().kind());

  /**
   * Checks {@code design}; {@code source} is the design file as the user named it, recorded in traces.
   *
   * <p>The rule for the primary counterexample ({@link #RANK}): of every violation kind reachable at the checked
   * thread counts, the one that shows with the fewest threads in total, then in the fewest transitions. Each kind is
   * ranked at its own fewest threads (counts range component-wise from 1 to the checked ones; ties go to the first
   * vector in {@link #smallerCounts} order) with a shortest trace there. Kinds that show only with fewer threads than
   * checked are not violations of the checked configuration and are not reported. Without minimization every kind is
   * ranked at the checked counts.
   *
   * <p>How, in four kinds of search: (0) the checked counts up to their shortest violations (exhaustively with
   * {@link Options#allViolations}): if there is none, the verdict is SAFE or LIMIT and nothing else is searched;
   * (1) smaller configurations by total threads, each up to its shortest violations, until a total shows one: their
   * kinds are the candidates; (2) the checked counts again, until every candidate has shown there (or a candidate does
   * not show), only when (0) stopped before one of them had; (3) for each kind seen in (2), totals upward from the
   * first that violated until it shows. The other kinds are then complete exactly when (2) was exhaustive.
   */
  public static CheckReport check(Design design, String source, Options options) {
    return check(design, source, options, SearchListener.NONE);
  }

  /** As {@link #check(Design, String, Options)}, telling {@code listener} which configuration is searched and how far. */
  public static CheckReport check(Design design, String source, Options options, SearchListener listener) {
    Searches searches = new Searches(source, options, listener);
    Exploration first = searches.checked(design, options.allViolations() ? EnumSet.allOf(ViolationKind.class) : Set.of());
    if (first.findings().isEmpty()) {
      Verdict v = !first.limitReached() ? new Verdict.Safe()
          : first.heapLimit() ? Verdict.LimitReached.heap(options.maxStates())
          : new Verdict.LimitReached(options.maxStates(),
              first.memoryLimit() ? OptionalLong.of(options.maxMemory()) : OptionalLong.empty());
      return new CheckReport(design, v, Optional.empty(), overlap(options, first), first, searches.tried,
          searches.seconds(), List.of(), searches.stopped(first));
    }
    List<int[]> smaller = options.minimize() ? smallerCounts(design) : List.of();
    Set<ViolationKind> candidates = EnumSet.noneOf(ViolationKind.class);
    Map<String, Exploration> firstLevel = new HashMap<>();
    int from = 0;
    while (from < smaller.size() && candidates.isEmpty()) {
      int end = levelEnd(smaller, from);
      for (int i = from; i < end; i++) {
        Exploration e = searches.smaller(design, smaller.get(i), Set.of());
        firstLevel.put(Arrays.toString(smaller.get(i)), e);
        e.findings().forEach(f -> candidates.add(f.violation().kind()));
      }
      if (candidates.isEmpty()) {
        from = end;
      }
    }
    // a search that went on would give the same exploration when (0) was exhaustive, was stopped by the limit, or saw
    // every candidate: the stopping rule then holds at the same level
    Exploration main = first.exhaustive() || first.limitReached() || kinds(first).containsAll(candidates) ? first
        : searches.checked(design, candidates);
    Map<ViolationKind, Counterexample> found = new EnumMap<>(ViolationKind.class);
    Set<ViolationKind> open = kinds(main);
    while (from < smaller.size() && !open.isEmpty()) {
      int end = levelEnd(smaller, from);
      Map<ViolationKind, Counterexample> level = new EnumMap<>(ViolationKind.class);
      for (int i = from; i < end; i++) {
        Exploration known = firstLevel.get(Arrays.toString(smaller.get(i)));
        Exploration e = known != null && kinds(known).containsAll(open) ? known : searches.smaller(design, smaller.get(i), open);
        for (Finding f : e.findings()) {
          ViolationKind k = f.violation().kind();
          if (open.contains(k) && (!level.containsKey(k) || f.trace().length() < level.get(k).length())) {
            level.put(k, new Counterexample(f.violation(), f.trace()));
          }
        }
      }
      found.putAll(level);
      open.removeAll(level.keySet());
      from = end;
    }
    for (Finding f : main.findings()) {
      found.putIfAbsent(f.violation().kind(), new Counterexample(f.violation(), f.trace()));
    }
    List<Counterexample> ranked = found.values().stream().sorted(RANK).toList();
    return new CheckReport(design, new Verdict.Unsafe(ranked.get(0).violation()), Optional.of(ranked.get(0)),
        overlap(options, main), main, searches.tried, searches.seconds(), ranked.subList(1, ranked.size()),
        searches.stopped(main));
  }

  /** The answer to the overlap query, from the search at the checked counts. */
  private static Optional<OverlapAnswer> overlap(Options options, Exploration main) {
    return options.overlap().map(q -> new OverlapAnswer(q,
        main.witness().isPresent() ? OverlapAnswer.Reachability.REACHABLE
            : main.limitReached() ? OverlapAnswer.Reachability.UNKNOWN : OverlapAnswer.Reachability.UNREACHABLE,
        main.witness()));
  }

  /** Searches of the checked and smaller configurations; those of smaller ones counted and timed, with how many the limit stopped. */
  private static final class Searches {
    private final String source;
    private final Options options;
    private final SearchListener listener;
    private long nanos;
    private int tried;
    private int stoppedSmaller;

    Searches(String source, Options options, SearchListener listener) {
      this.source = source;
      this.options = options;
      this.listener = Objects.requireNonNull(listener, "listener");
    }

    Exploration smaller(Design design, int[] counts, Set<ViolationKind> until) {
      tried++;
      long start = System.nanoTime();
      Design smaller = design.withThreadCounts(counts);
      listener.configuration(Parameters.of(smaller).threads(), false);
      Exploration e = Explorer.explore(new Model(smaller), source, options.explorer(true, Optional.empty(), until), listener);
      stoppedSmaller += e.limitReached() ? 1 : 0;
      nanos += System.nanoTime() - start;
      return e;
    }

    /** A search of the checked counts, with the overlap query, until the kinds of {@code until} have shown. */
    Exploration checked(Design design, Set<ViolationKind> until) {
      listener.configuration(Parameters.of(design).threads(), true);
      return Explorer.explore(new Model(design), source,
          options.explorer(true, options.overlap(), until), listener);
    }

    /** Searches the state limit stopped: those of smaller configurations and {@code main}, the one reported. */
    int stopped(Exploration main) {
      return stoppedSmaller + (main.limitReached() ? 1 : 0);
    }

    /** Wall time of the searches of smaller configurations. */
    double seconds() {
      return nanos / 1e9;
    }
  }

  /** The end (exclusive) of the run of vectors with the same total as the one at {@code from}. */
  private static int levelEnd(List<int[]> vectors, int from) {
    int total = total(vectors.get(from));
    int end = from;
    while (end < vectors.size() && total(vectors.get(end)) == total) {
      end++;
    }
    return end;
  }

  private static Set<ViolationKind> kinds(Exploration e) {
    Set<ViolationKind> k = EnumSet.noneOf(ViolationKind.class);
    e.findings().forEach(f -> k.add(f.violation().kind()));
    return k;
  }

  private static int total(int[] counts) {
    return Arrays.stream(counts).sum();
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
}
