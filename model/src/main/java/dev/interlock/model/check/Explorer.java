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
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Exhaustive breadth-first search of a model's states, so every trace it reports is a shortest one.
 *
 * <p>Threads of one role are interchangeable, so states are kept in canonical form (symmetry
 * reduction) and, of several threads in the same local state, only the first is stepped.
 * Violating transitions are dead ends: the search records them and does not go past them.
 * A failing step from depth d gives a trace of d + 1 transitions, a deadlocked state at depth d
 * one of d; findings are therefore settled at the end of each BFS level, shortest first.
 *
 * <p>The search is level-synchronous: each level's states are expanded (on several threads with
 * {@link Options#searchThreads}), their new successors are then merged into the {@link StateStore}
 * in the order a single thread would have found them, so states, transitions, findings and traces are
 * the same whatever the thread count. States are stored packed ({@link StatePacker}).
 *
 * <p>Partial-order reduction ({@link Options#por}): from a state where some thread's next step is
 * local ({@link Model#localStep}: it commutes with every other thread's steps, stays enabled, and
 * changes no interval an overlap query names), that one step is the only one taken (an ample set of
 * one). Every violation, deadlock and overlap reachable in the full graph stays reachable: a path to
 * it either contains that step, which can be moved to its front, or does not, and then the step can
 * be put in front of it without changing what the path reaches. The ignoring problem needs a fully
 * expanded state on every cycle; the reduced step is taken only when it leads to a state not yet
 * seen at this depth or before (else the state is expanded fully), and an edge that closes a cycle in
 * a breadth-first search always leads to such an earlier state. States are canonical, so this holds
 * on the symmetry-reduced graph, where the local steps are the same for permuted workers. (With finite
 * jobs the graph has no cycles at all: every step advances one worker.) Reduced paths are not
 * shortest, so the reduced search only decides: when it finds a violation or an overlap witness,
 * the plain breadth-first search runs again with the same options and its shortest traces and
 * statistics are reported; when it finds none (SAFE, UNREACHABLE), its own statistics are.
 *
 * <p>With asynchronous allocations the reduced search also stops, and the plain one runs, at the first step that
 * makes the pool choose among streams with equal cached bytes ({@link Model#breaksPoolTie}): that choice follows the
 * workers' whole blocks, so a local step could change it. docs/reduction.md gives the argument for each step kind.
 */
public final class Explorer {
  /** Levels smaller than this are expanded on the calling thread: handing them out costs more than it saves. */
  private static final int PARALLEL_LEVEL = 4096;
  /** System property that overrides {@link #PARALLEL_LEVEL}, so tests can run small searches on several threads. */
  public static final String PARALLEL_LEVEL_PROPERTY = "interlock.search.parallelLevel";

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
   * @param por           partial-order reduction (decide on the reduced graph, re-run plainly for shortest traces)
   * @param searchThreads threads that expand each level (the result does not depend on it)
   * @param maxMemory     stop when the state store would take more bytes than this; the result says the limit was
   *                      reached, and that it was the memory one
   */
  public record Options(long maxStates, boolean symmetry, boolean allViolations, Optional<OverlapQuery> overlap,
      Set<ViolationKind> until, boolean por, int searchThreads, long maxMemory) {
    public Options {
      if (maxStates < 1 || maxStates > Integer.MAX_VALUE - 1) {
        throw new IllegalArgumentException("max states must be in 1.." + (Integer.MAX_VALUE - 1) + ", got " + maxStates);
      }
      if (searchThreads < 1 || searchThreads > 1024) {
        throw new IllegalArgumentException("search threads must be in 1..1024, got " + searchThreads);
      }
      if (maxMemory < 1) {
        throw new IllegalArgumentException("max memory must be positive, got " + maxMemory);
      }
      Objects.requireNonNull(overlap, "overlap");
      until = until.isEmpty() ? Set.of() : Collections.unmodifiableSet(EnumSet.copyOf(until));
    }

    /** Options with partial-order reduction, one search thread and no memory limit. */
    public Options(long maxStates, boolean symmetry, boolean allViolations, Optional<OverlapQuery> overlap,
        Set<ViolationKind> until) {
      this(maxStates, symmetry, allViolations, overlap, until, true, 1, Long.MAX_VALUE);
    }

    /** Options that search everything for all violations, or up to the first violation. */
    public Options(long maxStates, boolean symmetry, boolean allViolations, Optional<OverlapQuery> overlap) {
      this(maxStates, symmetry, allViolations, overlap, EnumSet.allOf(ViolationKind.class));
    }

    /** Search for the first violation with symmetry reduction and the given limit. */
    public static Options firstViolation(long maxStates) {
      return new Options(maxStates, true, false, Optional.empty());
    }

    /** These options with the given reduction, thread count and memory limit. */
    public Options withSearch(boolean por, int searchThreads, long maxMemory) {
      return new Options(maxStates, symmetry, allViolations, overlap, until, por, searchThreads, maxMemory);
    }
  }

  /** Which steps the reduced search takes alone: the model's rule, or (in mutation tests) a deliberately wrong one. */
  @FunctionalInterface
  public interface LocalRule {
    /** Whether thread t's next step from s is local (see {@link Model#localStep}). */
    boolean local(Model model, long[] s, int t, boolean[] visible);
  }

  /**
   * How a reduced search reduces: which steps are local, and whether it falls back to the plain search at a pool tie.
   * Only {@link #MODEL} is sound; mutation tests build others to show that the properties catch a wrong one.
   */
  public record Reduction(LocalRule local, boolean poolTieFallback) {
    /** The model's rule with the fallback: what every search uses. */
    public static final Reduction MODEL = new Reduction(Model::localStep, true);

    public Reduction {
      Objects.requireNonNull(local, "local");
    }
  }

  /** A violation to report: the state it fails from (or that is deadlocked), the thread, and the generation order. */
  private record Candidate(int state, int thread, ViolationKind kind, int length, long order) {}

  private final Model model;
  private final String source;
  private final Options options;
  private final boolean por;
  private final SearchListener listener;
  private final List<Candidate> pending = new ArrayList<>();
  private final Map<ViolationKind, Candidate> best = new EnumMap<>(ViolationKind.class);
  private Candidate first;
  private final StatePacker packer;
  private final StateStore store;
  private final boolean[] visible;
  private int overlapA = -1;
  private int overlapB = -1;
  private boolean sameWorker;
  private long reducedSteps;
  private final Reduction reduction;
  /** The reduced search stopped at a step that broke a pool tie; its result stands for nothing. */
  private volatile boolean poolTie;

  private Explorer(Model model, String source, Options options, boolean por, SearchListener listener) {
    this(model, source, options, por, listener, Reduction.MODEL);
  }

  private Explorer(Model model, String source, Options options, boolean por, SearchListener listener,
      Reduction reduction) {
    this.reduction = Objects.requireNonNull(reduction, "reduction");
    this.model = model;
    this.source = source;
    this.options = options;
    this.por = por;
    this.listener = Objects.requireNonNull(listener, "listener");
    this.packer = new StatePacker(model.wordBits());
    this.store = new StateStore(packer.packedWidth());
    this.visible = new boolean[model.intervalNames().size()];
    if (options.overlap().isPresent()) {
      overlapA = intervalId(options.overlap().get().a());
      overlapB = intervalId(options.overlap().get().b());
      sameWorker = options.overlap().get().sameWorker();
      visible[overlapA] = true;
      visible[overlapB] = true;
    }
  }

  /**
   * Explores the state space of {@code model}; {@code source} names the design file in traces. With partial-order
   * reduction, a reduced search that finds a violation or a witness is followed by the plain one (see the class).
   */
  public static Exploration explore(Model model, String source, Options options) {
    return explore(model, source, options, SearchListener.NONE);
  }

  /** As {@link #explore(Model, String, Options)}, telling {@code listener} how far the search (or its re-run) is. */
  public static Exploration explore(Model model, String source, Options options, SearchListener listener) {
    Explorer reduced = new Explorer(model, source, options, options.por(), listener);
    Exploration e = reduced.run();
    if (!reduced.poolTie && (!e.reduced() || e.findings().isEmpty() && e.witness().isEmpty())) {
      return e; // SAFE or UNREACHABLE, or no step was reduced: then the reduced search was the plain one
    }
    Exploration plain = new Explorer(model, source, options, false, listener).run();
    return new Exploration(plain.findings(), plain.witness(), plain.states(), plain.transitions(),
        e.seconds() + plain.seconds(), plain.limitReached(), plain.exhaustive(), plain.memoryLimit(),
        Math.max(e.peakBytes(), plain.peakBytes()), false, plain.heapLimit());
  }

  /**
   * The partial-order reduced search alone, without the plain re-run: the same violation kinds, deadlocks and overlap
   * answers as {@link #explore}, with traces that are real but need not be shortest. For tests and measurements.
   */
  public static Exploration exploreReduced(Model model, String source, Options options) {
    return exploreReduced(model, source, options, Reduction.MODEL);
  }

  /**
   * The reduced search alone with the given reduction; when it stops at a pool tie (and the reduction falls back),
   * the plain search's result, whose {@code reduced} is false.
   */
  public static Exploration exploreReduced(Model model, String source, Options options, Reduction reduction) {
    Explorer e = new Explorer(model, source, options, true, SearchListener.NONE, reduction);
    Exploration result = e.run();
    return e.poolTie ? new Explorer(model, source, options, false, SearchListener.NONE).run() : result;
  }

  /** One slice of a level: its states' new successors (packed, in order), violations and transitions. */
  private final class Slice implements Callable<Slice> {
    private final int from;
    private final int to;
    private final int depth;
    private final int w = model.width();
    private final int pw = packer.packedWidth();
    private final long[] s = new long[w];
    private final long[] out = new long[w];
    private final long[] packed = new long[pw];
    private long[] states;
    private int[] parents = new int[64];
    private int[] hashes = new int[64];
    private boolean[] overlapping = new boolean[64];
    private int count;
    private final List<Candidate> offers = new ArrayList<>();
    private long transitions;
    private long reduced;

    Slice(int from, int to, int depth) {
      this.from = from;
      this.to = to;
      this.depth = depth;
      this.states = new long[64 * pw];
    }

    @Override
    public Slice call() {
      for (int cur = from; cur < to; cur++) {
        expand(cur);
      }
      return this;
    }

    private void expand(int cur) {
      store.load(cur, packed);
      packer.unpack(packed, s);
      if (por && ample(cur)) {
        return;
      }
      boolean moved = false;
      boolean unfinished = false;
      for (int t = 0; t < model.moves(); t++) {
        if (options.symmetry() && model.symmetricToEarlier(s, t)) {
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
        if (por && reduction.poolTieFallback() && model.breaksPoolTie(s, t)) {
          poolTie = true;
        }
        ViolationKind v = Model.violation(code);
        if (v != null) {
          offers.add(new Candidate(cur, t, v, depth + 1, order(cur, t)));
          continue;
        }
        successor(cur);
      }
      if (unfinished && !moved) {
        offers.add(new Candidate(cur, -1, ViolationKind.DEADLOCK, depth, order(cur, model.moves())));
      }
    }

    /** Takes the first local step that leads to a state not seen at this depth or before; false when there is none. */
    private boolean ample(int cur) {
      for (int t = 0; t < model.threads(); t++) {
        if (options.symmetry() && model.symmetricToEarlier(s, t) || !reduction.local().local(model, s, t, visible)
            || model.step(s, t, out) != Model.MOVED) {
          continue;
        }
        if (options.symmetry()) {
          model.canonicalize(out);
        }
        packer.pack(out, packed);
        int h = StateStore.hash(packed, 0, pw);
        if (store.find(packed, h) >= 0) {
          continue;
        }
        transitions++;
        reduced++;
        append(cur, h);
        return true;
      }
      return false;
    }

    /** Records the successor in {@code out} unless an earlier level has it. */
    private void successor(int cur) {
      if (options.symmetry()) {
        model.canonicalize(out);
      }
      packer.pack(out, packed);
      int h = StateStore.hash(packed, 0, pw);
      if (store.find(packed, h) < 0) {
        append(cur, h);
      }
    }

    private void append(int cur, int h) {
      if (count == parents.length) {
        int n = count * 2;
        states = Arrays.copyOf(states, n * pw);
        parents = Arrays.copyOf(parents, n);
        hashes = Arrays.copyOf(hashes, n);
        overlapping = Arrays.copyOf(overlapping, n);
      }
      System.arraycopy(packed, 0, states, count * pw, pw);
      parents[count] = cur;
      hashes[count] = h;
      overlapping[count] = overlapA >= 0 && model.overlaps(out, overlapA, overlapB, sameWorker);
      count++;
    }

    long bytes() {
      return states.length * 8L + parents.length * 9L;
    }
  }

  /** Held during {@link #run} and released when the heap runs out inside the search (a field, so it is kept). */
  private byte[] reserve;

  /**
   * Bytes held aside during a search and released when the heap runs out inside it: a sixteenth of the maximum heap,
   * between 1 MiB and 64 MiB.
   */
  static int heapReserve() {
    return (int) Math.max(1L << 20, Math.min(64L << 20, Runtime.getRuntime().maxMemory() / 16));
  }

  /** The generation order of thread t's transition from state cur (t = threads: the deadlock check after them). */
  private long order(int cur, int t) {
    return (long) cur * (model.moves() + 1) + t;
  }

  private Exploration run() {
    long start = System.nanoTime();
    boolean wantOverlap = overlapA >= 0;
    long[] init = model.initial();
    model.canonicalize(init);
    long[] packed = new long[packer.packedWidth()];
    packer.pack(init, packed);
    store.add(packed, -1);
    int witness = wantOverlap && model.overlaps(init, overlapA, overlapB, sameWorker) ? 0 : -1;
    long transitions = 0;
    boolean limit = false;
    boolean memoryLimit = false;
    boolean heapLimit = false;
    boolean stoppedEarly = false;
    // room for what follows a search stopped by the heap: settling the level, rebuilding traces, the report
    reserve = new byte[heapReserve()];
    long peak = store.bytes();
    int depth = 0;
    int levelStart = 0;
    ExecutorService pool = options.searchThreads() > 1 ? Executors.newFixedThreadPool(options.searchThreads(), r -> {
      Thread t = new Thread(r, "interlock-search");
      t.setDaemon(true);
      // the heap running out is the search's to report (a LIMIT verdict), not a stack trace of the pool's thread
      t.setUncaughtExceptionHandler((th, e) -> {
        if (!(e instanceof OutOfMemoryError)) {
          th.getThreadGroup().uncaughtException(th, e);
        }
      });
      return t;
    }) : null;
    listener.progress(depth, store.size(), transitions, store.size());
    SearchSize size = listener == SearchListener.NONE ? null : SearchSize.of(model);
    try {
      search:
      while (levelStart < store.size()) {
        try {
          int levelEnd = store.size();
          List<Slice> slices = expandLevel(pool, levelStart, levelEnd, depth);
          long pendingBytes = slices.stream().mapToLong(Slice::bytes).sum();
          peak = Math.max(peak, store.bytes() + pendingBytes);
          for (Slice sl : slices) {
            transitions += sl.transitions;
            reducedSteps += sl.reduced;
            sl.offers.forEach(this::offer);
          }
          for (Slice sl : slices) {
            int pw = packer.packedWidth();
            for (int i = 0; i < sl.count; i++) {
              if (store.size() >= options.maxStates()) {
                limit = true;
                break search;
              }
              if (store.bytesAfterAdd() + pendingBytes > options.maxMemory()) {
                limit = true;
                memoryLimit = true;
                break search;
              }
              int idx = store.add(sl.states, i * pw, sl.hashes[i], sl.parents[i]);
              if (idx >= 0 && witness < 0 && sl.overlapping[i]) {
                witness = idx;
              }
            }
            if (slices.size() > 1 && store.size() > levelEnd) {
              listener.progress(depth, store.size(), transitions, store.size() - levelEnd);
            }
          }
          peak = Math.max(peak, store.bytes() + pendingBytes);
          levelStart = levelEnd;
          if (poolTie) {
            break; // the reduction does not hold here: the plain search answers (see explore)
          }
          settleLevel();
          if (done(wantOverlap, witness, depth)) {
            stoppedEarly = levelStart < store.size();
            break;
          }
          depth++;
          if (levelStart < store.size()) {
            listener.progress(depth, store.size(), transitions, store.size() - levelStart);
          }
          if (size != null) {
            OptionalLong estimate = size.level(depth, store.size());
            if (estimate.isPresent()) {
              long states = estimate.getAsLong();
              // the bytes per state mean something once the store's preallocated tables are small beside it
              long bytes = store.size() >= 1 << 20 ? (long) (store.bytes() / (double) store.size() * states) : -1;
              listener.estimate(states, bytes, depth, size.totalDepth(),
                  states <= options.maxStates() && bytes <= options.maxMemory());
            }
          }
        } catch (OutOfMemoryError e) {
          // the level's new states (the slices) are garbage now, the store is whole (it allocates before it adds)
          reserve = null;
          limit = true;
          heapLimit = true;
          break;
        }
      }
    } finally {
      if (pool != null) {
        pool.shutdownNow();
      }
    }
    peak = Math.max(peak, store.bytes());
    reserve = null;
    settleLevel();
    List<Candidate> chosen = options.allViolations()
        ? best.values().stream().sorted(Comparator.comparingInt(Candidate::length).thenComparingLong(Candidate::order)).toList()
        : first == null ? List.of() : List.of(first);
    List<Finding> findings = new ArrayList<>();
    for (Candidate c : chosen) {
      findings.add(finding(c));
    }
    Optional<Trace> witnessTrace = Optional.empty();
    if (witness >= 0) {
      OverlapQuery q = options.overlap().get();
      witnessTrace = Optional.of(reconstruct(witness, -1, null, new Outcome.Overlapped(q.a(), q.b(), q.sameWorker())).trace);
    }
    double seconds = (System.nanoTime() - start) / 1e9;
    return new Exploration(findings, witnessTrace, store.size(), transitions, seconds, limit, !limit && !stoppedEarly,
        memoryLimit, peak, reducedSteps > 0, heapLimit);
  }

  /** Expands the states [from, to) of one level: in slices on the pool when it is large, else here; slices in order. */
  private List<Slice> expandLevel(ExecutorService pool, int from, int to, int depth) {
    int n = to - from;
    if (pool == null || n < Integer.getInteger(PARALLEL_LEVEL_PROPERTY, PARALLEL_LEVEL)) {
      return List.of(new Slice(from, to, depth).call());
    }
    int parts = options.searchThreads() * 4;
    List<Slice> slices = new ArrayList<>();
    for (int i = 0; i < parts; i++) {
      slices.add(new Slice(from + (int) ((long) n * i / parts), from + (int) ((long) n * (i + 1) / parts), depth));
    }
    try {
      for (Future<Slice> f : pool.invokeAll(slices)) {
        f.get();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("search interrupted", e);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof RuntimeException r) {
        throw r;
      }
      if (e.getCause() instanceof Error err) {
        throw err;
      }
      throw new IllegalStateException(e.getCause());
    }
    return slices;
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

  private Finding finding(Candidate c) {
    Rebuilt r = reconstruct(c.state(), c.thread(), c.kind(), null);
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
  private Rebuilt reconstruct(int target, int failingThread, ViolationKind kind, Outcome outcome) {
    List<Integer> path = new ArrayList<>();
    for (int i = target; i >= 0; i = store.parent(i)) {
      path.add(0, i);
    }
    int w = model.width();
    long[] cur = model.initial();
    long[] next = new long[w];
    long[] out = new long[w];
    long[] canon = new long[w];
    long[] packed = new long[packer.packedWidth()];
    List<Integer> schedule = new ArrayList<>();
    for (int k = 1; k < path.size(); k++) {
      store.load(path.get(k), packed);
      packer.unpack(packed, next);
      boolean found = false;
      for (int t = 0; t < model.moves() && !found; t++) {
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
      store.load(target, packed);
      packer.unpack(packed, next);
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

  /** The most steps {@link #goOnAlone} records: a job's body, tasks included, is far shorter. */
  private static final int MAX_STEPS_AFTER = 10_000;

  /**
   * Records, as the trace's steps after its violation, what the job of move t does after its ignored failure from
   * state s, the other workers paused: the failing thread moves while it can, else the first thread of its worker that
   * can (tasks share their job's buffers), each at its first path; it stops when the failing thread's part of the job
   * has ended, when no thread of the worker can move, or before a step that would violate.
   */
  private void goOnAlone(TraceRecorder rec, long[] s, int t) {
    int thread = model.threadOf(t);
    int job = model.view(s, thread).job();
    long[] cur = s.clone();
    long[] next = new long[cur.length];
    for (int k = 0; k < MAX_STEPS_AFTER; k++) {
      if (model.nextStep(cur, thread).isEmpty() || !model.isTaskThread(thread) && model.view(cur, thread).job() != job) {
        return;
      }
      int mover = model.step(cur, thread, next) == Model.MOVED ? thread : -1;
      for (int u = 0; u < model.threads() && mover < 0; u++) {
        if (u != thread && model.workerOf(u) == model.workerOf(thread) && model.step(cur, u, next) == Model.MOVED) {
          mover = u;
        }
      }
      if (mover < 0) {
        return;
      }
      rec.recordAfter(cur, mover, next);
      long[] tmp = cur;
      cur = next;
      next = tmp;
    }
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
      if (kind == ViolationKind.SWALLOWED_OOM) {
        goOnAlone(rec, out, t);
      }
    }
    return new Rebuilt(rec.finish(source, Optional.empty(), new Outcome.Violated(v)), v);
  }
}
