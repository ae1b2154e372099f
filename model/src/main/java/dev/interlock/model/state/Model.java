package dev.interlock.model.state;

import static dev.interlock.model.state.Code.KEPT;
import static dev.interlock.model.state.Code.RESIDENT;
import static dev.interlock.model.state.WorkerLayout.DONE;
import static dev.interlock.model.state.WorkerLayout.IDLE;
import static dev.interlock.model.state.WorkerLayout.RUNNING;

import dev.interlock.model.design.Design;
import dev.interlock.model.design.ResidentBuffer;
import dev.interlock.model.design.Role;
import dev.interlock.model.design.Sizes;
import dev.interlock.model.step.Acquire;
import dev.interlock.model.step.Alloc;
import dev.interlock.model.step.IfFree;
import dev.interlock.model.step.Interval;
import dev.interlock.model.step.Join;
import dev.interlock.model.step.Lock;
import dev.interlock.model.step.Release;
import dev.interlock.model.step.Step;
import dev.interlock.model.step.Steps;
import dev.interlock.model.step.Sync;
import dev.interlock.model.step.Wait;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The executable semantics of a design: its initial state and the transition of each thread.
 *
 * <p>This class is the single oracle: the exhaustive checker, random schedules, trace replay and
 * the property tests all step states through it. A state is a {@code long[]}: slot 0 holds the live
 * bytes, then, when some step allocates asynchronously, slot 1 the pool's cached bytes and slot 2
 * the live bytes allocated asynchronously (all derived, kept for speed), then one block per worker
 * packed by its role's
 * {@link WorkerLayout}. A worker is a role thread with the task threads its jobs spawn; threads are
 * numbered worker by worker in role order, the role thread first, then its task threads frame by
 * frame and node by node.
 *
 * <p>Device memory follows {@link DeviceMemory}'s rules, as measured on an H200; each thread has
 * its own stream.
 */
public final class Model {
  /** The thread took a step. */
  public static final int MOVED = 0;
  /** The thread waits (mutex held by another, permits not available, sync during a kernel, wait, join). */
  public static final int BLOCKED = 1;
  /** The thread has run all its jobs, or is a task thread that is not running. */
  public static final int FINISHED = 2;

  private static final int VIOLATION_BASE = 16;
  private static final ViolationKind[] KINDS = ViolationKind.values();

  private static final int LIVE = 0;
  /** Slots of the cached and live async bytes; a design without async allocations has neither (both are 0). */
  private static final int CACHE = 1;
  private static final int LIVE_ASYNC = 2;

  private final Design design;
  private final WorkerLayout[] layouts;
  private final int[] roleStart;
  private final int[] roleOfThread;
  private final int[] workerOfThread;
  private final int[] posOfThread;
  private final int[] workerBase;
  private final int[] workerRole;
  private final int[] workerFirstThread;
  private final int threads;
  private final int width;
  private final List<String> intervalNames;
  private final long[] initialPermits;
  /** Bytes per unit of a stream's cache field; 0 when no step allocates asynchronously (no cache fields). */
  private final long cacheUnit;
  /** Per mutex: the state words and bit masks of every thread's field for it (flattened for the hot path). */
  private final int[][] mutexWord;
  private final long[][] mutexMask;
  /** The state words and masks of every thread's inside bit, and whether that thread's pc is at a kernel, by pc. */
  private final int[] insideWord;
  private final long[] insideMask;
  /** Whether some body has a {@code sync} step, which reads every thread's inside bit at a kernel. */
  private final boolean anySync;
  /** Per state word: how many of its low bits can be set (see {@link #wordBits()}). */
  private final int[] wordBits;
  /** Whether some body has a {@code choose} step: then each thread has a second move (see {@link #moves}). */
  private final boolean anyChoice;

  public Model(Design design) {
    this.design = design;
    Map<String, Integer> intervalIds = new LinkedHashMap<>();
    List<List<Step>> bodies = new ArrayList<>();
    design.roles().forEach(r -> bodies.add(r.body()));
    design.tasks().forEach(t -> bodies.add(t.body()));
    boolean anyAsync = false;
    boolean syncs = false;
    boolean choices = false;
    long unit = design.vram();
    for (List<Step> body : bodies) {
      for (Step s : Steps.flatten(body)) {
        syncs |= s instanceof Sync;
        choices |= s instanceof dev.interlock.model.step.Choose;
        if (s instanceof Interval i) {
          intervalIds.putIfAbsent(i.name(), intervalIds.size());
        }
        if (s instanceof Alloc a) {
          anyAsync |= a.async();
          unit = gcd(unit, a.bytes());
        }
      }
    }
    for (ResidentBuffer b : design.buffers()) {
      unit = gcd(unit, b.bytes());
    }
    if (design.poolThreshold() != Design.THRESHOLD_MAX && design.poolThreshold() > 0) {
      unit = gcd(unit, design.poolThreshold());
    }
    cacheUnit = anyAsync ? unit : 0;
    anySync = syncs;
    anyChoice = choices;
    int cacheBits = anyAsync ? Field.bitsFor(design.vram() / unit) : 0;
    intervalNames = List.copyOf(intervalIds.keySet());
    layouts = new WorkerLayout[design.roles().size()];
    roleStart = new int[layouts.length + 1];
    int workers = 0;
    int nThreads = 0;
    for (int r = 0; r < layouts.length; r++) {
      Role role = design.roles().get(r);
      layouts[r] = new WorkerLayout(design, role, intervalIds, cacheBits);
      workers += role.threads();
      nThreads += role.threads() * layouts[r].slots.length;
    }
    threads = nThreads;
    roleOfThread = new int[threads];
    workerOfThread = new int[threads];
    posOfThread = new int[threads];
    workerBase = new int[workers];
    workerRole = new int[workers];
    workerFirstThread = new int[workers];
    int w = 0;
    int t = 0;
    int base = anyAsync ? 3 : 1;
    for (int r = 0; r < layouts.length; r++) {
      roleStart[r] = w;
      for (int i = 0; i < design.roles().get(r).threads(); i++, w++) {
        workerBase[w] = base;
        workerRole[w] = r;
        workerFirstThread[w] = t;
        base += layouts[r].width;
        for (int p = 0; p < layouts[r].slots.length; p++, t++) {
          roleOfThread[t] = r;
          workerOfThread[t] = w;
          posOfThread[t] = p;
        }
      }
    }
    roleStart[layouts.length] = w;
    width = base;
    mutexWord = new int[design.mutexes().size()][];
    mutexMask = new long[design.mutexes().size()][];
    for (int m = 0; m < mutexWord.length; m++) {
      List<int[]> holders = new ArrayList<>();
      for (int th = 0; th < threads; th++) {
        Field f = slot(th).mutex[m];
        if (f.present()) {
          holders.add(new int[] {baseOf(th) + f.word(), f.shift()});
        }
      }
      mutexWord[m] = holders.stream().mapToInt(h -> h[0]).toArray();
      mutexMask[m] = holders.stream().mapToLong(h -> 1L << h[1]).toArray();
    }
    insideWord = new int[threads];
    insideMask = new long[threads];
    for (int th = 0; th < threads; th++) {
      insideWord[th] = baseOf(th) + slot(th).inside.word();
      insideMask[th] = 1L << slot(th).inside.shift();
    }
    initialPermits = design.semaphores().stream().mapToLong(s -> s.permits()).toArray();
    wordBits = new int[width];
    Arrays.fill(wordBits, 0, anyAsync ? 3 : 1, Field.bitsFor(design.vram()));
    for (int wk = 0; wk < workerBase.length; wk++) {
      int[] bits = layouts[workerRole[wk]].wordBits;
      System.arraycopy(bits, 0, wordBits, workerBase[wk], bits.length);
    }
  }

