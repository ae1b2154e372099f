package dev.interlock.model.state;

import static dev.interlock.model.state.RoleLayout.OP_ACQUIRE;
import static dev.interlock.model.state.RoleLayout.OP_ALLOC;
import static dev.interlock.model.state.RoleLayout.OP_CPU;
import static dev.interlock.model.state.RoleLayout.OP_FREE;
import static dev.interlock.model.state.RoleLayout.OP_KERNEL;
import static dev.interlock.model.state.RoleLayout.OP_LOCK;
import static dev.interlock.model.state.RoleLayout.OP_RELEASE;
import static dev.interlock.model.state.RoleLayout.OP_SYNC;
import static dev.interlock.model.state.RoleLayout.OP_TRIM;
import static dev.interlock.model.state.RoleLayout.OP_UNLOCK;

import dev.interlock.model.design.Design;
import dev.interlock.model.design.Role;
import dev.interlock.model.design.Sizes;
import dev.interlock.model.step.Acquire;
import dev.interlock.model.step.Alloc;
import dev.interlock.model.step.Interval;
import dev.interlock.model.step.Lock;
import dev.interlock.model.step.Release;
import dev.interlock.model.step.Step;
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
 * the property tests all step states through it. A state is a {@code long[]}: slot 0 holds the
 * pool's cached bytes, slot 1 the live bytes of all threads (derived, kept for speed), and slot
 * {@code 2 + t} thread t packed by its {@link RoleLayout}. Threads are numbered in role order.
 *
 * <p>Device memory follows {@link DeviceMemory}'s rules, as measured on an H200.
 */
public final class Model {
  /** The thread took a step. */
  public static final int MOVED = 0;
  /** The thread waits (mutex held by another, permits not available, sync during a kernel). */
  public static final int BLOCKED = 1;
  /** The thread has run all its jobs. */
  public static final int FINISHED = 2;

  private static final int VIOLATION_BASE = 16;
  private static final ViolationKind[] KINDS = ViolationKind.values();

  private static final int CACHE = 0;
  private static final int LIVE = 1;
  private static final int THREADS = 2;

  private final Design design;
  private final RoleLayout[] layouts;
  private final int[] roleOfThread;
  private final int[] roleStart;
  private final int threads;
  private final List<String> intervalNames;
  private final long[] initialPermits;

  public Model(Design design) {
    this.design = design;
    Map<String, Integer> intervalIds = new LinkedHashMap<>();
    for (Role r : design.roles()) {
      for (Step s : r.body()) {
        if (s instanceof Interval i) {
          intervalIds.putIfAbsent(i.name(), intervalIds.size());
        }
      }
    }
    intervalNames = List.copyOf(intervalIds.keySet());
    layouts = new RoleLayout[design.roles().size()];
    roleStart = new int[layouts.length + 1];
    for (int r = 0; r < layouts.length; r++) {
      layouts[r] = new RoleLayout(design, design.roles().get(r), intervalIds);
      roleStart[r + 1] = roleStart[r] + design.roles().get(r).threads();
    }
    threads = roleStart[layouts.length];
    roleOfThread = new int[threads];
    for (int r = 0; r < layouts.length; r++) {
      Arrays.fill(roleOfThread, roleStart[r], roleStart[r + 1], r);
    }
    initialPermits = design.semaphores().stream().mapToLong(s -> s.permits()).toArray();
  }

  public Design design() {
    return design;
  }

  /** Number of threads over all roles. */
  public int threads() {
    return threads;
  }

  /** Length of a state array. */
  public int width() {
    return THREADS + threads;
  }

  /** Index of the role of thread t, in design order. */
  public int roleOf(int t) {
    return roleOfThread[t];
  }

  /** First thread of role r; threads of r are {@code roleStart(r) .. roleStart(r + 1) - 1}. */
  public int roleStart(int r) {
    return roleStart[r];
  }

