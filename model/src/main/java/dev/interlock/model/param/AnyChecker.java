package dev.interlock.model.param;

import dev.interlock.model.check.CheckReport;
import dev.interlock.model.check.Checker;
import dev.interlock.model.check.SearchListener;
import dev.interlock.model.check.Verdict;
import dev.interlock.model.design.Design;
import dev.interlock.model.design.Role;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code check --threads ROLE=any}: the parameterized answer for the upward-closed kinds, the bounded search up to K
 * threads per {@code any} role for the rest, and a shortest counterexample at the fewest threads that violate.
 *
 * <p>The thread-count vectors of the bounded box and the fewest counts the coverability analysis gives are searched in
 * order of total threads (then role order), each until its first violation; the first vector that violates is checked
 * again by {@link Checker#check} with the caller's options, whose report is the answer. A vector the analysis says
 * violates but whose search finds nothing is a bug of one of them and is thrown. When the analysis is undecided and
 * one role is {@code any}, the bounded search goes on past K one thread at a time within {@link #EXTENSION_STATES}.
 */
public final class AnyChecker {
  /**
   * States in all that the bounded search may spend past K when the parameterized analysis is undecided (one
   * {@code any} role): a budget of states, not of time, so that every machine gives the same answer.
   */
  public static final long EXTENSION_STATES = 1_000_000;
  /** Threads past which the bounded search never goes on, whatever its budget. */
  public static final int EXTENSION_MAX_THREADS = 64;

  private AnyChecker() {}

  /** Checks {@code design} for every number of threads of {@code anyRoles}; their counts in {@code design} are ignored. */
  public static AnyReport check(Design design, List<String> anyRoles, int boundedUpTo, String source,
      Checker.Options options, Parameterized.Limits limits) {
    return check(design, anyRoles, boundedUpTo, source, options, limits, SearchListener.NONE);
  }

  /** As above, telling {@code listener} how far each exhaustive search of the bounded part is (progress lines). */
  public static AnyReport check(Design design, List<String> anyRoles, int boundedUpTo, String source,
      Checker.Options options, Parameterized.Limits limits, SearchListener listener) {
    if (boundedUpTo < 1) {
      throw new IllegalArgumentException("the bound needs at least 1 thread, got " + boundedUpTo);
    }
    if (options.overlap().isPresent()) {
      throw new IllegalArgumentException("an overlap query needs fixed thread counts, not any");
    }
    for (String r : anyRoles) {
      design.role(r).orElseThrow(() -> new IllegalArgumentException("no role " + r + " in design " + design.name()));
    }
    ParamAnswer answer = Parameterized.analyze(design, anyRoles, limits, listener);
    List<int[]> fromAnalysis = new ArrayList<>();
    if (answer instanceof ParamAnswer.Proved d) {
      d.minimal().values().forEach(m -> m.ifPresent(c -> fromAnalysis.add(counts(design, c))));
    }
    List<int[]> vectors = new ArrayList<>(box(design, anyRoles, boundedUpTo));
    fromAnalysis.forEach(v -> {
      if (vectors.stream().noneMatch(u -> Arrays.equals(u, v))) {
        vectors.add(v);
      }
    });
    vectors.sort(Comparator.<int[]>comparingInt(v -> Arrays.stream(v).sum()).thenComparing(Arrays::compare));
    Checker.Options one = firstViolation(options, options.maxStates());
    long start = System.nanoTime();
    int searched = 0;
    Verdict.LimitReached limit = null; // the first configuration's limit: which one stopped it (states or heap)
    CheckReport last = null;
    for (int[] v : vectors) {
      Design at = design.withThreadCounts(v);
      CheckReport r = Checker.check(at, source, one, listener);
      searched++;
      if (r.verdict() instanceof Verdict.Unsafe) {
        return shown(at, source, options, listener, answer, anyRoles, boundedUpTo, searched, start);
      }
      if (limit == null && r.verdict() instanceof Verdict.LimitReached l) {
        limit = l;
      }
      boolean analysed = fromAnalysis.stream().anyMatch(u -> Arrays.equals(u, v));
      if (analysed && limit == null) {
        throw new IllegalStateException("the parameterized analysis says " + Arrays.toString(v) + " threads violate "
            + design.name() + ", but the exhaustive search there finds nothing");
      }
      last = r; // the vectors come by total: the last is the largest
    }
    int upTo = boundedUpTo;
    if (answer instanceof ParamAnswer.Unknown && limit == null && anyRoles.size() == 1) {
      // undecided for every number: go on one thread at a time while the searches stay within their budget of states
      int role = design.roles().indexOf(design.role(anyRoles.get(0)).orElseThrow());
      int[] v = vectors.get(vectors.size() - 1).clone();
      long budget = EXTENSION_STATES;
      for (int n = boundedUpTo + 1; n <= EXTENSION_MAX_THREADS && budget > 0; n++) {
        v[role] = n;
        Design at = design.withThreadCounts(v);
        CheckReport r = Checker.check(at, source, firstViolation(options, Math.min(options.maxStates(), budget)), listener);
        if (r.verdict() instanceof Verdict.LimitReached) {
          break; // past the budget: n is not searched
        }
        searched++;
        budget -= r.search().states();
        if (r.verdict() instanceof Verdict.Unsafe) {
          return shown(at, source, options, listener, answer, anyRoles, n, searched, start);
        }
        upTo = n;
        last = r;
      }
    }
    double seconds = (System.nanoTime() - start) / 1e9;
    Verdict verdict = limit != null ? limit
        : answer instanceof ParamAnswer.Unknown u ? new Verdict.Unknown(u.reason()) : new Verdict.Safe();
    CheckReport shown = verdict instanceof Verdict.Safe ? last
        : new CheckReport(last.design(), verdict, Optional.empty(), Optional.empty(), last.search(), last.smallerConfigs(),
            last.minimizeSeconds(), List.of(), last.stoppedSearches());
    return new AnyReport(shown, verdict, answer, anyRoles, Parameterized.safeForAll(answer), upTo, searched,
        seconds);
  }

  /** The caller's options for a search of one configuration until its first violation: no overlap query, no minimizing. */
  private static Checker.Options firstViolation(Checker.Options options, long maxStates) {
    return new Checker.Options(maxStates, Optional.empty(), false, options.symmetry(), false);
  }

  /** The answer at the first configuration {@code at} that violates: checked again with the caller's options. */
  private static AnyReport shown(Design at, String source, Checker.Options options, SearchListener listener,
      ParamAnswer answer, List<String> anyRoles, int upTo, int searched, long start) {
    double seconds = (System.nanoTime() - start) / 1e9;
    CheckReport shown = Checker.check(at, source, options, listener);
    return new AnyReport(shown, shown.verdict(), answer, anyRoles, Parameterized.safeForAll(answer), upTo, searched,
        seconds);
  }

  /** Per role in design order, the count of {@code counts}. */
  private static int[] counts(Design design, Map<String, Integer> counts) {
    return design.roles().stream().mapToInt(r -> counts.get(r.name())).toArray();
  }

  /** Every vector with each {@code any} role at 1..bound threads and the other roles at their counts. */
  static List<int[]> box(Design design, List<String> anyRoles, int bound) {
    List<Role> roles = design.roles();
    List<int[]> out = new ArrayList<>();
    int[] c = new int[roles.size()];
    for (int r = 0; r < c.length; r++) {
      c[r] = anyRoles.contains(roles.get(r).name()) ? 1 : roles.get(r).threads();
    }
    while (true) {
      out.add(c.clone());
      int i = c.length - 1;
      while (i >= 0 && (!anyRoles.contains(roles.get(i).name()) || c[i] == bound)) {
        if (anyRoles.contains(roles.get(i).name())) {
          c[i] = 1;
        }
        i--;
      }
      if (i < 0) {
        return out;
      }
      c[i]++;
    }
  }
}