  private static long gcd(long a, long b) {
    return b == 0 ? a : gcd(b, a % b);
  }

  public Design design() {
    return design;
  }

  /** Number of threads: role threads and every task thread their jobs can spawn. */
  public int threads() {
    return threads;
  }

  /**
   * Number of moves: {@link #threads()}, or twice that when some body has a {@code choose} step. Move m is thread
   * {@code m % threads()}'s transition: its only one for m below threads(), else the second path of a {@code choose}
   * it is at (for a thread at any other step, that move does not exist: {@link #step} answers FINISHED). Everything
   * that takes a thread index also takes a move; the search enumerates moves, so both paths of a choice are explored.
   */
  public int moves() {
    return anyChoice ? 2 * threads : threads;
  }

  /** The thread of move m. */
  public int threadOf(int m) {
    return m >= threads ? m - threads : m;
  }

  /**
   * The move by which thread t takes its next step from s with phase p: the second path's move when that step is a
   * {@code choose} and p is ELSE, else t. How a replay of a recorded transition picks the path it records.
   */
  public int moveOf(long[] s, int t, Optional<Phase> p) {
    boolean second = p.isPresent() && p.get() == Phase.ELSE
        && nextStep(s, t).filter(dev.interlock.model.step.Choose.class::isInstance).isPresent();
    return second ? t + threads : t;
  }

  /** Length of a state array. */
  public int width() {
    return width;
  }

  /**
   * Per state word, how many of its low bits a reachable non-violating state can set: the byte counts at most vram's
   * bits, a worker's words the bits its fields use. The checker packs states into these bits only.
   */
  public int[] wordBits() {
    return wordBits.clone();
  }

  /**
   * Whether thread t's next step from s is local, so that partial-order reduction may take it alone: it is enabled and
   * stays enabled until t takes it, its outcome depends on no field another thread writes, what it writes no other
   * thread's step reads except to become enabled, and it changes no interval marked in {@code visible} (indexed by
   * interval id, as {@link #intervalNames}). Such a step commutes with every step of every other thread. The one place
   * that says which steps are local; docs/reduction.md gives the argument for each kind.
   *
   * <ul>
   *   <li>a {@code cpu} interval's begin or end;
   *   <li>a kernel's begin when no body has {@code sync} (which waits on every thread's kernel) and no other thread of
   *       the worker allocates or frees a buffer it uses; its end (which reads no buffer) when no body has {@code sync}
   *       and no step allocates asynchronously (the end synchronizes the stream, which settles and releases pool bytes);
   *   <li>{@code unlock}, {@code signal}, and {@code wait} once its event is set;
   *   <li>{@code spawn T} and {@code join T} (once T's last instance is done) when no other running thread of the frame
   *       spawns or joins T, itself or through its tasks;
   *   <li>any of these that ends its thread's body only when the worker has no kept buffers (the last end frees them).
   * </ul>
   * Everything else (lock, acquire, release, alloc, free, trim, sync, sync stream, {@code if free}, choose) reads or
   * writes what other threads share. With asynchronous allocations the search must also watch for pool ties (see
   * {@link #breaksPoolTie}): the pool's tie-break orders streams by their workers' whole blocks, program counters
   * included.
   */
  public boolean localStep(long[] s, int t, boolean[] visible) {
    t = threadOf(t);
    if (done(s, t)) {
      return false;
    }
    WorkerLayout l = layout(t);
    int base = baseOf(t);
    int p = posOfThread[t];
    WorkerLayout.Slot x = l.slots[p];
    Code c = x.code;
    int pc = (int) x.pc.get(s, base);
    if (c.next[pc] >= c.length && l.kept.length != 0) {
      return false; // ending the body may end the worker's last job, which frees its kept buffers
    }
    boolean inside = x.inside.get(s, base) != 0;
    int frame = p == 0 ? l.mainFrame(s, base) : x.frame;
    return switch (c.op[pc]) {
      case Code.OP_CPU -> !visible[c.interval[pc]];
      case Code.OP_KERNEL -> !visible[c.interval[pc]] && !anySync
          && (inside ? cacheUnit == 0 : !l.sharedUse[p][pc]);
      case Code.OP_UNLOCK, Code.OP_SIGNAL -> true;
      case Code.OP_WAIT -> l.frameEvent[frame][c.arg[pc]].get(s, base) != 0;
      case Code.OP_SPAWN -> soleToucher(l, s, base, p, frame, l.nodeTask[l.childAt[x.node + 1][pc]]);
      case Code.OP_JOIN -> c.arg[pc] < 0 || soleToucher(l, s, base, p, frame, c.arg[pc]) && !joinBlocked(l, s, base, frame, c.arg[pc]);
      default -> false;
    };
  }

  /** Whether a join of task T in frame f waits: the last instance of T spawned in the frame is still running. */
  private static boolean joinBlocked(WorkerLayout l, long[] s, int base, int f, int task) {
    long last = l.frameLast[f][task].get(s, base);
    return last != 0 && l.slots[1 + f * l.nodes + l.taskNodes[task][(int) last - 1]].status.get(s, base) == RUNNING;
  }

  /** Whether no running thread of frame f other than slot p's spawns or joins task T, itself or through its tasks. */
  private static boolean soleToucher(WorkerLayout l, long[] s, int base, int p, int f, int task) {
    if (p != 0 && l.job.get(s, base) != l.jobs && l.mainFrame(s, base) == f && l.touchedTasks[0].get(task)) {
      return false;
    }
    for (int n = 0; n < l.nodes; n++) {
      int q = 1 + f * l.nodes + n;
      if (q != p && l.slots[q].status.get(s, base) == RUNNING && l.touchedTasks[n + 1].get(task)) {
        return false;
      }
    }
    return true;
  }

  /**
   * Whether thread t's step from s makes the pool choose among streams with equal cached bytes (DeviceMemory's best
   * fit or most cached): its outcome then depends on the order of the streams, which follows the workers' whole
   * blocks, so a local step of another thread may change it. The partial-order reduced search falls back to the plain
   * one when it meets such a step; whether a choice is tied depends only on the cached bytes, which no local step
   * changes, so a tie anywhere in the full graph shows in the reduced one (docs/reduction.md).
   */
  public boolean breaksPoolTie(long[] s, int move) {
    if (cacheUnit == 0) {
      return false;
    }
    int t = threadOf(move);
    if (done(s, t)) {
      return false;
    }
    Code c = slot(t).code;
    int pc = (int) slot(t).pc.get(s, baseOf(t));
    return switch (c.op[pc]) {
      case Code.OP_ALLOC -> {
        Streams st = streams(s);
        yield st.memory().allocBreaksTie(c.amount[pc], c.async[pc], st.of(t));
      }
      case Code.OP_SYNC -> streams(s).memory().synchronizeBreaksTie();
      default -> false;
    };
  }

