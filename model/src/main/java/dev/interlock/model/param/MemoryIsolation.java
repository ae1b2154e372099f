package dev.interlock.model.param;

import dev.interlock.model.design.Design;
import dev.interlock.model.design.Role;
import dev.interlock.model.design.Sizes;
import dev.interlock.model.state.Model;
import dev.interlock.model.state.ThreadView;
import dev.interlock.model.state.ViolationKind;
import dev.interlock.model.step.Alloc;
import dev.interlock.model.step.Free;
import dev.interlock.model.step.IfFree;
import dev.interlock.model.step.Lock;
import dev.interlock.model.step.Step;
import dev.interlock.model.step.Sync;
import dev.interlock.model.step.Trim;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Collections;
import java.util.Deque;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The second method of {@code --threads ROLE=any}, for designs outside the counter abstraction's fragment (async
 * allocations, {@code sync}, {@code trim}, {@code if free}, {@code on oom} handlers): whether one mutex isolates every
 * worker's device memory from the other workers', and if it does, which upward-closed kinds one worker alone reaches.
 *
 * <p>One worker alone is the design with one worker per role in which only that role's threads move, stepped by
 * {@link Model}. The conditions ({@link Condition}) are checked on every state it reaches; when they all hold for one
 * mutex, every worker of a run with any number of workers takes, step for step, a path the worker alone can take, with
 * the same outcome at each step (docs/parameterized.md gives the argument). An upward-closed violation then shows for
 * some number of threads exactly when a worker alone reaches it, and then already with one thread of each
 * {@code any} role.
 */
public final class MemoryIsolation {
  /** What the argument rests on, each checked on every state one worker alone reaches. */
  public enum Condition {
    /** Every {@code alloc}, {@code free}, {@code sync}, {@code trim} and {@code if free} runs while the worker holds the mutex. */
    MEMORY_STEPS_UNDER_MUTEX,
    /** A worker that does not hold the mutex has no live buffer; device buffers are everybody's and never freed. */
    NOTHING_LIVE_OUTSIDE,
    /** A worker that does not hold the mutex has no bytes freed asynchronously that no synchronization has seen. */
    NOTHING_PENDING_OUTSIDE,
    /** At an async alloc, no stream but the allocating thread's has such pending bytes: the pool may draw on others. */
    OWN_PENDING_ONLY_AT_ASYNC_ALLOC,
    /**
     * An {@code if free} runs only after a {@code trim}, or a synchronization that releases every cached byte, since
     * the worker took the mutex: before that, other workers' streams may cache bytes that it counts.
     */
    IF_FREE_AFTER_RELEASE
  }

  private MemoryIsolation() {}

  /**
   * The answer by memory isolation for every number of threads of {@code anyRoles}, the other roles at their counts:
   * {@link ParamAnswer.Isolated} by the first mutex (in declaration order) that isolates, else
   * {@link ParamAnswer.Unknown} naming, per mutex, the first step or state that breaks a condition. Only the
   * conditions in {@code enforced} are checked: every one of them, except in tests that show each is needed.
   */
  public static ParamAnswer analyze(Design design, List<String> anyRoles, int stateLimit, Set<Condition> enforced) {
    long start = System.nanoTime();
    if (design.mutexes().isEmpty()) {
      return new ParamAnswer.Unknown("no mutex isolates device memory: the design declares none");
    }
    int[] ones = new int[design.roles().size()];
    Arrays.fill(ones, 1);
    Model probe = new Model(design.withThreadCounts(ones));
    Map<String, String> why = new LinkedHashMap<>();
    for (String m : design.mutexes()) {
      Alone alone = new Alone(design, probe, m, stateLimit, enforced);
      for (int r = 0; r < design.roles().size() && alone.broken == null; r++) {
        alone.explore(r);
      }
      if (alone.broken == null) {
        Map<ViolationKind, Optional<Map<String, Integer>>> minimal = new EnumMap<>(ViolationKind.class);
        for (ViolationKind k : Parameterized.UPWARD) {
          minimal.put(k, alone.reached.contains(k) ? Optional.of(fewest(design, anyRoles)) : Optional.empty());
        }
        return new ParamAnswer.Isolated(m, minimal, alone.states, (System.nanoTime() - start) / 1e9);
      }
      why.put(m, alone.broken);
    }
    StringBuilder out = new StringBuilder("no mutex isolates device memory");
    why.forEach((m, w) -> out.append(why.size() > 1 ? "; " + m + ": " : ": ").append(w));
    return new ParamAnswer.Unknown(out.toString());
  }

