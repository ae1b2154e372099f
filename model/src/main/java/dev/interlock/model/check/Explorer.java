package dev.interlock.model.check;

import dev.interlock.model.state.Model;
import dev.interlock.model.state.Violation;
import dev.interlock.model.state.ViolationKind;
import dev.interlock.model.trace.Outcome;
import dev.interlock.model.trace.Trace;
import dev.interlock.model.trace.TraceRecorder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * Exhaustive breadth-first search of a model's states, so every trace it reports is a shortest one.
 *
 * <p>Threads of one role are interchangeable, so states are kept in canonical form (symmetry
 * reduction) and, of several threads in the same local state, only the first is stepped.
 * Violating transitions are dead ends: the search records them and does not go past them.
 * A failing step from depth d gives a trace of d + 1 transitions, a deadlocked state at depth d
 * one of d; findings are therefore settled at the end of each BFS level, shortest first.
 */
public final class Explorer {

  /**
   * Search options.
   *
   * @param maxStates     stop after this many distinct states; the result then says the limit was reached
   * @param symmetry      canonicalize states over threads of one role
   * @param allViolations keep searching after the first violation and report the shortest trace of each kind
   * @param overlap       also look for the shortest trace to a state where the two intervals overlap
   * @param until         with allViolations: stop at the end of the first level by which a violation, every kind of
   *                      this set and every kind as short as the shortest found have been found (and the overlap
   *                      witness, if asked); all kinds searches everything, the empty set up to the shortest violations
   */
  public record Options(long maxStates, boolean symmetry, boolean allViolations, Optional<OverlapQuery> overlap,
      Set<ViolationKind> until) {
    public Options {
      if (maxStates < 1 || maxStates > Integer.MAX_VALUE - 1) {
        throw new IllegalArgumentException("max states must be in 1.." + (Integer.MAX_VALUE - 1) + ", got " + maxStates);
      }
      Objects.requireNonNull(overlap, "overlap");
      until = until.isEmpty() ? Set.of() : Collections.unmodifiableSet(EnumSet.copyOf(until));
    }

    /** Options that search everything for all violations, or up to the first violation. */
    public Options(long maxStates, boolean symmetry, boolean allViolations, Optional<OverlapQuery> overlap) {
      this(maxStates, symmetry, allViolations, overlap, EnumSet.allOf(ViolationKind.class));
    }

    /** Search for the first violation with symmetry reduction and the given limit. */
    public static Options firstViolation(long maxStates) {
      return new Options(maxStates, true, false, Optional.empty());
    }
  }

  private record Candidate(int state, int thread, ViolationKind kind, int length, long order) {}

  private final Model model;
  private final String source;
  private final Options options;
  private final SearchListener listener;
  private final List<Candidate> pending = new ArrayList<>();
  private final Map<ViolationKind, Candidate> best = new EnumMap<>(ViolationKind.class);
  private long order;
  private Candidate first;

  private Explorer(Model model, String source, Options options, SearchListener listener) {
    this.model = model;
    this.source = source;
    this.options = options;
    this.listener = Objects.requireNonNull(listener, "listener");
  }

  /** Explores the state space of {@code model}; {@code source} names the design file in traces. */
  public static Exploration explore(Model model, String source, Options options) {
    return explore(model, source, options, SearchListener.NONE);
  }

  /** As {@link #explore(Model, String, Options)}, telling {@code listener} how far the search is. */
  public static Exploration explore(Model model, String source, Options options, SearchListener listener) {
    return new Explorer(model, source, options, listener).run();
  }

