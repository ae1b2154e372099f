package dev.interlock.model.param;

import dev.interlock.model.check.SearchListener;
import java.util.ArrayDeque;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

/**
 * Backward coverability with a basis of minimal elements (Abdulla, Čerāns, Jonsson and Tsay, 1996): the configurations
 * from which an upward-closed set of configurations can be covered, as their minimal elements per shared state.
 *
 * <p>Starting from the basis of the target set, each new element's predecessor under every move is added unless an
 * element already covers it (and elements it covers are dropped). Dickson's lemma bounds the number of incomparable
 * vectors, so the iteration ends; when it does, the basis at a shared state describes exactly the configurations there
 * from which the target is coverable.
 */
final class Coverability {
  /** What the backward search did. */
  record Stats(int basisElements, long iterations, double seconds) {}

  private final LocalSystem local;
  private final SharedStates shared;
  private final long maxElements;
  /** Per role: how many workers it has at most (its count, or Integer.MAX_VALUE for an any role). */
  private final int[] workers;
  /** System.nanoTime() past which the search gives up. */
  private final long deadline;
  /** Per target shared state: the moves into it, each with the shared state it leaves. */
  private final List<List<SharedMove>> into;
  /** The most live bytes the workers hold in any reached configuration, resident ones left out ({@link #liveBound}). */
  private final long maxLive;

  private record SharedMove(LocalSystem.Move move, int fromShared) {}

  Coverability(LocalSystem local, SharedStates shared, int[] workers, long maxElements, long deadlineNanos) {
    this.workers = workers.clone();
    this.deadline = deadlineNanos;
    this.local = local;
    this.shared = shared;
    this.maxElements = maxElements;
    maxLive = Math.min(local.liveLimit(), liveBound());
    into = new ArrayList<>();
    for (int g = 0; g < shared.count(); g++) {
      into.add(new ArrayList<>());
    }
    for (LocalSystem.Move m : local.moves()) {
      for (int g = 0; g < shared.count(); g++) {
        int after = shared.after(g, m.lock(), m.unlock(), m.acquired());
        if (after >= 0) {
          into.get(after).add(new SharedMove(m, g));
        }
      }
    }
  }

  /** The basis, per shared state, of the configurations from which some of {@code targets} (local state, live bytes) is coverable. */
  Result run(List<LocalSystem.Poised> targets, String stage, SearchListener listener) {
    long start = System.nanoTime();
    Bases bases = new Bases();
    for (LocalSystem.Poised p : targets) {
      Vec v = Vec.of(p.local(), p.needLive()).withoutImpliedLive(local);
      for (int g = 0; g < shared.count(); g++) {
        bases.add(g, v);
      }
    }
    long iterations = 0;
    while (!bases.work.isEmpty()) {
      Item item = bases.work.poll();
      if (!bases.alive.contains(item.v())) {
        continue; // dropped since: a smaller element covers it and was (or will be) expanded
      }
      iterations++;
      for (SharedMove m : into.get(item.g())) {
        LocalSystem.Move mv = m.move();
        if (item.v().get(mv.to() + 1) == 0 && mv.liveDelta() <= 0 && m.fromShared() == item.g()) {
          continue; // the move cannot help: its predecessor is above v, at the same shared state
        }
        bases.add(m.fromShared(), item.v().pre(mv.from(), mv.to(), mv.liveDelta()).withoutImpliedLive(local));
      }
      if (bases.size > maxElements) {
        throw new SharedStates.TooLarge("the backward search passed " + maxElements + " basis elements");
      }
      // every iteration: one can take long once the basis is large (each addition compares with the whole basis)
      if (System.nanoTime() > deadline) {
        throw new SharedStates.TooLarge("the backward search ran out of time at " + bases.size + " basis elements");
      }
      if ((iterations & 63) == 0) {
        listener.analysis(stage, bases.size, iterations);
      }
    }
    return new Result(bases.basis, new Stats(bases.size, iterations, (System.nanoTime() - start) / 1e9));
  }

  /** An element to expand: vector v at shared state g. */
  private record Item(int g, Vec v) {}

  /** The bases of one search: minimal elements per shared state, those not yet expanded, and their number. */
  private final class Bases {
    final List<List<Vec>> basis = new ArrayList<>();
    final Deque<Item> work = new ArrayDeque<>();
    final Set<Vec> alive = Collections.newSetFromMap(new IdentityHashMap<>());
    int size;