  /** Index of the role of thread t, in design order. */
  public int roleOf(int t) {
    return roleOfThread[threadOf(t)];
  }

  /** Whether thread t is a task thread (a job's helper), not a role thread. */
  public boolean isTaskThread(int t) {
    return posOfThread[threadOf(t)] != 0;
  }

  /** The worker (role thread with its tasks) thread t belongs to; workers are numbered in role order. */
  public int workerOf(int t) {
    return workerOfThread[threadOf(t)];
  }

  /** The role thread of role r's first worker; role r's role threads are numbered from it, task threads between. */
  public int roleStart(int r) {
    return workerFirstThread[roleStart[r]];
  }

  /** The name of thread t: {@code role#i}, or {@code role#i/TASK@J[.k]} for a task thread. */
  public String threadName(int move) {
    int t = threadOf(move);
    int w = workerOfThread[t];
    int r = workerRole[w];
    String roleThread = design.roles().get(r).name() + "#" + (w - roleStart[r]);
    int p = posOfThread[t];
    if (p == 0) {
      return roleThread;
    }
    WorkerLayout.Slot x = layouts[r].slots[p];
    return layouts[r].tree.threadName(roleThread, x.frame, x.node);
  }

  /** The thread called {@code name}, or -1. */
  public int threadIndex(String name) {
    for (int t = 0; t < threads; t++) {
      if (threadName(t).equals(name)) {
        return t;
      }
    }
    return -1;
  }

  /** The initial state: every role thread at the first step of its first job, only device buffers allocated. */
  public long[] initial() {
    long[] s = new long[width];
    s[LIVE] = design.residentBytes();
    return s;
  }

  /** The device memory of state s, its streams in the symmetric order of {@link #streams}. */
  public DeviceMemory memory(long[] s) {
    return streams(s).memory();
  }

  /**
   * The device memory of state s with its streams in symmetric order, and where each thread's stream is in it.
   *
   * <p>Where DeviceMemory must choose among streams with equal cached bytes it takes the lowest index; ordering the
   * streams by their workers' contents (role, then the worker's block, then the thread's place in it) makes that
   * choice the same for every permutation of a role's workers, as symmetry reduction requires.
   */
  private Streams streams(long[] s) {
    if (cacheUnit == 0) {
      return new Streams(new DeviceMemory(design.vram(), design.poolThreshold(), s[LIVE], 0, new long[1]), null, null);
    }
    Integer[] workers = new Integer[workerBase.length];
    for (int w = 0; w < workers.length; w++) {
      workers[w] = w;
    }
    Arrays.sort(workers, (a, b) -> {
      int ra = workerRole[a];
      int rb = workerRole[b];
      if (ra != rb) {
        return Integer.compare(ra, rb);
      }
      int bw = layouts[ra].width;
      return Arrays.compare(s, workerBase[a], workerBase[a] + bw, s, workerBase[b], workerBase[b] + bw);
    });
    int[] order = new int[threads];
    int[] index = new int[threads];
    long[] cached = new long[threads];
    long[] settled = new long[threads];
    int i = 0;
    for (int w : workers) {
      int n = layouts[workerRole[w]].slots.length;
      for (int p = 0; p < n; p++, i++) {
        int t = workerFirstThread[w] + p;
        order[i] = t;
        index[t] = i;
        cached[i] = slot(t).cache.get(s, baseOf(t)) * cacheUnit;
        settled[i] = slot(t).settled.get(s, baseOf(t)) * cacheUnit;
      }
    }
    return new Streams(new DeviceMemory(design.vram(), design.poolThreshold(), s[LIVE], s[LIVE_ASYNC], cached,
        settled), order, index);
  }

  /** A state's device memory in symmetric stream order: {@code order[i]} is the thread of stream i. */
  private record Streams(DeviceMemory memory, int[] order, int[] index) {
    int of(int t) {
      return index == null ? 0 : index[t];
    }
  }

  /** Bytes held by live buffers of all threads, device buffers included. */
  public long live(long[] s) {
    return s[LIVE];
  }

  /**
   * Bytes thread t's stream (or move t's thread's) freed asynchronously that no synchronization has seen yet: its
   * pending bytes (see {@link DeviceMemory}); 0 without a pool.
   */
  public long pending(long[] s, int move) {
    if (cacheUnit == 0) {
      return 0;
    }
    int t = threadOf(move);
    return (slot(t).cache.get(s, baseOf(t)) - slot(t).settled.get(s, baseOf(t))) * cacheUnit;
  }

  /** Bytes the memory pool keeps cached after async frees. */
  public long cached(long[] s) {
    return cacheUnit == 0 ? 0 : s[CACHE];
  }

  private long liveAsync(long[] s) {
    return cacheUnit == 0 ? 0 : s[LIVE_ASYNC];
  }

  /** What cudaMemGetInfo reports as used: live plus cached bytes. */
  public long used(long[] s) {
    return s[LIVE] + cached(s);
  }

  /** What cudaMemGetInfo reports as free: vram minus live and cached bytes. */
  public long free(long[] s) {
    return design.vram() - used(s);
  }

  /** Whether every role thread has run all its jobs and no task thread runs. */
  public boolean allFinished(long[] s) {
    for (int t = 0; t < threads; t++) {
      if (!done(s, t)) {
        return false;
      }
    }
    return true;
  }

  private boolean done(long[] s, int t) {
    WorkerLayout l = layout(t);
    int base = baseOf(t);
    int p = posOfThread[t];
    return p == 0 ? l.job.get(s, base) == l.jobs : l.slots[p].status.get(s, base) != RUNNING;
  }

  /** Whether s is deadlocked: some thread is unfinished and no thread can take a step (or fail one). */
  public boolean deadlocked(long[] s) {
    long[] scratch = new long[s.length];
    boolean unfinished = false;
    for (int t = 0; t < threads; t++) {
      int code = step(s, t, scratch);
      if (code != BLOCKED && code != FINISHED) {
        return false;
      }
      unfinished |= code == BLOCKED;
    }
    return unfinished;
  }

  /** The step thread t (or move t) takes next, empty when it has finished or is a task thread that is not running. */
  public Optional<Step> nextStep(long[] s, int move) {
    int t = threadOf(move);
    if (done(s, t)) {
      return Optional.empty();
    }
    WorkerLayout.Slot x = slot(t);
    return Optional.of(x.code.steps.get((int) x.pc.get(s, baseOf(t))));
  }

  /**
   * The phase of move m's next transition: begin or end of an interval, the branch an {@code if free} takes from s,
   * the path of a {@code choose} (then for the move below {@link #threads()}, else for the other), oom for an
   * allocation with {@code on oom} that fails from s, or empty for other steps.
   */
  public Optional<Phase> nextPhase(long[] s, int move) {
    int t = threadOf(move);
    Optional<Step> next = nextStep(s, t);
    if (next.isPresent() && next.get() instanceof dev.interlock.model.step.Choose) {
      return Optional.of(move == t ? Phase.THEN : Phase.ELSE);
    }
    if (next.isPresent() && next.get() instanceof IfFree f) {
      return Optional.of(f.holds(free(s)) ? Phase.THEN : Phase.ELSE);
    }
    if (next.isPresent() && next.get() instanceof Alloc a && a.fallible()) {
      return allocFails(s, t) ? Optional.of(Phase.OOM) : Optional.empty();
    }
    return next
        .filter(Interval.class::isInstance)
        .map(x -> slot(t).inside.get(s, baseOf(t)) != 0 ? Phase.END : Phase.BEGIN);
  }