  private Exploration run() {
    long start = System.nanoTime();
    int a = -1;
    int b = -1;
    if (options.overlap().isPresent()) {
      a = intervalId(options.overlap().get().a());
      b = intervalId(options.overlap().get().b());
    }
    boolean wantOverlap = a >= 0;
    boolean sameWorker = options.overlap().map(OverlapQuery::sameWorker).orElse(false);
    int w = model.width();
    int threads = model.threads();
    boolean symmetry = options.symmetry();
    StateStore store = new StateStore(w);
    long[] s = new long[w];
    long[] out = new long[w];
    long[] init = model.initial();
    model.canonicalize(init);
    store.add(init, -1);
    int witness = wantOverlap && model.overlaps(init, a, b, sameWorker) ? 0 : -1;
    long transitions = 0;
    boolean limit = false;
    boolean stoppedEarly = false;
    int depth = 0;
    int levelEnd = 1;
    listener.progress(depth, store.size(), transitions, store.size());
    search:
    for (int cur = 0; cur < store.size(); cur++) {
      if (cur == levelEnd) {
        settleLevel();
        if (done(wantOverlap, witness, depth)) {
          stoppedEarly = true;
          break;
        }
        depth++;
        levelEnd = store.size();
        listener.progress(depth, store.size(), transitions, store.size() - cur);
      } else if (cur % SearchListener.EVERY == 0) {
        listener.progress(depth, store.size(), transitions, store.size() - cur);
      }
      store.load(cur, s);
      boolean moved = false;
      boolean unfinished = false;
      for (int t = 0; t < threads; t++) {
        if (symmetry && model.symmetricToEarlier(s, t)) {
          continue;
        }
        int code = model.step(s, t, out);
        if (code == Model.FINISHED) {
          continue;
        }
        unfinished = true;
        if (code == Model.BLOCKED) {
          continue;
        }
        moved = true;
        transitions++;
        ViolationKind v = Model.violation(code);
        if (v != null) {
          offer(new Candidate(cur, t, v, depth + 1, order++));
          continue;
        }
        if (symmetry) {
          model.canonicalize(out);
        }
        if (store.size() >= options.maxStates()) {
          limit = true;
          break search;
        }
        int idx = store.add(out, cur);
        if (idx >= 0 && witness < 0 && wantOverlap && model.overlaps(out, a, b, sameWorker)) {
          witness = idx;
        }
      }
      if (unfinished && !moved) {
        offer(new Candidate(cur, -1, ViolationKind.DEADLOCK, depth, order++));
      }
      if (wantOverlap && witness >= 0 && first != null && !options.allViolations()) {
        stoppedEarly = cur + 1 < store.size();
        break;
      }
    }
    settleLevel();
    List<Candidate> chosen = options.allViolations()
        ? best.values().stream().sorted(Comparator.comparingInt(Candidate::length).thenComparingLong(Candidate::order)).toList()
        : first == null ? List.of() : List.of(first);
    List<Finding> findings = new ArrayList<>();
    for (Candidate c : chosen) {
      findings.add(finding(store, c));
    }
    Optional<Trace> witnessTrace = Optional.empty();
    if (witness >= 0) {
      OverlapQuery q = options.overlap().get();
      witnessTrace = Optional.of(reconstruct(store, witness, -1, null, new Outcome.Overlapped(q.a(), q.b(), q.sameWorker())).trace);
    }
    double seconds = (System.nanoTime() - start) / 1e9;
    return new Exploration(findings, witnessTrace, store.size(), transitions, seconds, limit, !limit && !stoppedEarly);
  }

  private int intervalId(String name) {
    int id = model.intervalNames().indexOf(name);
    if (id < 0) {
      throw new IllegalArgumentException("no interval '" + name + "' in design " + model.design().name()
          + " (intervals: " + String.join(", ", model.intervalNames()) + ")");
    }
    return id;
  }

  private void offer(Candidate c) {
    if (options.allViolations()) {
      Candidate old = best.get(c.kind());
      if (old == null || c.length() < old.length()) {
        best.put(c.kind(), c);
      }
    } else if (first == null) {
      pending.add(c);
    }
  }

  /** At the end of a level every shorter trace has been seen: the shortest pending candidate is final. */
  private void settleLevel() {
    if (first == null && !pending.isEmpty()) {
      first = pending.stream().min(Comparator.comparingInt(Candidate::length).thenComparingLong(Candidate::order)).get();
      pending.clear();
    }
  }