  /** The name of thread t: {@code role#i}, i counted within its role from 0. */
  public String threadName(int t) {
    int r = roleOfThread[t];
    return design.roles().get(r).name() + "#" + (t - roleStart[r]);
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

  /** The initial state: every thread at the first step of its first job, nothing allocated. */
  public long[] initial() {
    return new long[width()];
  }

  /** The device memory of state s. */
  public DeviceMemory memory(long[] s) {
    return new DeviceMemory(design.vram(), 0, s[LIVE], 0, new long[] {s[CACHE]});
  }

  /** Bytes held by live buffers of all threads. */
  public long live(long[] s) {
    return s[LIVE];
  }

  /** Bytes the memory pool keeps cached after async frees. */
  public long cached(long[] s) {
    return s[CACHE];
  }

  /** What cudaMemGetInfo reports as used: live plus cached bytes. */
  public long used(long[] s) {
    return s[LIVE] + s[CACHE];
  }

  /** Whether every thread has run all its jobs. */
  public boolean allFinished(long[] s) {
    for (int t = 0; t < threads; t++) {
      if (!layout(t).finished(s[THREADS + t])) {
        return false;
      }
    }
    return true;
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

  /** The step thread t takes next, empty when it has finished. */
  public Optional<Step> nextStep(long[] s, int t) {
    RoleLayout l = layout(t);
    long w = s[THREADS + t];
    return l.finished(w) ? Optional.empty() : Optional.of(l.role.body().get(l.pc(w)));
  }

  /** The phase of thread t's next transition: begin or end of an interval, or empty for other steps. */
  public Optional<Phase> nextPhase(long[] s, int t) {
    return nextStep(s, t)
        .filter(Interval.class::isInstance)
        .map(x -> RoleLayout.inside(s[THREADS + t]) ? Phase.END : Phase.BEGIN);
  }

  /** Names of all intervals (kernel and cpu) in the design; an interval's id is its index here. */
  public List<String> intervalNames() {
    return intervalNames;
  }

  /** The id of the interval thread t is inside, or -1. */
  public int insideInterval(long[] s, int t) {
    long w = s[THREADS + t];
    if (!RoleLayout.inside(w)) {
      return -1;
    }
    RoleLayout l = layout(t);
    return l.interval[l.pc(w)];
  }

  /** True when one thread is inside interval a while another is inside interval b. */
  public boolean overlaps(long[] s, int a, int b) {
    for (int i = 0; i < threads; i++) {
      if (insideInterval(s, i) == a) {
        for (int j = 0; j < threads; j++) {
          if (j != i && insideInterval(s, j) == b) {
            return true;
          }
        }
      }
    }
    return false;
  }

  /**
   * Computes thread t's transition from state s.
   *
   * @return {@link #MOVED} with the next state in {@code out}, {@link #BLOCKED}, {@link #FINISHED},
   *     or a violation code (see {@link #violation(int)}); for a violation {@code out} holds the
   *     state the device is left in (after the failed call for OOM, which still moves the pool's
   *     cache; unchanged for other failed calls; post-step for a leak at job end)
   */
  public int step(long[] s, int t, long[] out) {
    RoleLayout l = layout(t);
    int slot = THREADS + t;
    long w = s[slot];
    if (l.finished(w)) {
      return FINISHED;
    }
    int pc = l.pc(w);
    System.arraycopy(s, 0, out, 0, s.length);
    switch (l.op[pc]) {
      case OP_LOCK -> {
        int m = l.arg[pc];
        if (l.holds(w, m)) {
          return code(ViolationKind.DEADLOCK);
        }
        if (heldByAnyone(s, m)) {
          return BLOCKED;
        }
        return advance(l, w | (1L << l.mutexBit[m]), out, slot);
      }
      case OP_UNLOCK -> {
        int m = l.arg[pc];
        if (!l.holds(w, m)) {
          return code(ViolationKind.UNLOCK_NOT_HELD);
        }
        return advance(l, w & ~(1L << l.mutexBit[m]), out, slot);
      }
      case OP_ACQUIRE -> {
        int sem = l.arg[pc];
        if (l.amount[pc] > available(s, sem)) {
          return BLOCKED;
        }
        return advance(l, l.withPermits(w, sem, l.permits(w, sem) + l.amount[pc]), out, slot);
      }
      case OP_RELEASE -> {
        int sem = l.arg[pc];
        int held = l.permits(w, sem);
        if (l.amount[pc] > held) {
          return code(ViolationKind.RELEASE_EXCESS);
        }
        return advance(l, l.withPermits(w, sem, held - l.amount[pc]), out, slot);
      }
      case OP_ALLOC -> {
        int b = l.arg[pc];
        if (l.buffer(w, b) != 0) {
          return code(ViolationKind.LEAK);
        }
        Optional<DeviceMemory> after = memory(s).alloc(l.amount[pc], false, 0);
        if (after.isEmpty()) {
          DeviceMemory failed = memory(s).afterFailedAlloc(l.amount[pc], false, 0);
          out[LIVE] = failed.live();
          out[CACHE] = failed.cachedTotal();
          return code(ViolationKind.OOM);
        }
        out[LIVE] = after.get().live();
        out[CACHE] = after.get().cachedTotal();
        return advance(l, l.withBuffer(w, b, l.allocValue[pc]), out, slot);
      }
      case OP_FREE -> {
        int b = l.arg[pc];
        int v = l.buffer(w, b);
        if (v == 0) {
          return code(ViolationKind.BAD_FREE);
        }
        DeviceMemory after = memory(s).free(l.bufferBytes[b][v - 1], false, 0);
        out[LIVE] = after.live();
        out[CACHE] = after.cachedTotal();
        return advance(l, l.withBuffer(w, b, 0), out, slot);
      }
      case OP_TRIM -> {
        out[CACHE] = 0;
        return advance(l, w, out, slot);
      }
      case OP_SYNC -> {
        return anyInsideKernel(s) ? BLOCKED : advance(l, w, out, slot);
      }
      case OP_KERNEL -> {
        if (RoleLayout.inside(w)) {
          return advance(l, w, out, slot);
        }
        for (int b : l.uses[pc]) {
          if (l.buffer(w, b) == 0) {
            return code(ViolationKind.USE_AFTER_FREE);
          }
        }
        out[slot] = w | 1L;
        return MOVED;
      }
      case OP_CPU -> {
        if (RoleLayout.inside(w)) {
          return advance(l, w, out, slot);
        }
        out[slot] = w | 1L;
        return MOVED;
      }
      default -> throw new IllegalStateException("unknown op " + l.op[pc]);
    }
  }

  /**
   * State s with thread t started afresh, as the engine leaves a thread whose job failed: the
   * mutexes and permits t holds released, its live buffers freed (async ones into the pool's cache,
   * by the alloc that made each), and t at the first step of its first job.
   *
   * <p>For a thread that holds nothing this only forgets how many jobs it has run, which lets a
   * sequential specification that runs jobs without end merge states that differ only in that count.
   */
  public long[] restart(long[] s, int t) {
    RoleLayout l = layout(t);
    long w = s[THREADS + t];
    DeviceMemory memory = memory(s);
    for (int b = 0; b < l.buffers.size(); b++) {
      int v = l.buffer(w, b);
      if (v != 0) {
        memory = memory.free(l.bufferBytes[b][v - 1], false, 0);
      }
    }
    long[] out = s.clone();
    out[LIVE] = memory.live();
    out[CACHE] = memory.cachedTotal();
    out[THREADS + t] = initial()[THREADS + t];
    return out;
  }

  /** The violation a code from {@link #step} stands for, or null for MOVED, BLOCKED, FINISHED. */
  public static ViolationKind violation(int code) {
    return code >= VIOLATION_BASE ? KINDS[code - VIOLATION_BASE] : null;
  }

  private static int code(ViolationKind k) {
    return VIOLATION_BASE + k.ordinal();
  }

  /** Moves past the current step; at the end of the body checks for leaks and starts the next job. */
  private int advance(RoleLayout l, long w, long[] out, int slot) {
    int pc = l.pc(w) + 1;
    if (pc < l.length) {
      out[slot] = l.at(w, l.job(w), pc);
      return MOVED;
    }
    int job = l.job(w) + 1;
    out[slot] = l.at(w, job, 0);
    return l.firstLiveBuffer(w) >= 0 ? code(ViolationKind.LEAK) : MOVED;
  }

  private boolean heldByAnyone(long[] s, int mutex) {
    for (int t = 0; t < threads; t++) {
      if (layout(t).holds(s[THREADS + t], mutex)) {
        return true;
      }
    }
    return false;
  }

  private long available(long[] s, int sem) {
    long held = 0;
    for (int t = 0; t < threads; t++) {
      held += layout(t).permits(s[THREADS + t], sem);
    }
    return initialPermits[sem] - held;
  }

  private boolean anyInsideKernel(long[] s) {
    for (int t = 0; t < threads; t++) {
      long w = s[THREADS + t];
      if (RoleLayout.inside(w)) {
        RoleLayout l = layout(t);
        if (l.op[l.pc(w)] == OP_KERNEL) {
          return true;
        }
      }
    }
    return false;
  }

  private RoleLayout layout(int t) {
    return layouts[roleOfThread[t]];
  }

  /**
   * Puts s in canonical form under the symmetry of interchangeable threads: sorts each role's words.
   *
   * <p>Threads of one role run the same body, so permuting them gives an equivalent state; sorting
   * picks one representative, which shrinks the state space by up to threads! per role.
   */
  public void canonicalize(long[] s) {
    for (int r = 0; r < layouts.length; r++) {
      int from = THREADS + roleStart[r];
      int to = THREADS + roleStart[r + 1];
      for (int i = from + 1; i < to; i++) {
        long x = s[i];
        int j = i - 1;
        while (j >= from && s[j] > x) {
          s[j + 1] = s[j];
          j--;
        }
        s[j + 1] = x;
      }
    }
  }

  /** Whether threads a and b are of one role and in identical local states, so their moves are symmetric. */
  public boolean sameLocalState(long[] s, int a, int b) {
    return roleOfThread[a] == roleOfThread[b] && s[THREADS + a] == s[THREADS + b];
  }

  /** The thread of concrete state s that corresponds to thread tc of {@code canonical}, a permutation of s. */
  public int correspondingThread(long[] s, long[] canonical, int tc) {
    int r = roleOfThread[tc];
    for (int t = roleStart[r]; t < roleStart[r + 1]; t++) {
      if (s[THREADS + t] == canonical[THREADS + tc]) {
        return t;
      }
    }
    throw new IllegalArgumentException("state is not a permutation of the canonical one");
  }

  /** A readable snapshot of thread t. */
  public ThreadView view(long[] s, int t) {
    RoleLayout l = layout(t);
    long w = s[THREADS + t];
    List<String> mutexes = new ArrayList<>();
    for (int m = 0; m < design.mutexes().size(); m++) {
      if (l.holds(w, m)) {
        mutexes.add(design.mutexes().get(m));
      }
    }
    Map<String, Integer> permits = new LinkedHashMap<>();
    for (int sem = 0; sem < design.semaphores().size(); sem++) {
      if (l.permits(w, sem) > 0) {
        permits.put(design.semaphores().get(sem).name(), l.permits(w, sem));
      }
    }
    Map<String, Long> buffers = new LinkedHashMap<>();
    for (int b = 0; b < l.buffers.size(); b++) {
      if (l.buffer(w, b) != 0) {
        buffers.put(l.buffers.get(b), l.bufferBytes(w, b));
      }
    }
    return new ThreadView(threadName(t), l.job(w), nextStep(s, t), RoleLayout.inside(w), mutexes, permits, buffers);
  }

  /** Why thread t's next step from s is the violation {@code kind}, in words. */
  public String explain(long[] s, int t, ViolationKind kind) {
    ThreadView v = view(s, t);
    String step = v.next().map(Step::text).orElse("?");
    String who = v.name() + " " + step;
    return switch (kind) {
      case OOM -> {
        long bytes = ((Alloc) v.next().orElseThrow()).bytes();
        yield who + ": " + Sizes.format(s[LIVE]) + " live + " + Sizes.format(bytes) + " requested > "
            + Sizes.format(design.vram()) + " vram" + liveBuffers(s);
      }
      case DEADLOCK -> who + ": locks a mutex it already holds";
      case LEAK -> v.next().orElseThrow() instanceof Alloc a && v.buffers().containsKey(a.buffer())
          ? who + ": " + a.buffer() + " is still live, its earlier allocation leaks"
          : who + ": job " + (v.job() + 1) + " ends with live buffers " + v.buffers().keySet();
      case USE_AFTER_FREE -> who + ": uses a buffer that is not live (live: " + v.buffers().keySet() + ")";
      case BAD_FREE -> who + ": the buffer is not live";
      case UNLOCK_NOT_HELD -> who + ": the mutex is not held by this thread";
      case RELEASE_EXCESS -> {
        String sem = ((Release) v.next().orElseThrow()).semaphore();
        yield who + ": holds only " + v.permits().getOrDefault(sem, 0) + " permits of " + sem;
      }
    };
  }

  private String liveBuffers(long[] s) {
    List<String> parts = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      String name = threadName(t);
      view(s, t).buffers().forEach((b, bytes) -> parts.add(name + "." + b + "=" + Sizes.format(bytes)));
    }
    return parts.isEmpty() ? "" : " (live: " + String.join(", ", parts) + ")";
  }

  /** Why state s is deadlocked: each unfinished thread's position and what it waits for. */
  public String explainDeadlock(long[] s) {
    List<String> parts = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      ThreadView v = view(s, t);
      if (v.next().isPresent()) {
        parts.add(v.name() + " " + v.position() + waitsFor(s, v.next().get()));
      }
    }
    return "no thread can move: " + String.join("; ", parts);
  }

  private String waitsFor(long[] s, Step step) {
    if (step instanceof Lock lock) {
      for (int t = 0; t < threads; t++) {
        if (view(s, t).mutexes().contains(lock.mutex())) {
          return ", held by " + threadName(t);
        }
      }
    }
    if (step instanceof Acquire a) {
      return ", " + available(s, design.semaphoreIndex(a.semaphore())) + " available";
    }
    return "";
  }
}