  /** Names of all intervals (kernel and cpu) in the design; an interval's id is its index here. */
  public List<String> intervalNames() {
    return intervalNames;
  }

  /** The id of the interval thread t is inside, or -1. */
  public int insideInterval(long[] s, int t) {
    WorkerLayout.Slot x = slot(t);
    int base = baseOf(t);
    if (x.inside.get(s, base) == 0) {
      return -1;
    }
    return x.code.interval[(int) x.pc.get(s, base)];
  }

  /** True when a thread is inside interval a while a thread of another worker is inside interval b. */
  public boolean overlaps(long[] s, int a, int b) {
    return overlaps(s, a, b, false);
  }

  /**
   * True when one thread is inside interval a while another is inside interval b; unless {@code sameWorker}, the two
   * must belong to different workers (a role thread and its tasks count as one worker).
   */
  public boolean overlaps(long[] s, int a, int b, boolean sameWorker) {
    for (int i = 0; i < threads; i++) {
      if (insideInterval(s, i) == a) {
        for (int j = 0; j < threads; j++) {
          if (j != i && (sameWorker || workerOfThread[j] != workerOfThread[i]) && insideInterval(s, j) == b) {
            return true;
          }
        }
      }
    }
    return false;
  }

  /**
   * Computes move m's transition from state s: thread {@code threadOf(m)}'s step, the second path of its
   * {@code choose} for a move at or above {@link #threads()} (see {@link #moves}).
   *
   * @return {@link #MOVED} with the next state in {@code out}, {@link #BLOCKED}, {@link #FINISHED},
   *     or a violation code (see {@link #violation(int)}); for a violation {@code out} holds the
   *     state the device is left in (after the failed call for OOM, which still moves the pool's
   *     cache; unchanged for other failed calls; post-step for a leak at job end)
   */
  public int step(long[] s, int move, long[] out) {
    int t = threadOf(move);
    WorkerLayout l = layout(t);
    int base = baseOf(t);
    int p = posOfThread[t];
    WorkerLayout.Slot x = l.slots[p];
    if (p == 0 ? l.job.get(s, base) == l.jobs : x.status.get(s, base) != RUNNING) {
      return FINISHED;
    }
    int frame = p == 0 ? l.mainFrame(s, base) : x.frame;
    Code c = x.code;
    int pc = (int) x.pc.get(s, base);
    if (move != t && c.op[pc] != Code.OP_CHOOSE) {
      return FINISHED; // a second path exists only at a choose
    }
    System.arraycopy(s, 0, out, 0, s.length);
    switch (c.op[pc]) {
      case Code.OP_LOCK -> {
        int m = c.arg[pc];
        if (x.mutex[m].get(s, base) != 0) {
          return code(ViolationKind.DEADLOCK);
        }
        if (heldByAnyone(s, m)) {
          return BLOCKED;
        }
        x.mutex[m].set(out, base, 1);
        return advance(t, out, c.next[pc]);
      }
      case Code.OP_UNLOCK -> {
        int m = c.arg[pc];
        if (!x.mutex[m].present() || x.mutex[m].get(s, base) == 0) {
          return code(ViolationKind.UNLOCK_NOT_HELD);
        }
        x.mutex[m].set(out, base, 0);
        return advance(t, out, c.next[pc]);
      }
      case Code.OP_ACQUIRE -> {
        int sem = c.arg[pc];
        if (c.amount[pc] > available(s, sem)) {
          return BLOCKED;
        }
        x.permits[sem].set(out, base, x.permits[sem].get(s, base) + c.amount[pc]);
        return advance(t, out, c.next[pc]);
      }
      case Code.OP_RELEASE -> {
        int sem = c.arg[pc];
        long held = x.permits[sem].get(s, base);
        if (c.amount[pc] > held) {
          return code(ViolationKind.RELEASE_EXCESS);
        }
        x.permits[sem].set(out, base, held - c.amount[pc]);
        return advance(t, out, c.next[pc]);
      }
      case Code.OP_ALLOC -> {
        Field f = c.ref[pc] == KEPT ? l.kept[c.arg[pc]] : l.frameBuffer[frame][c.arg[pc]];
        long missing = missingValue(l, c.ref[pc], c.arg[pc]);
        if (isLive(f.get(s, base), missing)) {
          if (c.ref[pc] == KEPT) {
            return advance(t, out, c.next[pc]);
          }
          return code(ViolationKind.LEAK);
        }
        if (cacheUnit == 0) {
          // no pool: DeviceMemory's rule reduces to whether the bytes fit beside the live ones
          if (!DeviceMemory.fits(design.vram(), s[LIVE], c.amount[pc])) {
            return failedAlloc(t, c, pc, out, f, missing);
          }
          out[LIVE] = s[LIVE] + c.amount[pc];
          f.set(out, base, c.allocValue[pc]);
          return advance(t, out, c.next[pc]);
        }
        Streams st = streams(s);
        Optional<DeviceMemory> after = st.memory().alloc(c.amount[pc], c.async[pc], st.of(t));
        if (after.isEmpty()) {
          setMemory(out, st, st.memory().afterFailedAlloc(c.amount[pc], c.async[pc], st.of(t)));
          return failedAlloc(t, c, pc, out, f, missing);
        }
        setMemory(out, st, after.get());
        f.set(out, base, c.allocValue[pc]);
        return advance(t, out, c.next[pc]);
      }
      case Code.OP_FREE -> {
        boolean kept = c.ref[pc] == KEPT;
        Field f = kept ? l.kept[c.arg[pc]] : l.frameBuffer[frame][c.arg[pc]];
        int v = (int) f.get(s, base);
        if (v == 0) {
          return code(ViolationKind.BAD_FREE);
        }
        if (v == missingValue(l, c.ref[pc], c.arg[pc])) {
          f.set(out, base, 0); // the failed allocation left a null pointer, whose free does nothing
          return advance(t, out, c.next[pc]);
        }
        Alloc a = (kept ? l.keptAllocs : l.jobAllocs).get(c.arg[pc]).get(v - 1);
        f.set(out, base, 0);
        if (cacheUnit == 0) {
          out[LIVE] = s[LIVE] - a.bytes();
          return advance(t, out, c.next[pc]);
        }
        Streams st = streams(s);
        setMemory(out, st, st.memory().free(a.bytes(), a.async(), st.of(t)));
        f.set(out, base, 0);
        return advance(t, out, c.next[pc]);
      }
      case Code.OP_TRIM -> {
        Streams st = streams(s);
        setMemory(out, st, st.memory().trim());
        return advance(t, out, c.next[pc]);
      }
      case Code.OP_SYNC -> {
        if (anyInsideKernel(s)) {
          return BLOCKED;
        }
        Streams st = streams(s);
        setMemory(out, st, st.memory().synchronizeDevice());
        return advance(t, out, c.next[pc]);
      }
      case Code.OP_SYNC_STREAM -> {
        Streams st = streams(s);
        setMemory(out, st, st.memory().synchronizeStream(st.of(t)));
        return advance(t, out, c.next[pc]);
      }
      case Code.OP_KERNEL -> {
        if (x.inside.get(s, base) != 0) {
          if (cacheUnit > 0) {
            Streams st = streams(s);
            setMemory(out, st, st.memory().synchronizeStream(st.of(t)));
          }
          return advance(t, out, c.next[pc]);
        }
        int[] u = c.uses[pc];
        for (int i = 0; i < u.length; i += 2) {
          if (u[i] != RESIDENT && (u[i] == KEPT ? l.kept[u[i + 1]] : l.frameBuffer[frame][u[i + 1]]).get(s, base) == 0) {
            return code(ViolationKind.USE_AFTER_FREE);
          }
        }
        x.inside.set(out, base, 1);
        return MOVED;
      }
      case Code.OP_CPU -> {
        if (x.inside.get(s, base) != 0) {
          return advance(t, out, c.next[pc]);
        }
        x.inside.set(out, base, 1);
        return MOVED;
      }
      case Code.OP_IF -> {
        boolean then = c.atLeast[pc] ? free(s) >= c.amount[pc] : free(s) < c.amount[pc];
        return advance(t, out, then ? c.next[pc] : c.elseTarget[pc]);
      }
      case Code.OP_CHOOSE -> {
        return advance(t, out, move == t ? c.next[pc] : c.elseTarget[pc]);
      }
      case Code.OP_SPAWN -> {
        int node = l.childAt[x.node + 1][pc];
        WorkerLayout.Slot child = l.slots[1 + frame * l.nodes + node];
        child.status.set(out, base, RUNNING);
        child.pc.set(out, base, 0);
        child.inside.set(out, base, 0);
        int task = l.nodeTask[node];
        l.frameLast[frame][task].set(out, base, ordinalOf(l, task, node));
        return advance(t, out, c.next[pc]);
      }
      case Code.OP_JOIN -> {
        int task = c.arg[pc];
        if (task < 0) {
          return advance(t, out, c.next[pc]); // this role's jobs never spawn the task: nothing to wait for
        }
        return joinBlocked(l, s, base, frame, task) ? BLOCKED : advance(t, out, c.next[pc]);
      }
      case Code.OP_SIGNAL -> {
        l.frameEvent[frame][c.arg[pc]].set(out, base, 1);
        return advance(t, out, c.next[pc]);
      }
      case Code.OP_WAIT -> {
        if (l.frameEvent[frame][c.arg[pc]].get(s, base) == 0) {
          return BLOCKED;
        }
        return advance(t, out, c.next[pc]);
      }
      default -> throw new IllegalStateException("unknown op " + c.op[pc]);
    }
  }