  /** Each {@code any} role at 1 thread, the others at their counts: the fewest that show what a worker alone reaches. */
  private static Map<String, Integer> fewest(Design design, List<String> anyRoles) {
    Map<String, Integer> out = new LinkedHashMap<>();
    for (Role r : design.roles()) {
      out.put(r.name(), anyRoles.contains(r.name()) ? 1 : r.threads());
    }
    return Collections.unmodifiableMap(out);
  }

  /**
   * The states of one worker alone, per role, with one more bit: whether other workers' streams may cache bytes that
   * this worker's {@code if free} would count (set when it takes the mutex, cleared by a release of every cached byte).
   */
  private static final class Alone {
    private final Design design;
    private final Model probe;
    private final String mutex;
    private final int stateLimit;
    private final Set<Condition> enforced;
    private final Set<ViolationKind> reached = EnumSet.noneOf(ViolationKind.class);
    private int states;
    private String broken;

    private record Node(long[] s, boolean foreign) {
      @Override
      public boolean equals(Object o) {
        return o instanceof Node n && n.foreign == foreign && Arrays.equals(n.s, s);
      }

      @Override
      public int hashCode() {
        return 31 * Arrays.hashCode(s) + (foreign ? 1 : 0);
      }
    }

    /** {@code probe}: the design with one worker per role. */
    Alone(Design design, Model probe, String mutex, int stateLimit, Set<Condition> enforced) {
      this.design = design;
      this.probe = probe;
      this.mutex = mutex;
      this.stateLimit = stateLimit;
      this.enforced = enforced;
    }

    /** Explores role r's worker alone, breadth first (so the condition reported broken is the nearest), until done or broken. */
    void explore(int r) {
      String role = design.roles().get(r).name();
      Map<Node, String> via = new HashMap<>(); // the step that first reached each state, for messages
      Deque<Node> queue = new ArrayDeque<>();
      Node first = new Node(probe.initial(), false);
      via.put(first, "the start");
      queue.add(first);
      long[] out = new long[probe.width()];
      while (!queue.isEmpty()) {
        Node n = queue.poll();
        long[] s = n.s;
        boolean holds = holds(s, r);
        if (!holds && !outsideIsClean(s, role, via.get(n))) {
          return;
        }
        for (int t = 0; t < probe.moves(); t++) {
          if (probe.roleOf(probe.threadOf(t)) != r) {
            continue;
          }
          Optional<Step> next = probe.nextStep(s, t);
          if (next.isEmpty()) {
            continue;
          }
          int code = probe.step(s, t, out);
          if (code == Model.BLOCKED || code == Model.FINISHED) {
            continue;
          }
          Step step = next.get();
          if (!allowed(s, t, step, holds, n.foreign, role)) {
            return;
          }
          ViolationKind k = Model.violation(code);
          if (k != null) {
            if (Parameterized.UPWARD.contains(k)) {
              reached.add(k); // the run ends at its first violation
            }
            continue;
          }
          Node to = new Node(out.clone(), foreignAfter(s, t, step, n.foreign));
          if (!via.containsKey(to)) {
            if (++states > stateLimit) {
              throw new SharedStates.TooLarge("more than " + stateLimit + " states of one worker alone");
            }
            via.put(to, "'" + step.text() + "'");
            queue.add(to);
          }
        }
      }
    }

