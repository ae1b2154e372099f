package dev.interlock.model.param;

import dev.interlock.model.design.Design;
import dev.interlock.model.state.Model;
import dev.interlock.model.state.ThreadView;
import dev.interlock.model.state.ViolationKind;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One worker's local states and moves, per role, as {@link Model} steps them: the transition relation of the counter
 * abstraction, read off the single source of truth instead of restating its rules.
 *
 * <p>The probe is the design with one worker per role. A local state of role r is the probe's state with only r's
 * worker moved; slot 0 (Model's live bytes) then holds the resident bytes plus that worker's live bytes. Stepped as it
 * is, an allocation succeeds when it fits beside the worker's own bytes: the move of the relaxed system, whose
 * allocations ignore the other workers. Whether it would fail beside L live bytes in all is asked of Model by setting
 * the slot to L ({@link #oomFrom}). The worker's
 * holdings of mutexes and permits come from {@link Model#view}, their change is what the move does to the shared state,
 * and whether the move may happen from a shared state is {@link SharedStates#after}: Model's lock waits for a mutex
 * nobody holds, its acquire for enough available permits, and nothing else a worker does in the monotone fragment
 * ({@link Fragment}) reads another worker.
 */
final class LocalSystem {
  /** A move of one worker: from local state {@code from} to {@code to}, with its change of the shared state and live bytes. */
  record Move(int from, int to, long lock, long unlock, long[] acquired, long liveDelta) {}

  /** A local state poised at a violation of {@code kind} once the live bytes of all workers reach {@code needLive}. */
  record Poised(int local, ViolationKind kind, long needLive) {}

  private static final int LIVE_SLOT = 0;

  private final Model probe;
  private final Design design;
  private final List<long[]> states = new ArrayList<>();
  private final List<Integer> roleOf = new ArrayList<>();
  private final List<Long> live = new ArrayList<>();
  private final List<Holdings> held = new ArrayList<>();
  private final Map<Key, Integer> ids = new HashMap<>();
  private final List<Move> moves = new ArrayList<>();
  private final List<Poised> poised = new ArrayList<>();
  private final int[] initial;

  private record Key(int role, long[] s) {
    @Override
    public boolean equals(Object o) {
      return o instanceof Key k && k.role == role && Arrays.equals(k.s, s);
    }

    @Override
    public int hashCode() {
      return 31 * role + Arrays.hashCode(s);
    }
  }

  /** Explores every role's local states of {@code design} (thread counts are ignored); at most {@code limit} in all. */
  LocalSystem(Design design, Set<ViolationKind> kinds, int limit) {
    this.design = design;
    int[] ones = new int[design.roles().size()];
    Arrays.fill(ones, 1);
    probe = new Model(design.withThreadCounts(ones));
    initial = new int[ones.length];
    long[] out = new long[probe.width()];
    for (int r = 0; r < ones.length; r++) {
      Deque<Integer> queue = new ArrayDeque<>();
      initial[r] = id(r, probe.initial(), queue, limit);
      while (!queue.isEmpty()) {
        int l = queue.poll();
        long[] s = states.get(l);
        for (int t = 0; t < probe.moves(); t++) {
          if (probe.roleOf(probe.threadOf(t)) != r) {
            continue;
          }
          int code = probe.step(s, t, out);
          ViolationKind k = Model.violation(code);
          if (code == Model.MOVED) {
            long[] next = out.clone();
            int to = id(r, next, queue, limit);
            Holdings before = held.get(l);
            Holdings after = held.get(to);
            long[] acquired = new long[before.permits.length];
            Arrays.setAll(acquired, i -> after.permits[i] - before.permits[i]);
            moves.add(new Move(l, to, after.mutexes & ~before.mutexes, before.mutexes & ~after.mutexes, acquired,
                probe.live(next) - probe.live(s)));
            ViolationKind fails = failing(s, t, design.vram(), out);
            long need = fails == null ? -1 : oomFrom(s, t, fails, out);
            if (need >= 0 && kinds.contains(fails)) {
              poised.add(new Poised(l, fails, need));
            }
          } else if (k != null && kinds.contains(k)) {
            poised.add(new Poised(l, k, 0));
          }
        }
      }
    }
  }

  /**
   * The fewest live bytes of all workers, resident ones left out, beside which thread t's step from s fails with
   * {@code kind} (OOM or SWALLOWED_OOM, which it fails with beside vram live bytes; Model is asked at each candidate: the answer is monotone, as an allocation that fails beside L bytes fails
   * beside more); -1 when it never does.
   */
  private long oomFrom(long[] s, int t, ViolationKind kind, long[] out) {
    long vram = design.vram();
    long lo = probe.live(s); // the step moved beside this worker's own bytes
    long hi = vram;
    while (hi - lo > 1) {
      long mid = lo + (hi - lo) / 2;
      if (failing(s, t, mid, out) == kind) {
        hi = mid;
      } else {
        lo = mid;
      }
    }
    return Math.max(0, hi - design.residentBytes());
  }

  /**
   * How thread t's step from s fails for want of memory beside {@code liveBytes} live bytes: {@code OOM}, or
   * {@code SWALLOWED_OOM} for an allocation whose failure is ignored (the same condition, another verdict); null when
   * it does not fail so.
   */
  private ViolationKind failing(long[] s, int t, long liveBytes, long[] out) {
    long[] x = s.clone();
    x[LIVE_SLOT] = liveBytes;
    ViolationKind k = Model.violation(probe.step(x, t, out));
    return k == ViolationKind.OOM || k == ViolationKind.SWALLOWED_OOM ? k : null;
  }

  private record Holdings(long mutexes, long[] permits) {}

  /** The mutexes and permits role r's worker holds in probe state s, as Model's thread views say. */
  private Holdings holdings(long[] s, int r) {
    long mutexes = 0;
    long[] permits = new long[design.semaphores().size()];
    for (int t = 0; t < probe.threads(); t++) {
      if (probe.roleOf(t) != r) {
        continue;
      }
      ThreadView v = probe.view(s, t);
      for (String m : v.mutexes()) {
        mutexes |= 1L << design.mutexIndex(m);
      }
      v.permits().forEach((sem, n) -> permits[design.semaphoreIndex(sem)] += n);
    }
    return new Holdings(mutexes, permits);
  }

  private int id(int role, long[] s, Deque<Integer> queue, int limit) {
    Key k = new Key(role, s);
    Integer known = ids.get(k);
    if (known != null) {
      return known;
    }
    if (states.size() >= limit) {
      throw new SharedStates.TooLarge("more than " + limit + " local states of one worker");
    }
    int id = states.size();
    states.add(s);
    roleOf.add(role);
    live.add(probe.live(s) - design.residentBytes());
    held.add(holdings(s, role));
    ids.put(k, id);
    queue.add(id);
    return id;
  }

  int size() {
    return states.size();
  }

  /** The local state every worker of role r starts in. */
  int initial(int r) {
    return initial[r];
  }

  /** Bytes live in the buffers of a worker in local state l (resident buffers not counted). */
  long live(int l) {
    return live.get(l);
  }

  /** The role whose worker local state l is. */
  int role(int l) {
    return roleOf.get(l);
  }

  /** The mutexes (bit i: mutex i) a worker in local state l holds. */
  long mutexes(int l) {
    return held.get(l).mutexes;
  }

  /** The permits of semaphore i a worker in local state l holds. */
  long permits(int l, int i) {
    return held.get(l).permits[i];
  }

  /** Number of semaphores. */
  int permitKinds() {
    return design.semaphores().size();
  }

  /** Resident bytes plus the most live bytes of all workers: more is an OOM already. */
  long liveLimit() {
    return design.vram() - design.residentBytes();
  }

  List<Move> moves() {
    return moves;
  }

  List<Poised> poised() {
    return poised;
  }
}