  /**
   * Thread t's allocation at pc failed; {@code out} holds the device as the failed call left it. Without {@code on oom}
   * the job fails ({@code OOM}). A handled failure moves on to the handler; an ignored one marks the buffer missing
   * (field {@code missing}), moves on to the next step, and is the violation {@code SWALLOWED_OOM}, whose
   * {@code out} is that moved state, from which the job goes on.
   */
  private int failedAlloc(int t, Code c, int pc, long[] out, Field f, long missing) {
    return switch (c.onOom[pc]) {
      case Code.ON_OOM_HANDLE -> advance(t, out, c.oomTarget[pc]);
      case Code.ON_OOM_IGNORE -> {
        f.set(out, baseOf(t), missing);
        advance(t, out, c.oomTarget[pc]);
        yield code(ViolationKind.SWALLOWED_OOM);
      }
      default -> code(ViolationKind.OOM);
    };
  }

  /** Whether thread t's next step from s is an allocation that fails (whatever its {@code on oom} does then). */
  public boolean allocFails(long[] s, int move) {
    int t = threadOf(move);
    if (done(s, t)) {
      return false;
    }
    WorkerLayout l = layout(t);
    int base = baseOf(t);
    WorkerLayout.Slot x = slot(t);
    Code c = x.code;
    int pc = (int) x.pc.get(s, base);
    if (c.op[pc] != Code.OP_ALLOC) {
      return false;
    }
    int frame = posOfThread[t] == 0 ? l.mainFrame(s, base) : x.frame;
    Field f = c.ref[pc] == KEPT ? l.kept[c.arg[pc]] : l.frameBuffer[frame][c.arg[pc]];
    if (isLive(f.get(s, base), missingValue(l, c.ref[pc], c.arg[pc]))) {
      return false;
    }
    if (cacheUnit == 0) {
      return !DeviceMemory.fits(design.vram(), s[LIVE], c.amount[pc]);
    }
    Streams st = streams(s);
    return st.memory().alloc(c.amount[pc], c.async[pc], st.of(t)).isEmpty();
  }

  /** The field value marking buffer {@code arg} of kind {@code ref} missing, or 0 when it cannot be. */
  private static long missingValue(WorkerLayout l, int ref, int arg) {
    return ref == KEPT ? l.keptMissing[arg] : l.jobMissing[arg];
  }

  /** Whether a buffer field's value v is a live buffer: set, and not the missing mark {@code missing}. */
  private static boolean isLive(long v, long missing) {
    return v != 0 && v != missing;
  }

  /**
   * The buffers that thread t's next step from s, a kernel's begin, uses while they are missing (their allocation failed
   * and was ignored): the kernel runs without them, and its result is wrong. Empty for other steps.
   */
  public List<String> missingUses(long[] s, int move) {
    int t = threadOf(move);
    if (done(s, t)) {
      return List.of();
    }
    WorkerLayout l = layout(t);
    int base = baseOf(t);
    WorkerLayout.Slot x = slot(t);
    Code c = x.code;
    int pc = (int) x.pc.get(s, base);
    if (c.op[pc] != Code.OP_KERNEL || !l.anyMissing || x.inside.get(s, base) != 0) {
      return List.of(); // only a kernel's begin (its launch) takes its buffers
    }
    int frame = posOfThread[t] == 0 ? l.mainFrame(s, base) : x.frame;
    List<String> out = new ArrayList<>();
    int[] u = c.uses[pc];
    for (int i = 0; i < u.length; i += 2) {
      if (u[i] == RESIDENT) {
        continue;
      }
      Field f = u[i] == KEPT ? l.kept[u[i + 1]] : l.frameBuffer[frame][u[i + 1]];
      long missing = missingValue(l, u[i], u[i + 1]);
      if (missing != 0 && f.get(s, base) == missing) {
        out.add(((dev.interlock.model.step.Kernel) c.steps.get(pc)).uses().get(i / 2));
      }
    }
    return out;
  }

  private static long ordinalOf(WorkerLayout l, int task, int node) {
    int[] nodes = l.taskNodes[task];
    for (int i = 0; i < nodes.length; i++) {
      if (nodes[i] == node) {
        return i + 1;
      }
    }
    throw new IllegalStateException("node " + node + " is not of task " + task);
  }