    /** Whether role r's worker holds the mutex in s (any of its threads). */
    private boolean holds(long[] s, int r) {
      for (int t = 0; t < probe.threads(); t++) {
        if (probe.roleOf(t) == r && probe.view(s, t).mutexes().contains(mutex)) {
          return true;
        }
      }
      return false;
    }

    /** Whether a worker without the mutex in s has nothing live and nothing pending; if not, says so. */
    private boolean outsideIsClean(long[] s, String role, String via) {
      long live = probe.live(s) - design.residentBytes();
      if (live != 0 && enforced.contains(Condition.NOTHING_LIVE_OUTSIDE)) {
        return broken(role + "'s worker keeps " + bytes(live) + " live (" + buffers(s) + ") without holding " + mutex
            + ", after " + via + ": the next holder of " + mutex + " allocates beside them");
      }
      long pending = probe.memory(s).pendingTotal();
      if (pending != 0 && enforced.contains(Condition.NOTHING_PENDING_OUTSIDE)) {
        return broken(role + "'s worker leaves " + bytes(pending) + " freed asynchronously and not synchronized without"
            + " holding " + mutex + ", after " + via + ": a plain alloc of the next holder fails beside them");
      }
      return true;
    }

    /** Whether thread t may take {@code step} from s by the conditions; if not, says so. */
    private boolean allowed(long[] s, int t, Step step, boolean holds, boolean foreign, String role) {
      boolean memory = step instanceof Alloc || step instanceof Free || step instanceof Sync || step instanceof Trim
          || step instanceof IfFree;
      if (memory && !holds && enforced.contains(Condition.MEMORY_STEPS_UNDER_MUTEX)) {
        return broken("'" + step.text() + "' runs while " + role + "'s worker does not hold " + mutex);
      }
      if (step instanceof IfFree && foreign && enforced.contains(Condition.IF_FREE_AFTER_RELEASE)) {
        return broken("'" + step.text() + "' counts bytes that other workers' streams may cache: no trim (or"
            + " synchronization that releases every cached byte) between 'lock " + mutex + "' and it");
      }
      if (step instanceof Alloc a && a.async() && enforced.contains(Condition.OWN_PENDING_ONLY_AT_ASYNC_ALLOC)) {
        long others = probe.memory(s).pendingTotal() - probe.pending(s, t);
        if (others != 0) {
          return broken("'" + step.text() + "' may draw on " + bytes(others) + " that another thread of " + role
              + "'s worker freed asynchronously and has not synchronized: which stream the pool draws on depends on"
              + " what other workers cache");
        }
      }
      return true;
    }

    /** Whether other workers' streams may cache bytes after thread t's {@code step} from s. */
    private boolean foreignAfter(long[] s, int t, Step step, boolean foreign) {
      if (step instanceof Lock l && l.mutex().equals(mutex)) {
        return true;
      }
      boolean releasesAll = step instanceof Trim
          || (step instanceof Sync || step instanceof Alloc a && a.async() && probe.allocFails(s, t))
          && probe.memory(s).synchronizeReleasesAll();
      return foreign && !releasesAll;
    }

    /** The live buffers of s's threads, each once (a job's threads share its buffers). */
    private String buffers(long[] s) {
      Map<String, Long> all = new LinkedHashMap<>();
      for (int t = 0; t < probe.threads(); t++) {
        ThreadView v = probe.view(s, t);
        v.buffers().forEach(all::putIfAbsent);
      }
      List<String> out = all.entrySet().stream().map(e -> e.getKey() + " " + bytes(e.getValue())).toList();
      return out.isEmpty() ? "kept buffers" : String.join(", ", out);
    }

    private boolean broken(String why) {
      broken = why;
      return false;
    }

    private static String bytes(long n) {
      return Sizes.format(n);
    }
  }
}