    Bases() {
      for (int g = 0; g < shared.count(); g++) {
        basis.add(new ArrayList<>());
      }
    }

    /** Adds v at g unless an element covers it or no reached configuration lies above it; drops those it covers. */
    void add(int g, Vec v) {
      if (!consistent(g, v)) {
        return;
      }
      List<Vec> b = basis.get(g);
      for (Vec u : b) {
        if (u.leq(v)) {
          return;
        }
      }
      int before = b.size();
      b.removeIf(u -> {
        boolean covered = v.leq(u);
        if (covered) {
          alive.remove(u);
        }
        return covered;
      });
      size += 1 - (before - b.size());
      alive.add(v);
      b.add(v);
      work.add(new Item(g, v));
    }
  }

  /**
   * Whether some configuration above (g, v) keeps what every reachable configuration keeps: each held mutex has one
   * holder and g says it is held, g's available permits are the initial ones less those held, a role with a fixed
   * count has at most that many workers, and the live bytes fit beside the resident ones (an allocation beyond that
   * would have been an OOM first). An element no such configuration lies above covers nothing reached before the
   * first violation; docs/parameterized.md has the argument that dropping it keeps the answer exact.
   */
  private boolean consistent(int g, Vec v) {
    long heldInG = shared.held(g);
    long seen = 0;
    long[] permits = new long[local.permitKinds()];
    long liveBytes = 0;
    long[] perRole = new long[workers.length];
    for (int i = 0; i < v.keys.length; i++) {
      if (v.keys[i] == Vec.LIVE) {
        continue;
      }
      int l = v.keys[i] - 1;
      long n = v.values[i];
      long m = local.mutexes(l);
      if (m != 0 && (n > 1 || (seen & m) != 0 || (m & ~heldInG) != 0)) {
        return false;
      }
      seen |= m;
      for (int k = 0; k < permits.length; k++) {
        permits[k] += n * local.permits(l, k);
      }
      liveBytes += n * local.live(l);
      if ((perRole[local.role(l)] += n) > workers[local.role(l)]) {
        return false;
      }
    }
    long[] avail = shared.available(g);
    for (int k = 0; k < permits.length; k++) {
      if (permits[k] > shared.permits(k) - avail[k]) {
        return false;
      }
    }
    return Math.max(liveBytes, v.get(Vec.LIVE)) <= maxLive;
  }

  /**
   * An upper bound of the workers' live bytes (resident ones left out) in every reached configuration, from the
   * resources that bound how many workers can be where they hold bytes: each local state with live bytes is charged to
   * a mutex it holds (one holder), the permits it holds (at most the initial ones in all), or its role's fixed count.
   * Summed over the resources, capacity times the most bytes per unit of any state holding it bounds the sum over the
   * workers. {@code Long.MAX_VALUE} when some state of an {@code any} role holds bytes and none of these.
   */
  private long liveBound() {
    double[] perMutex = new double[Long.SIZE];
    double[] perPermit = new double[local.permitKinds()];
    double[] perRole = new double[workers.length];
    for (int l = 0; l < local.size(); l++) {
      long live = local.live(l);
      if (live <= 0) {
        continue;
      }
      boolean charged = false;
      for (long m = local.mutexes(l); m != 0; m &= m - 1) {
        int i = Long.numberOfTrailingZeros(m);
        perMutex[i] = Math.max(perMutex[i], live);
        charged = true;
      }
      for (int k = 0; k < perPermit.length; k++) {
        long p = local.permits(l, k);
        if (p > 0) {
          perPermit[k] = Math.max(perPermit[k], live / (double) p);
          charged = true;
        }
      }
      int r = local.role(l);
      if (workers[r] != Integer.MAX_VALUE) {
        perRole[r] = Math.max(perRole[r], live);
        charged = true;
      }
      if (!charged) {
        return Long.MAX_VALUE;
      }
    }
    double bound = 0;
    for (double x : perMutex) {
      bound += x;
    }
    for (int k = 0; k < perPermit.length; k++) {
      bound += perPermit[k] * shared.permits(k);
    }
    for (int r = 0; r < perRole.length; r++) {
      bound += perRole[r] * workers[r];
    }
    return bound >= Long.MAX_VALUE ? Long.MAX_VALUE : (long) Math.ceil(bound);
  }

  /** The basis per shared state, and statistics. */
  record Result(List<List<Vec>> basis, Stats stats) {}
}