  /**
   * Moves thread t (already changed in {@code out}) to pc {@code next}; at the end of a body ends the
   * job's part of that thread: a role thread starts its next job, a task thread is done; a job whose
   * thread and tasks are all done is closed (checked for leaks), and a worker that has run all its
   * jobs releases its kept buffers.
   */
  private int advance(int t, long[] out, int next) {
    WorkerLayout l = layout(t);
    int base = baseOf(t);
    int p = posOfThread[t];
    WorkerLayout.Slot x = l.slots[p];
    x.inside.set(out, base, 0);
    if (next < x.code.length) {
      x.pc.set(out, base, next);
      return MOVED;
    }
    x.pc.set(out, base, 0);
    int frame;
    boolean close;
    if (p == 0) {
      frame = l.mainFrame(out, base);
      if (!l.loops) {
        l.job.set(out, base, l.job.get(out, base) + 1);
      }
      close = !l.tasksRunning(out, base, frame);
    } else {
      frame = x.frame;
      x.status.set(out, base, DONE);
      boolean mainLeft = l.job.get(out, base) == l.jobs || l.mainFrame(out, base) != frame;
      close = mainLeft && !l.tasksRunning(out, base, frame);
    }
    boolean leak = false;
    if (close) {
      if (l.anyMissing) {
        for (int b = 0; b < l.frameBuffer[frame].length; b++) {
          if (l.jobMissing[b] != 0 && l.frameBuffer[frame][b].get(out, base) == l.jobMissing[b]) {
            l.frameBuffer[frame][b].set(out, base, 0); // a missing buffer holds no memory: nothing leaks
          }
        }
      }
      leak = closeFrame(l, out, base, frame);
      // a job that leaks fails: its worker's kept buffers stay until the engine shuts down, as the engine leaves them
      if (!leak && l.job.get(out, base) == l.jobs && noTasksRunning(l, out, base)) {
        releaseKept(t, l, out, base);
      }
    }
    return leak ? code(ViolationKind.LEAK) : MOVED;
  }

  /** Ends frame f's job: true when it leaks a buffer; clears its events, spawn records and finished task threads. */
  private static boolean closeFrame(WorkerLayout l, long[] out, int base, int f) {
    boolean leak = false;
    long[] buffers = l.frameBufferBits[f];
    long[] clear = l.frameClearBits[f];
    for (int w = 0; w < buffers.length; w++) {
      leak |= (out[base + w] & buffers[w]) != 0;
      out[base + w] &= ~clear[w];
    }
    return leak;
  }

  private static boolean noTasksRunning(WorkerLayout l, long[] s, int base) {
    for (int f = 0; f < l.frames; f++) {
      if (l.tasksRunning(s, base, f)) {
        return false;
      }
    }
    return true;
  }

  /** Frees the worker's kept buffers, without a transition of their own, on the role thread's stream. */
  private void releaseKept(int t, WorkerLayout l, long[] out, int base) {
    int roleThread = workerFirstThread[workerOfThread[t]];
    for (int k = 0; k < l.kept.length; k++) {
      int v = (int) l.kept[k].get(out, base);
      if (isLive(v, l.keptMissing[k])) {
        Alloc a = l.keptAllocs.get(k).get(v - 1);
        Streams st = streams(out);
        setMemory(out, st, st.memory().free(a.bytes(), a.async(), st.of(roleThread)));
      }
      l.kept[k].set(out, base, 0);
    }
  }

  /** Writes device memory m, in the stream order of {@code st}, into state s: the totals and each stream's cache. */
  private void setMemory(long[] s, Streams st, DeviceMemory m) {
    s[LIVE] = m.live();
    if (cacheUnit > 0) {
      s[LIVE_ASYNC] = m.liveAsync();
      s[CACHE] = m.cachedTotal();
      for (int i = 0; i < threads; i++) {
        int t = st.order()[i];
        slot(t).cache.set(s, baseOf(t), m.cached(i) / cacheUnit);
        slot(t).settled.set(s, baseOf(t), m.settled(i) / cacheUnit);
      }
    } else if (m.cachedTotal() != 0 || m.liveAsync() != 0) {
      throw new IllegalStateException("async bytes in a design without async allocations");
    }
  }

  /**
   * State s with role thread t's worker started afresh, as the engine leaves a worker whose job failed: the mutexes
   * and permits its threads hold released, its live buffers (its jobs' and its kept ones) freed on its stream, its
   * tasks gone, and the role thread at the first step of its first job. Stream caches stay: they are the device's.
   *
   * <p>For a worker that holds nothing this only forgets how many jobs it has run, which lets a sequential
   * specification that runs jobs without end merge states that differ only in that count.
   */
  public long[] restart(long[] s, int t) {
    WorkerLayout l = layout(t);
    int base = baseOf(t);
    int roleThread = workerFirstThread[workerOfThread[t]];
    Streams st = streams(s);
    DeviceMemory memory = st.memory();
    for (int k = 0; k < l.kept.length; k++) {
      int v = (int) l.kept[k].get(s, base);
      if (isLive(v, l.keptMissing[k])) {
        Alloc a = l.keptAllocs.get(k).get(v - 1);
        memory = memory.free(a.bytes(), a.async(), st.of(roleThread));
      }
    }
    for (int f = 0; f < l.frames; f++) {
      for (int b = 0; b < l.frameBuffer[f].length; b++) {
        int v = (int) l.frameBuffer[f][b].get(s, base);
        if (isLive(v, l.jobMissing[b])) {
          Alloc a = l.jobAllocs.get(b).get(v - 1);
          memory = memory.free(a.bytes(), a.async(), st.of(roleThread));
        }
      }
    }
    long[] out = s.clone();
    setMemory(out, st, memory);
    long[] caches = new long[l.slots.length];
    long[] settled = new long[l.slots.length];
    for (int p = 0; p < caches.length; p++) {
      caches[p] = l.slots[p].cache.get(out, base);
      settled[p] = l.slots[p].settled.get(out, base);
    }
    Arrays.fill(out, base, base + l.width, 0);
    for (int p = 0; p < caches.length; p++) {
      l.slots[p].cache.set(out, base, caches[p]);
      l.slots[p].settled.set(out, base, settled[p]);
    }
    return out;
  }

  /** The violation a code from {@link #step} stands for, or null for MOVED, BLOCKED, FINISHED. */
  public static ViolationKind violation(int code) {
    return code >= VIOLATION_BASE ? KINDS[code - VIOLATION_BASE] : null;
  }

  private static int code(ViolationKind k) {
    return VIOLATION_BASE + k.ordinal();
  }

  private boolean heldByAnyone(long[] s, int mutex) {
    int[] words = mutexWord[mutex];
    long[] masks = mutexMask[mutex];
    for (int i = 0; i < words.length; i++) {
      if ((s[words[i]] & masks[i]) != 0) {
        return true;
      }
    }
    return false;
  }

  private long available(long[] s, int sem) {
    long held = 0;
    for (int t = 0; t < threads; t++) {
      held += slot(t).permits[sem].get(s, baseOf(t));
    }
    return initialPermits[sem] - held;
  }