  /**
   * Whether the search may stop after level {@code depth}. Then every failing step from it and every deadlock up to it
   * has been offered, so each kind found has its shortest trace, and no kind missing could be as short as one found
   * with at most {@code depth} transitions.
   */
  private boolean done(boolean wantOverlap, int witness, int depth) {
    if (wantOverlap && witness < 0) {
      return false;
    }
    if (!options.allViolations()) {
      return first != null;
    }
    return !best.isEmpty() && best.keySet().containsAll(options.until())
        && best.values().stream().mapToInt(Candidate::length).min().getAsInt() <= depth;
  }

  private Finding finding(StateStore store, Candidate c) {
    Rebuilt r = reconstruct(store, c.state(), c.thread(), c.kind(), null);
    return new Finding(r.violation, r.trace);
  }

  private record Rebuilt(Trace trace, Violation violation) {}

  /**
   * Turns the canonical path to {@code target} into a concrete trace with real thread names.
   *
   * <p>Each canonical state on the path stands for a set of permuted concrete states; walking
   * forward, the first thread whose step leads into the next canonical state is taken. The
   * schedule is then tidied to switch threads as rarely as possible (same length, same ending).
   */
  private Rebuilt reconstruct(StateStore store, int target, int failingThread, ViolationKind kind, Outcome outcome) {
    List<Integer> path = new ArrayList<>();
    for (int i = target; i >= 0; i = store.parent(i)) {
      path.add(0, i);
    }
    int w = model.width();
    long[] cur = model.initial();
    long[] next = new long[w];
    long[] out = new long[w];
    long[] canon = new long[w];
    List<Integer> schedule = new ArrayList<>();
    for (int k = 1; k < path.size(); k++) {
      store.load(path.get(k), next);
      boolean found = false;
      for (int t = 0; t < model.threads() && !found; t++) {
        if (model.step(cur, t, out) != Model.MOVED) {
          continue;
        }
        System.arraycopy(out, 0, canon, 0, w);
        if (options.symmetry()) {
          model.canonicalize(canon);
        }
        if (Arrays.equals(canon, next)) {
          schedule.add(t);
          cur = out.clone();
          found = true;
        }
      }
      if (!found) {
        throw new IllegalStateException("no transition leads to state " + path.get(k) + " on the path");
      }
    }
    if (failingThread >= 0) {
      store.load(target, next);
      schedule.add(model.correspondingThread(cur, next, failingThread));
    }
    ScheduleTidier tidier;
    if (outcome instanceof Outcome.Overlapped ov) {
      int a = model.intervalNames().indexOf(ov.a());
      int b = model.intervalNames().indexOf(ov.b());
      tidier = new ScheduleTidier(model, null, st -> model.overlaps(st, a, b, ov.sameWorker()));
    } else {
      tidier = new ScheduleTidier(model, failingThread >= 0 ? kind : null, model::deadlocked);
    }
    return replay(tidier.tidy(schedule.stream().mapToInt(Integer::intValue).toArray()), failingThread >= 0, kind, outcome);
  }

  /** Runs a concrete schedule and records it as a trace; explains the violation from the real state. */
  private Rebuilt replay(int[] schedule, boolean lastFails, ViolationKind kind, Outcome outcome) {
    long[] cur = model.initial();
    long[] out = new long[cur.length];
    TraceRecorder rec = new TraceRecorder(model);
    int moves = lastFails ? schedule.length - 1 : schedule.length;
    for (int k = 0; k < moves; k++) {
      model.step(cur, schedule[k], out);
      rec.record(cur, schedule[k], out);
      long[] tmp = cur;
      cur = out;
      out = tmp;
    }
    if (outcome != null) {
      return new Rebuilt(rec.finish(source, Optional.empty(), outcome), null);
    }
    Violation v;
    if (!lastFails) {
      v = new Violation(kind, model.explainDeadlock(cur));
    } else {
      int t = schedule[schedule.length - 1];
      v = new Violation(kind, model.explain(cur, t, kind));
      model.step(cur, t, out);
      rec.record(cur, t, out);
    }
    return new Rebuilt(rec.finish(source, Optional.empty(), new Outcome.Violated(v)), v);
  }
}
