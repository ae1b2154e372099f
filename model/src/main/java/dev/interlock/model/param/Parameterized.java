package dev.interlock.model.param;

import dev.interlock.model.check.SearchListener;
import dev.interlock.model.design.Design;
import dev.interlock.model.design.Role;
import dev.interlock.model.state.ViolationKind;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Decides the upward-closed violation kinds for every number of threads of the {@code any} roles: the counter
 * abstraction ({@link LocalSystem}, {@link SharedStates}), then backward coverability per kind ({@link Coverability}),
 * for designs in its fragment ({@link Fragment}); for the others, memory isolation by one mutex
 * ({@link MemoryIsolation}).
 */
public final class Parameterized {
  /** The kinds whose violating configurations are upward-closed: one worker's local state (and live bytes) shows them. */
  public static final Set<ViolationKind> UPWARD = Collections.unmodifiableSet(EnumSet.of(ViolationKind.OOM,
      ViolationKind.SWALLOWED_OOM, ViolationKind.USE_AFTER_FREE, ViolationKind.BAD_FREE, ViolationKind.UNLOCK_NOT_HELD, ViolationKind.RELEASE_EXCESS));

  /** Sizes and the wall time past which the answer is UNKNOWN rather than a long wait. */
  public record Limits(int localStates, int sharedStates, long basisElements, double seconds) {
    public static Limits defaults() {
      return new Limits(1_000_000, 1_000_000, 200_000, 40);
    }
  }

  private Parameterized() {}

  /**
   * The answer for every number of threads of {@code anyRoles} (roles of {@code design}), the other roles at their
   * counts in {@code design}.
   */
  public static ParamAnswer analyze(Design design, List<String> anyRoles, Limits limits) {
    return analyze(design, anyRoles, limits, SearchListener.NONE);
  }

  /** As above, telling {@code listener} where the analysis is (progress lines). */
  public static ParamAnswer analyze(Design design, List<String> anyRoles, Limits limits, SearchListener listener) {
    long start = System.nanoTime();
    Optional<String> outside = Fragment.outside(design);
    if (outside.isPresent()) {
      ParamAnswer isolated;
      try {
        listener.analysis("memory isolation: one worker alone", 0, 0);
        isolated = MemoryIsolation.analyze(design, anyRoles, limits.localStates(), EnumSet.allOf(MemoryIsolation.Condition.class));
      } catch (SharedStates.TooLarge e) {
        isolated = new ParamAnswer.Unknown(e.getMessage());
      }
      return isolated instanceof ParamAnswer.Unknown u ? new ParamAnswer.Unknown(outside.get() + "; and " + u.reason())
          : isolated;
    }
    SharedStates shared;
    LocalSystem local;
    try {
      shared = new SharedStates(design, limits.sharedStates());
      local = new LocalSystem(design, UPWARD, limits.localStates());
    } catch (SharedStates.TooLarge e) {
      return new ParamAnswer.Unknown(e.getMessage());
    }
    int[] workers = design.roles().stream()
        .mapToInt(r -> anyRoles.contains(r.name()) ? Integer.MAX_VALUE : r.threads()).toArray();
    Coverability backward = new Coverability(local, shared, workers, limits.basisElements(), start + (long) (limits.seconds() * 1e9));
    Map<ViolationKind, Optional<Map<String, Integer>>> minimal = new EnumMap<>(ViolationKind.class);
    long elements = 0;
    long iterations = 0;
    for (ViolationKind k : UPWARD) {
      List<LocalSystem.Poised> targets = local.poised().stream().filter(p -> p.kind() == k).toList();
      Coverability.Result r;
      try {
        r = backward.run(targets, "backward search for " + k, listener);
      } catch (SharedStates.TooLarge e) {
        return new ParamAnswer.Unknown(e.getMessage() + " for " + k);
      }
      elements += r.stats().basisElements();
      iterations += r.stats().iterations();
      minimal.put(k, fewest(design, anyRoles, local, r.basis().get(shared.initial())));
    }
    return new ParamAnswer.Decided(minimal, local.size(), shared.count(), elements, iterations,
        (System.nanoTime() - start) / 1e9);
  }

  /**
   * Of the initial configurations the basis at the initial shared state covers, the one with the fewest threads in
   * total (then first in role order): each {@code any} role at least 1 thread, the others at their counts.
   */
  private static Optional<Map<String, Integer>> fewest(Design design, List<String> anyRoles, LocalSystem local,
      List<Vec> basis) {
    List<Role> roles = design.roles();
    int[] best = null;
    for (Vec v : basis) {
      int[] counts = new int[roles.size()];
      long initialWorkers = 0;
      boolean coverable = true;
      for (int r = 0; r < roles.size(); r++) {
        long need = v.get(local.initial(r) + 1);
        initialWorkers += need;
        boolean any = anyRoles.contains(roles.get(r).name());
        coverable &= any || need <= roles.get(r).threads();
        counts[r] = any ? (int) Math.max(1, Math.min(need, Integer.MAX_VALUE)) : roles.get(r).threads();
      }
      // covered by an initial configuration: no other local state, no live bytes beyond the initial workers' (none)
      coverable &= v.get(Vec.LIVE) == 0 && initialWorkers == v.workers();
      if (coverable && (best == null || earlier(counts, best))) {
        best = counts;
      }
    }
    if (best == null) {
      return Optional.empty();
    }
    Map<String, Integer> out = new LinkedHashMap<>();
    for (int r = 0; r < roles.size(); r++) {
      out.put(roles.get(r).name(), best[r]);
    }
    return Optional.of(out);
  }

  private static boolean earlier(int[] a, int[] b) {
    long ta = 0;
    long tb = 0;
    for (int i = 0; i < a.length; i++) {
      ta += a[i];
      tb += b[i];
    }
    return ta != tb ? ta < tb : java.util.Arrays.compare(a, b) < 0;
  }

  /** The kinds {@code answer} proves unreachable for every number of threads, in declaration order. */
  public static List<ViolationKind> safeForAll(ParamAnswer answer) {
    List<ViolationKind> out = new ArrayList<>();
    if (answer instanceof ParamAnswer.Proved d) {
      UPWARD.forEach(k -> {
        if (d.minimal().get(k).isEmpty()) {
          out.add(k);
        }
      });
    }
    return out;
  }
}