  private boolean anyInsideKernel(long[] s) {
    for (int t = 0; t < threads; t++) {
      if ((s[insideWord[t]] & insideMask[t]) == 0) {
        continue;
      }
      WorkerLayout.Slot x = slot(t);
      if (x.code.op[(int) x.pc.get(s, baseOf(t))] == Code.OP_KERNEL) {
        return true;
      }
    }
    return false;
  }

  private WorkerLayout layout(int t) {
    return layouts[roleOfThread[t]];
  }

  private WorkerLayout.Slot slot(int t) {
    return layouts[roleOfThread[t]].slots[posOfThread[t]];
  }

  private int baseOf(int t) {
    return workerBase[workerOfThread[t]];
  }

  /**
   * Puts s in canonical form under the symmetry of interchangeable workers: sorts each role's worker blocks.
   *
   * <p>Workers of one role run the same bodies, so permuting them (each with its task threads) gives an equivalent
   * state; sorting picks one representative, which shrinks the state space by up to workers! per role.
   */
  public void canonicalize(long[] s) {
    for (int r = 0; r < layouts.length; r++) {
      int n = roleStart[r + 1] - roleStart[r];
      if (n < 2) {
        continue;
      }
      int bw = layouts[r].width;
      int from = workerBase[roleStart[r]];
      if (bw == 1) {
        for (int i = from + 1; i < from + n; i++) {
          long v = s[i];
          int j = i - 1;
          while (j >= from && s[j] > v) {
            s[j + 1] = s[j];
            j--;
          }
          s[j + 1] = v;
        }
        continue;
      }
      long[] tmp = new long[bw];
      for (int i = 1; i < n; i++) {
        System.arraycopy(s, from + i * bw, tmp, 0, bw);
        int j = i - 1;
        while (j >= 0 && Arrays.compare(s, from + j * bw, from + j * bw + bw, tmp, 0, bw) > 0) {
          System.arraycopy(s, from + j * bw, s, from + (j + 1) * bw, bw);
          j--;
        }
        System.arraycopy(tmp, 0, s, from + (j + 1) * bw, bw);
      }
    }
  }

  /**
   * Whether thread t's move from s is symmetric to a move already considered: t belongs to a worker whose block
   * equals the previous worker's of the same role, so the same thread of that worker moves to an equivalent state.
   */
  public boolean symmetricToEarlier(long[] s, int move) {
    int w = workerOfThread[threadOf(move)];
    int r = workerRole[w];
    if (w == roleStart[r]) {
      return false;
    }
    int bw = layouts[r].width;
    int a = workerBase[w - 1];
    int b = workerBase[w];
    return bw == 1 ? s[a] == s[b] : Arrays.equals(s, a, a + bw, s, b, b + bw);
  }

  /** The thread (or move) of concrete state s that corresponds to thread (or move) tc of {@code canonical}, a permutation of s. */
  public int correspondingThread(long[] s, long[] canonical, int move) {
    int tc = threadOf(move);
    int wc = workerOfThread[tc];
    int r = workerRole[wc];
    int bw = layouts[r].width;
    int cb = workerBase[wc];
    for (int w = roleStart[r]; w < roleStart[r + 1]; w++) {
      int b = workerBase[w];
      if (Arrays.equals(s, b, b + bw, canonical, cb, cb + bw)) {
        return workerFirstThread[w] + posOfThread[tc] + (move - tc);
      }
    }
    throw new IllegalArgumentException("state is not a permutation of the canonical one");
  }

  /** A readable snapshot of thread t. */
  /** Role thread t's job counter, as {@link ThreadView#job()} reads it, without building the view. */
  public int job(long[] s, int t) {
    if (isTaskThread(t)) {
      throw new IllegalArgumentException(threadName(t) + " is a task thread: it has its spawner's job");
    }
    return (int) layout(t).job.get(s, baseOf(t));
  }

  public ThreadView view(long[] s, int move) {
    int t = threadOf(move);
    WorkerLayout l = layout(t);
    WorkerLayout.Slot x = slot(t);
    int base = baseOf(t);
    List<String> mutexes = new ArrayList<>();
    for (int m = 0; m < design.mutexes().size(); m++) {
      if (x.mutex[m].get(s, base) != 0) {
        mutexes.add(design.mutexes().get(m));
      }
    }
    Map<String, Integer> permits = new LinkedHashMap<>();
    for (int sem = 0; sem < design.semaphores().size(); sem++) {
      if (x.permits[sem].get(s, base) > 0) {
        permits.put(design.semaphores().get(sem).name(), (int) x.permits[sem].get(s, base));
      }
    }
    int job = posOfThread[t] == 0 ? (int) l.job.get(s, base) : x.frame;
    boolean done = done(s, t);
    Map<String, Long> buffers = new LinkedHashMap<>();
    if (!done) {
      buffers.putAll(jobBuffers(l, s, base, posOfThread[t] == 0 ? l.mainFrame(s, base) : x.frame));
    }
    buffers.putAll(keptBuffers(l, s, base));
    return new ThreadView(threadName(t), job, nextStep(s, t), x.inside.get(s, base) != 0, mutexes, permits, buffers);
  }

  private static Map<String, Long> jobBuffers(WorkerLayout l, long[] s, int base, int frame) {
    Map<String, Long> out = new LinkedHashMap<>();
    for (int b = 0; b < l.jobBuffers.size(); b++) {
      int v = (int) l.frameBuffer[frame][b].get(s, base);
      if (isLive(v, l.jobMissing[b])) {
        out.put(l.jobBuffers.get(b), l.jobAllocs.get(b).get(v - 1).bytes());
      }
    }
    return out;
  }

  private static Map<String, Long> keptBuffers(WorkerLayout l, long[] s, int base) {
    Map<String, Long> out = new LinkedHashMap<>();
    for (int k = 0; k < l.keptBuffers.size(); k++) {
      int v = (int) l.kept[k].get(s, base);
      if (isLive(v, l.keptMissing[k])) {
        out.put(l.keptBuffers.get(k), l.keptAllocs.get(k).get(v - 1).bytes());
      }
    }
    return out;
  }

  /** Why thread t's next step from s is the violation {@code kind}, in words. */
  public String explain(long[] s, int move, ViolationKind kind) {
    int t = threadOf(move);
    ThreadView v = view(s, t);
    String step = v.next().map(Step::text).orElse("?");
    String who = v.name() + " " + step;
    return switch (kind) {
      case OOM -> who + ": " + shortfall(s, (Alloc) v.next().orElseThrow());
      case SWALLOWED_OOM -> {
        Alloc a = (Alloc) v.next().orElseThrow();
        List<String> users = usersAfterFailure(s, t);
        yield who + ": " + shortfall(s, a) + "; on oom ignore: the job goes on without " + a.buffer()
            + (users.isEmpty() ? ", and no later step uses it" : ", and these steps run without it: "
            + String.join(", ", users));
      }
      case DEADLOCK -> who + ": locks a mutex it already holds";
      case LEAK -> v.next().orElseThrow() instanceof Alloc a && v.buffers().containsKey(a.buffer()) && !a.keep()
          ? who + ": " + a.buffer() + " is still live, its earlier allocation leaks"
          : v.name() + ": job " + (v.job() + 1) + " ends with live buffers " + leakedBuffers(s, t);
      case USE_AFTER_FREE -> who + ": uses a buffer that is not live (live: " + v.buffers().keySet() + ")";
      case BAD_FREE -> who + ": the buffer is not live";
      case UNLOCK_NOT_HELD -> who + ": the mutex is not held by this thread";
      case RELEASE_EXCESS -> {
        String sem = ((Release) v.next().orElseThrow()).semaphore();
        yield who + ": holds only " + v.permits().getOrDefault(sem, 0) + " permits of " + sem;
      }
    };
  }

  /** Why allocation a fails from s: the live (and pending cached) bytes, the request, vram and the live buffers. */
  private String shortfall(long[] s, Alloc a) {
    DeviceMemory m = memory(s);
    long pending = m.cachedTotal() - java.util.Arrays.stream(m.settled()).sum();
    String blocking = a.async() || !DeviceMemory.fits(design.vram(), s[LIVE], a.bytes()) ? ""
        : Sizes.format(pending) + " cached whose free no synchronization has seen + ";
    return Sizes.format(s[LIVE]) + " live + " + blocking + Sizes.format(a.bytes()) + " requested > "
        + Sizes.format(design.vram()) + " vram" + liveBuffersText(s);
  }

  /**
   * The steps that use the buffer of thread t's failing allocation (its next step from s) after an ignored failure:
   * the kernels that use it on every path of t's body from the step after the allocation up to a free or a new
   * allocation of it, and, for a job buffer, the kernels of the worker's task bodies that use it (tasks share their
   * job's buffers). Each as {@code THREAD: STEP}, in body order; these are where the job's result goes wrong.
   */
  public List<String> usersAfterFailure(long[] s, int move) {
    int t = threadOf(move);
    WorkerLayout l = layout(t);
    WorkerLayout.Slot x = slot(t);
    Code c = x.code;
    int pc = (int) x.pc.get(s, baseOf(t));
    int ref = c.ref[pc];
    int buf = c.arg[pc];
    java.util.TreeSet<Integer> users = new java.util.TreeSet<>();
    boolean[] seen = new boolean[c.length + 1];
    java.util.ArrayDeque<Integer> todo = new java.util.ArrayDeque<>();
    todo.add(c.oomTarget[pc]);
    while (!todo.isEmpty()) {
      int p = todo.poll();
      if (p >= c.length || seen[p]) {
        continue;
      }
      seen[p] = true;
      if ((c.op[p] == Code.OP_FREE || c.op[p] == Code.OP_ALLOC) && c.ref[p] == ref && c.arg[p] == buf) {
        continue;
      }
      if (usesBuffer(c, p, ref, buf)) {
        users.add(p);
      }
      todo.add(c.next[p]);
      if (c.op[p] == Code.OP_IF || c.op[p] == Code.OP_CHOOSE) {
        todo.add(c.elseTarget[p]);
      }
      if (c.op[p] == Code.OP_ALLOC && c.onOom[p] != Code.ON_OOM_FAIL) {
        todo.add(c.oomTarget[p]);
      }
    }
    List<String> out = new ArrayList<>();
    String name = threadName(t);
    users.forEach(p -> out.add(name + ": " + c.steps.get(p).text()));
    if (ref != KEPT) {
      String roleThread = threadName(workerFirstThread[workerOfThread[t]]);
      java.util.Set<Code> done = new java.util.HashSet<>(List.of(l.slots[0].code));
      for (int p = 1; p < l.slots.length; p++) {
        Code tc = l.slots[p].code;
        if (done.add(tc)) {
          for (int q = 0; q < tc.length; q++) {
            if (usesBuffer(tc, q, ref, buf)) {
              out.add(roleThread + " task " + l.tree.nodes().get(l.slots[p].node).task() + ": " + tc.steps.get(q).text());
            }
          }
        }
      }
    }
    return out;
  }

  private static boolean usesBuffer(Code c, int p, int ref, int buf) {
    if (c.op[p] != Code.OP_KERNEL) {
      return false;
    }
    int[] u = c.uses[p];
    for (int i = 0; i < u.length; i += 2) {
      if (u[i] == ref && u[i + 1] == buf) {
        return true;
      }
    }
    return false;
  }

  private List<String> leakedBuffers(long[] s, int t) {
    WorkerLayout l = layout(t);
    int base = baseOf(t);
    int frame = posOfThread[t] == 0 ? l.mainFrame(s, base) : slot(t).frame;
    return List.copyOf(jobBuffers(l, s, base, frame).keySet());
  }

  private String liveBuffersText(long[] s) {
    List<String> parts = liveBuffers(s).stream().map(LiveBuffer::describe).toList();
    return parts.isEmpty() ? "" : " (live: " + String.join(", ", parts) + ")";
  }

  /**
   * The buffers live in state s: resident ones, then per worker its job buffers by job slot and its kept buffers. The
   * one naming of live buffers: {@link #explain} and the views use it.
   */
  public List<LiveBuffer> liveBuffers(long[] s) {
    List<LiveBuffer> out = new ArrayList<>();
    for (ResidentBuffer b : design.buffers()) {
      out.add(new LiveBuffer("", b.name(), b.name(), b.bytes(), false));
    }
    for (int w = 0; w < workerBase.length; w++) {
      WorkerLayout l = layouts[workerRole[w]];
      String name = threadName(workerFirstThread[w]);
      int base = workerBase[w];
      for (int f = 0; f < l.frames; f++) {
        String prefix = l.frames == 1 ? name : name + "@" + (f + 1);
        jobBuffers(l, s, base, f).forEach((b, bytes) -> out.add(new LiveBuffer(name, b, prefix + "." + b, bytes, false)));
      }
      keptBuffers(l, s, base).forEach((b, bytes) -> out.add(new LiveBuffer(name, b, name + "." + b, bytes, true)));
    }
    return out;
  }

  /** Why state s is deadlocked: each unfinished thread's position and what it waits for. */
  public String explainDeadlock(long[] s) {
    List<String> parts = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      ThreadView v = view(s, t);
      if (v.next().isPresent()) {
        parts.add(v.name() + " " + v.position() + waitsFor(s, t, v.next().get()));
      }
    }
    return "no thread can move: " + String.join("; ", parts);
  }

  private String waitsFor(long[] s, int t, Step step) {
    if (step instanceof Lock lock) {
      for (int u = 0; u < threads; u++) {
        if (view(s, u).mutexes().contains(lock.mutex())) {
          return ", held by " + threadName(u);
        }
      }
    }
    if (step instanceof Acquire a) {
      return ", " + available(s, design.semaphoreIndex(a.semaphore())) + " available";
    }
    if (step instanceof Wait w) {
      return ", waits for event " + w.event() + " of its job, never signalled";
    }
    if (step instanceof Join j) {
      WorkerLayout l = layout(t);
      int base = baseOf(t);
      int frame = posOfThread[t] == 0 ? l.mainFrame(s, base) : slot(t).frame;
      int task = l.tasks.indexOf(j.task());
      long last = task < 0 ? 0 : l.frameLast[frame][task].get(s, base);
      if (last != 0) {
        int node = l.taskNodes[task][(int) last - 1];
        return ", waits for " + threadName(workerFirstThread[workerOfThread[t]] + 1 + frame * l.nodes + node);
      }
    }
    return "";
  }
}
