package dev.interlock.observe;

import dev.interlock.model.design.Sizes;
import dev.interlock.model.step.Names;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Writes a design from a captured run: each thread's steps (locks, semaphores, allocations, frees, NVTX intervals,
 * synchronizations, cuMemGetInfo reads), cut into jobs by NVTX ranges named {@code job}, and the jobs of a role's
 * threads merged into one body with branches, since real engines take different paths in different jobs.
 *
 * <p>Threads of one name ({@code gpu_worker#i}) are one role. Where their jobs part, the branch is an {@code if free}
 * when the free sizes a cuMemGetInfo just before read tell the paths apart, an {@code on oom ignore} or {@code on oom}
 * handler where an allocation failed and the job went on, and a {@code choose} otherwise (with a warning). A job that
 * fails at an allocation and then only gives back what it holds failed there: the allocation stays unhandled. Threads
 * without job ranges are cut by the shortest repeating pattern of their steps. Every step's comment names the capture
 * line it came from. docs/capture.md, "Inferring a design", has the rules.
 */
public final class Inferrer {
  /** One observed step of a thread: its key (what makes two steps the same) and where it came from. */
  private static final class Tok {
    final String kind;
    String name;
    final long bytes;
    final boolean async;
    int permits;
    final int line;
    Tok allocTok;
    String buffer;
    /** For a mapping group's allocation: its parts still live, and what the comment adds to the capture line. */
    int liveParts;
    String note;
    /** An allocation that ran out of memory (rc=2); for a meminfo, the free bytes it read. */
    boolean failed;
    long free;
    /** A step added to complete a job cut short ({@link #completed}): what it would have given back. */
    boolean added;

    Tok(String kind, String name, long bytes, boolean async, int line) {
      this.kind = kind;
      this.name = name;
      this.bytes = bytes;
      this.async = async;
      this.permits = 1;
      this.line = line;
    }

    String key() {
      return switch (kind) {
        case "alloc" -> "alloc " + bytes + (async ? " async" : "") + (note == null ? "" : " group " + buffer);
        // a free is of whichever allocation its job made: one free step after a branch frees either side's
        case "free" -> "free" + (allocTok != null && allocTok.buffer != null ? " " + allocTok.buffer : "");
        case "acquire", "release" -> kind + " " + name + " " + permits;
        default -> kind + (name == null ? "" : " " + name);
      };
    }
  }

  /** An open NVTX range of a thread. */
  private static final class Frame {
    final String name;
    final String raw;
    final int slot;
    final int line;
    /** Steps taken inside it so far: a range with none is a cpu or kernel step of its own. */
    int inner;
    boolean launch;

    Frame(String name, String raw, int slot, int line) {
      this.name = name;
      this.raw = raw;
      this.slot = slot;
      this.line = line;
    }
  }

  private final Capture capture;
  private final Mapping map;
  private final Map<String, String> nvtxNames = new HashMap<>();
  private final Map<Long, String> threadNames = new HashMap<>();
  private final Map<Long, List<Tok>> seq = new LinkedHashMap<>();
  private final Map<Long, List<Integer>> jobStarts = new HashMap<>();
  private final Map<Long, List<Integer>> jobEnds = new HashMap<>();
  private final Map<Long, Deque<Frame>> frames = new HashMap<>();
  private final Map<Long, int[]> allocs = new HashMap<>();
  private final Map<Long, long[]> livePtr = new HashMap<>();
  private final Map<Long, Tok> liveTok = new HashMap<>();
  private final Map<String, Long> semHeld = new HashMap<>();
  private final Map<String, Long> semMax = new LinkedHashMap<>();
  private final Set<String> mutexes = new LinkedHashSet<>();
  private final Set<String> guards = new HashSet<>();
  private final Map<Long, GroupParts> collecting = new HashMap<>();
  private final Map<Long, Tok> freeingGroup = new HashMap<>();
  private int line;
  private long liveBytes;
  private long vramSeen = -1;

  private Inferrer(Capture capture, Mapping map) {
    this.capture = capture;
    this.map = map;
  }

  /** The design text inferred from {@code capture}; {@code vram} overrides what the capture's first cuMemGetInfo saw. */
  public static String infer(Capture capture, Mapping map, Optional<Long> vram) {
    return inferWithWarnings(capture, map, vram).text();
  }

  /**
   * A design inferred from a capture, and where the jobs' paths could not be merged as observed (each with its job or
   * capture line; also in the text as {@code # warning:} comments).
   *
   * @param text     the design
   * @param warnings one line each, {@code CAPTURE:LINE} inside
   */
  public record Result(String text, List<String> warnings) {
    public Result {
      java.util.Objects.requireNonNull(text, "text");
      warnings = List.copyOf(warnings);
    }
  }

  /** As {@link #infer}, with the warnings. */
  public static Result inferWithWarnings(Capture capture, Mapping map, Optional<Long> vram) {
    Inferrer in = new Inferrer(CaptureSteps.of(map.withoutIgnoredThreads(capture)), map);
    String text = in.run(vram);
    return new Result(text, in.warnings);
  }

  private String run(Optional<Long> vram) {
    for (CaptureEvent e : capture.events()) {
      if (e instanceof CaptureEvent.Name n) {
        nvtxNames.put(n.obj(), n.name());
      } else if (e instanceof CaptureEvent.ThreadName n) {
        threadNames.put(n.named(), n.name());
      }
    }
    findGuards();
    for (CaptureEvent e : capture.events()) {
      observe(e);
    }
    long v = vram.orElseGet(() -> {
      if (vramSeen < 0) {
        throw new IllegalArgumentException(capture.source() + ": no cuMemGetInfo in the capture tells the device's size: give --vram");
      }
      return vramSeen;
    });
    return write(v);
  }

  /**
   * The mutexes that only guard a semaphore's count: named {@code SEM.guard}, or taken only inside {@code acquire SEM N}
   * / {@code release SEM N} ranges (a condition variable's waits lock them a varying number of times per job).
   */
  private void findGuards() {
    Set<String> semaphores = new HashSet<>();
    Set<String> inside = new LinkedHashSet<>();
    Set<String> outside = new HashSet<>();
    Map<Long, Deque<String>> open = new HashMap<>();
    for (CaptureEvent e : capture.events()) {
      Deque<String> ranges = open.computeIfAbsent(e.tid(), k -> new ArrayDeque<>());
      if (e instanceof CaptureEvent.RangePush p) {
        ranges.push(p.name());
      } else if (e instanceof CaptureEvent.RangePop && !ranges.isEmpty()) {
        ranges.pop();
      } else if (e instanceof CaptureEvent.Acquire a && a.taken()) {
        String n = resolve(a.obj());
        if (!isMutex(a)) {
          semaphores.add(n);
        } else if (ranges.stream().anyMatch(SemaphoreRanges::isSemaphoreRange)) {
          inside.add(n);
        } else {
          outside.add(n);
        }
      }
    }
    for (String n : inside) {
      if (!outside.contains(n)) {
        guards.add(n);
      }
    }
    for (String n : outside) {
      if (SemaphoreRanges.namedGuard(n, semaphores)) {
        guards.add(n);
      }
    }
  }

  private static boolean isMutex(CaptureEvent.Acquire a) {
    return a.kind().mutex();
  }

  /** The raw names of thread {@code tid}'s open NVTX ranges, innermost first. */
  private List<String> openRanges(long tid) {
    Deque<Frame> open = frames.get(tid);
    return open == null ? List.of() : open.stream().map(f -> f.raw).toList();
  }

  private String resolve(String obj) {
    String direct = map.objects().get(obj);
    if (direct != null) {
      return identifier(direct);
    }
    String nvtx = nvtxNames.get(obj);
    return identifier(nvtx == null ? obj : map.objects().getOrDefault(nvtx, nvtx));
  }

  private static String identifier(String s) {
    String t = s.replaceAll("[^A-Za-z0-9_.-]", "_");
    return Names.isIdentifier(t) ? t : "_" + t;
  }

  private List<Tok> tokens(long tid) {
    return seq.computeIfAbsent(tid, k -> new ArrayList<>());
  }

  private void add(long tid, Tok t) {
    GroupParts parts = collecting.get(tid);
    if (parts != null) {
      throw new IllegalArgumentException(capture.source() + ":" + line + ":1: thread " + tid + ": this step cuts group "
          + parts.group().buffer() + " after " + parts.progress(capture.source()) + ": the next part is " + parts.nextPart());
    }
    Tok freeing = freeingGroup.get(tid);
    if (freeing != null) {
      throw new IllegalArgumentException(capture.source() + ":" + line + ":1: thread " + tid + ": this step cuts the frees of group "
          + freeing.buffer + " (allocated at " + capture.source() + ":" + freeing.line + ") with " + freeing.liveParts
          + " parts still live");
    }
    List<Tok> ts = tokens(tid);
    Deque<Frame> open = frames.get(tid);
    if (open != null) {
      open.forEach(f -> f.inner++);
    }
    ts.add(t);
  }

  private void observe(CaptureEvent e) {
    long tid = e.tid();
    line = e.line();
    if (e instanceof CaptureEvent.MemInfo m && m.rc() == 0) {
      if (vramSeen < 0) {
        vramSeen = m.free() + liveBytes;
      }
      // a cuMemGetInfo is a step only where jobs branch after it (an if free); it is no step of an NVTX range around it
      Tok t = new Tok("meminfo", null, 0, false, e.line());
      t.free = m.free();
      tokens(tid).add(t);
      Deque<Frame> open = frames.get(tid);
      if (open != null && !open.isEmpty()) {
        open.peek().inner++; // the range around it (the engine's "if free") is no step of its own
      }
    } else if (e instanceof CaptureEvent.Acquire a && a.taken()) {
      String n = resolve(a.obj());
      if (isMutex(a) && (guards.contains(n) || map.ignoresObject(n) || map.ignoresObject(a.obj()))) {
        return;
      } else if (isMutex(a)) {
        mutexes.add(n);
        add(tid, new Tok("lock", n, 0, false, e.line()));
      } else {
        int k = SemaphoreRanges.permits("acquire", n, openRanges(tid));
        long held = semHeld.merge(n, (long) k, Long::sum);
        semMax.merge(n, held, Math::max);
        List<Tok> ts = tokens(tid);
        Tok last = ts.isEmpty() ? null : ts.get(ts.size() - 1);
        if (last != null && last.kind.equals("acquire") && last.name.equals(n)) {
          last.permits += k;
        } else {
          Tok t = new Tok("acquire", n, 0, false, e.line());
          t.permits = k;
          add(tid, t);
        }
      }
    } else if (e instanceof CaptureEvent.Release r) {
      String n = resolve(r.obj());
      if (r.kind().mutex()) {
        if (mutexes.contains(n) && !map.ignoresObject(n) && !map.ignoresObject(r.obj()) && !emptyCriticalSection(tid, n)) {
          add(tid, new Tok("unlock", n, 0, false, e.line()));
        }
      } else if (semHeld.containsKey(n)) {
        int k = SemaphoreRanges.permits("release", n, openRanges(tid));
        semHeld.merge(n, (long) -k, Long::sum);
        List<Tok> ts = tokens(tid);
        Tok last = ts.isEmpty() ? null : ts.get(ts.size() - 1);
        if (last != null && last.kind.equals("release") && last.name.equals(n)) {
          last.permits += k;
        } else {
          Tok t = new Tok("release", n, 0, false, e.line());
          t.permits = k;
          add(tid, t);
        }
      }
    } else if (e instanceof CaptureEvent.RangePush p) {
      if (p.name().equals("job")) {
        jobStarts.computeIfAbsent(tid, k -> new ArrayList<>()).add(tokens(tid).size());
        frames.computeIfAbsent(tid, k -> new ArrayDeque<>()).push(new Frame("job", "job", -1, e.line()));
        return;
      }
      add(tid, null);
      frames.computeIfAbsent(tid, k -> new ArrayDeque<>()).push(new Frame(identifier(p.name()), p.name(), tokens(tid).size() - 1, e.line()));
    } else if (e instanceof CaptureEvent.RangePop) {
      Deque<Frame> open = frames.get(tid);
      if (open == null || open.isEmpty()) {
        return;
      }
      Frame f = open.pop();
      List<Tok> ts = tokens(tid);
      if (f.slot < 0) {
        jobEnds.computeIfAbsent(tid, k -> new ArrayList<>()).add(ts.size());
      } else if (f.launch && f.inner > 0 && onlySyncsAfter(ts, f.slot)) {
        // a kernel's range that waits for it: the sync is the kernel's end, as validate maps it
        ts.subList(f.slot + 1, ts.size()).clear();
        ts.set(f.slot, new Tok("kernel", f.name, 0, false, f.line));
      } else if (f.inner == 0) {
        ts.set(f.slot, new Tok(f.launch ? "kernel" : "cpu", f.name, 0, false, f.line));
      }
    } else if (e instanceof CaptureEvent.Launch) {
      Deque<Frame> open = frames.get(tid);
      if (open != null && !open.isEmpty()) {
        open.peek().launch = true;
      }
    } else if (e instanceof CaptureEvent.Alloc a && (a.rc() == 0 || a.outOfMemory()) && !map.ignoredSizes().contains(a.bytes())
        && groupPart(a)) {
      return;
    } else if (e instanceof CaptureEvent.Alloc a && (a.rc() == 0 || a.outOfMemory()) && !map.ignoredSizes().contains(a.bytes())) {
      Tok t = new Tok("alloc", null, a.bytes(), a.async(), e.line());
      Deque<Frame> open = frames.get(tid);
      Frame named = open == null ? null : open.stream().filter(f -> f.slot >= 0).findFirst().orElse(null);
      t.buffer = named == null ? null : bufferName(named.name);
      t.failed = a.outOfMemory();
      add(tid, t);
      if (a.rc() == 0) {
        livePtr.put(a.ptr(), new long[] {tid, a.bytes()});
        liveTok.put(a.ptr(), t);
        liveBytes += a.bytes();
      }
    } else if (e instanceof CaptureEvent.Free f && livePtr.containsKey(f.ptr()) && liveTok.get(f.ptr()).note != null) {
      freeGroupPart(f);
    } else if (e instanceof CaptureEvent.Free f && livePtr.containsKey(f.ptr())) {
      long[] at = livePtr.remove(f.ptr());
      liveBytes -= at[1];
      Tok t = new Tok("free", null, at[1], f.async(), e.line());
      t.allocTok = liveTok.remove(f.ptr());
      if (at[0] == tid) {
        add(tid, t);
      }
    } else if (e instanceof CaptureEvent.Sync) {
      addIfKnown(tid, new Tok("sync", null, 0, false, e.line()));
    } else if (e instanceof CaptureEvent.SyncStream) {
      addIfKnown(tid, new Tok("sync stream", null, 0, false, e.line()));
    } else if (e instanceof CaptureEvent.Trim) {
      addIfKnown(tid, new Tok("trim", null, 0, false, e.line()));
    }
  }

  /**
   * Takes an allocation that is a part of a mapping group (the first of a group whose first size it matches, in file
   * order, or the next part of the thread's open group): true when it was one. The group's one alloc step is added at
   * its last part, or at a part that ran out of memory.
   */
  private boolean groupPart(CaptureEvent.Alloc a) {
    long tid = a.tid();
    GroupParts open = collecting.remove(tid);
    if (open == null) {
      Mapping.Group g = map.groups().values().stream().filter(x -> map.sizeMatches(a.bytes(), x.parts().get(0))).findFirst().orElse(null);
      if (g == null) {
        return false;
      }
      open = new GroupParts(g, a.line(), a.async());
    } else if (!open.next(map, a.bytes(), a.async())) {
      throw new IllegalArgumentException(capture.source() + ":" + a.line() + ":1: thread " + tid + ": this allocation cuts group "
          + open.group().buffer() + " after " + open.progress(capture.source()) + ": the next part is " + open.nextPart());
    }
    open.add(a.ptr(), a.bytes(), !a.outOfMemory());
    if (!a.outOfMemory()) {
      livePtr.put(a.ptr(), new long[] {tid, a.bytes()});
      liveBytes += a.bytes();
    }
    if (!open.complete() && !a.outOfMemory()) {
      collecting.put(tid, open);
      return true;
    }
    Mapping.Group g = open.group();
    if (!a.outOfMemory() && !map.sizeMatches(open.observed(), g.total())) {
      throw new IllegalArgumentException(capture.source() + ":" + a.line() + ":1: thread " + tid + ": group " + g.buffer()
          + "'s parts add up to " + Sizes.format(open.observed()) + ", which is not " + Sizes.format(g.total()) + " within the tolerance");
    }
    Tok t = new Tok("alloc", null, g.total(), a.async(), open.firstLine());
    t.buffer = g.buffer();
    t.note = "group " + g.buffer() + " (" + g.where() + "): " + open.seen() + " allocations, the last at " + capture.source() + ":"
        + a.line();
    t.liveParts = open.ptrs().size();
    open.ptrs().forEach(p -> liveTok.put(p, t));
    t.failed = a.outOfMemory();
    add(tid, t);
    return true;
  }

  /** Frees a part of a mapping group: the group's one free step is added at the last part's free, by its thread. */
  private void freeGroupPart(CaptureEvent.Free f) {
    long tid = f.tid();
    long[] at = livePtr.remove(f.ptr());
    liveBytes -= at[1];
    Tok alloc = liveTok.remove(f.ptr());
    alloc.liveParts--;
    if (at[0] != tid) {
      return;
    }
    Tok open = freeingGroup.remove(tid);
    if (open != null && open != alloc) {
      throw new IllegalArgumentException(capture.source() + ":" + f.line() + ":1: thread " + tid + ": this free cuts the frees of group "
          + open.buffer + " (allocated at " + capture.source() + ":" + open.line + ") with " + open.liveParts + " parts still live");
    }
    if (alloc.liveParts > 0) {
      freeingGroup.put(tid, alloc);
      return;
    }
    Tok t = new Tok("free", null, alloc.bytes, f.async(), f.line());
    t.allocTok = alloc;
    add(tid, t);
  }

  private void addIfKnown(long tid, Tok t) {
    add(tid, t);
  }

  /**
   * Drops thread tid's last step when it is {@code lock n}, for an unlock of n right after it: a critical section with
   * no step of the design in it (a log's mutex, a job queue's) can only delay a thread for an instant, never change a
   * verdict, so it is no step (an engine that prints on a failure would otherwise take another path there). True when
   * it was dropped, and the unlock is no step either.
   */
  private boolean emptyCriticalSection(long tid, String n) {
    List<Tok> ts = tokens(tid);
    int i = ts.size() - 1;
    while (i >= 0 && ts.get(i) != null && ts.get(i).kind.equals("meminfo")) {
      i--;
    }
    if (i < 0 || ts.get(i) == null || !ts.get(i).kind.equals("lock") || !ts.get(i).name.equals(n)) {
      return false;
    }
    final int at = i;
    if (jobStarts.getOrDefault(tid, List.of()).stream().anyMatch(x -> x > at) || jobEnds.getOrDefault(tid, List.of()).stream().anyMatch(x -> x > at)) {
      return false; // a job range begins or ends inside it: its position would move
    }
    ts.remove(i);
    Deque<Frame> open = frames.get(tid);
    if (open != null) {
      open.forEach(f -> f.inner = Math.max(0, f.inner - 1));
    }
    return true;
  }

  /** Whether every token after {@code slot} is a synchronization. */
  private static boolean onlySyncsAfter(List<Tok> ts, int slot) {
    for (int i = slot + 1; i < ts.size(); i++) {
      Tok t = ts.get(i);
      if (t == null || !t.kind.startsWith("sync")) {
        return false;
      }
    }
    return slot + 1 < ts.size();
  }

  /** A buffer's name from the NVTX range around its allocation, without the verb: {@code alloc_staged} names {@code staged}. */
  private static String bufferName(String range) {
    String n = range.startsWith("alloc_") && range.length() > 6 ? range.substring(6) : range;
    return identifier(n);
  }

  /**
   * One observed job of a thread: its steps, whether it stops short (the run ended in it, or it failed at an allocation
   * that ran out of memory and only gave back what it held after it), its number (from 1) and its first capture line.
   */
  private record Job(long tid, int number, List<Tok> toks, boolean cut, int line) {}

  /** A thread's jobs from its NVTX ranges named job: the steps inside each (those outside are dropped). */
  private List<Job> jobs(long tid) {
    List<Integer> starts = jobStarts.getOrDefault(tid, List.of());
    List<Integer> ends = jobEnds.getOrDefault(tid, List.of());
    List<Tok> all = seq.getOrDefault(tid, List.of());
    List<Job> out = new ArrayList<>();
    for (int j = 0; j < starts.size(); j++) {
      int end = j < ends.size() ? ends.get(j) : all.size();
      List<Tok> ts = all.subList(starts.get(j), end).stream().filter(t -> t != null).toList();
      boolean cut = j >= ends.size();
      if (cut && j == starts.size() - 1 && frames.containsKey(tid)) {
        // the run ended inside an NVTX range of this job: that interval began, which a job that went elsewhere did not
        List<Tok> begun = new ArrayList<>(ts);
        for (java.util.Iterator<Frame> it = frames.get(tid).descendingIterator(); it.hasNext(); ) {
          Frame f = it.next();
          if (f.slot >= 0 && f.inner == 0) {
            begun.add(new Tok(f.launch ? "kernel" : "cpu", f.name, 0, false, f.line));
          }
        }
        ts = begun;
      }
      // the first failure after which the job only gives back what it holds (a handler's own failure, say)
      int first = -1;
      for (int i = 0; i < ts.size() && first < 0; i++) {
        if (ts.get(i).failed && cleanupOnly(ts.subList(i + 1, ts.size()))) {
          first = i;
        }
      }
      if (first >= 0) {
        // the job failed there: what follows only gives back what it held (the engine's error path), not a handler
        ts = ts.subList(0, first + 1);
        cut = true;
      }
      int line = ts.isEmpty() ? 0 : ts.get(0).line;
      out.add(new Job(tid, j + 1, ts, cut, line));
    }
    return out;
  }

  /** Whether {@code ts} only gives back locks, permits and buffers: a failed job's way out. */
  private static boolean cleanupOnly(List<Tok> ts) {
    return ts.stream().allMatch(t -> t.kind.equals("unlock") || t.kind.equals("free") || t.kind.equals("release")
        || t.kind.equals("meminfo"));
  }

  private static List<String> keys(List<Tok> ts) {
    return ts.stream().map(Tok::key).toList();
  }

  /** A step of an inferred body: one observed step, a branch, or an allocation whose failure is handled or ignored. */
  private sealed interface Node permits Leaf, Branch, OomAlloc {}

  /** One step, and the observed steps of every job it stands for. */
  private static final class Leaf implements Node {
    final Tok tok;
    final List<Tok> sources = new ArrayList<>();

    Leaf(Tok tok) {
      this.tok = tok;
    }
  }

  /**
   * {@code if free >= threshold} (when {@code meminfo} is set: the cuMemGetInfo that decides) or {@code choose}; the
   * first alternative, then the second.
   */
  private record Branch(Leaf meminfo, long threshold, List<Node> first, List<Node> second) implements Node {}

  /** An allocation that failed in some jobs: {@code on oom ignore}, or {@code on oom} and its handler. */
  private record OomAlloc(Leaf alloc, boolean ignore, List<Node> handler, List<Node> success, String why) implements Node {}

  /** A role: its name's base, body, threads, and the most jobs one of them ran. */
  private static final class Inferred {
    final String base;
    final List<Node> body;
    final List<Long> tids = new ArrayList<>();
    int jobs = 1;
    final String how;

    Inferred(String base, List<Node> body, String how) {
      this.base = base;
      this.body = body;
      this.how = how;
    }
  }

  /** The leaf each observed step became: which allocation a free frees, across jobs. */
  private final Map<Tok, Leaf> nodeOf = new java.util.IdentityHashMap<>();
  private final List<String> warnings = new ArrayList<>();
  /** The last observed step of each job cut short and completed ({@link #completed}). */
  private final Set<Tok> cutEnds = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
  /** Allocations that are one buffer though no free says so: a cut handler's allocation and the one that failed. */
  private final List<Tok[]> sameBuffer = new ArrayList<>();

  private String write(long vram) {
    List<Map.Entry<Long, List<Tok>>> threads = new ArrayList<>();
    for (Map.Entry<Long, List<Tok>> en : seq.entrySet()) {
      List<Tok> ts = en.getValue().stream().filter(t -> t != null && !t.kind.equals("meminfo")).toList();
      if (!ts.isEmpty()) {
        threads.add(Map.entry(en.getKey(), ts));
      }
    }
    if (threads.isEmpty()) {
      throw new IllegalArgumentException(capture.source() + ": no thread locks, allocates or opens an NVTX range: nothing to infer");
    }
    threads.sort((a, b) -> Integer.compare(b.getValue().size(), a.getValue().size()));
    List<Inferred> roles = new ArrayList<>();
    List<Map.Entry<Long, List<Tok>>> unranged = new ArrayList<>();
    // threads with NVTX job ranges, by their name's role part (gpu_worker#1 -> gpu_worker): one role each
    Map<String, List<Long>> ranged = new LinkedHashMap<>();
    for (Map.Entry<Long, List<Tok>> th : threads) {
      List<Job> js = jobs(th.getKey());
      if (js.isEmpty() || js.stream().allMatch(j -> j.toks().stream().allMatch(t -> t.kind.equals("meminfo")))) {
        unranged.add(th);
      } else {
        String named = threadNames.get(th.getKey());
        String base = named == null ? "" : named.contains("#") ? named.substring(0, named.lastIndexOf('#')) : named;
        ranged.computeIfAbsent(base, k -> new ArrayList<>()).add(th.getKey());
      }
    }
    for (Map.Entry<String, List<Long>> g : ranged.entrySet()) {
      List<Long> tids = new ArrayList<>(g.getValue());
      java.util.Collections.sort(tids);
      List<Job> all = new ArrayList<>();
      tids.forEach(t -> all.addAll(jobs(t)));
      Inferred role = new Inferred(g.getKey(), body(all), "jobs from NVTX ranges named job, their paths merged");
      for (long tid : tids) {
        role.tids.add(tid);
        role.jobs = Math.max(role.jobs, jobs(tid).size());
      }
      roles.add(role);
    }
    List<Inferred> flat = new ArrayList<>();
    Map<Inferred, List<Tok>> flatBody = new HashMap<>();
    for (Map.Entry<Long, List<Tok>> th : unranged) {
      List<String> keys = th.getValue().stream().map(Tok::key).toList();
      Inferred role = null;
      for (Inferred r : flat) {
        if (consistent(keys, flatBody.get(r))) {
          role = r;
          break;
        }
      }
      if (role == null) {
        int p = period(keys);
        String how = "jobs from the repeating pattern (" + p + " steps)";
        List<Integer> starts = jobStarts.get(th.getKey());
        if (starts != null && starts.size() > 1) {
          p = starts.get(1) - starts.get(0);
          how = "jobs from NVTX ranges named job";
        }
        List<Tok> b = new ArrayList<>(th.getValue().subList(0, Math.min(p, keys.size())));
        List<Node> leaves = new ArrayList<>();
        for (Tok t : b) {
          leaves.add(new Leaf(t));
        }
        // a job seen only in part (the run ended in it): give back what it took, so that the design's job ends cleanly
        List<Tok> done = completed(b);
        for (Tok t : done.subList(b.size(), done.size())) {
          Leaf l = new Leaf(t);
          l.sources.add(t);
          leaves.add(l);
        }
        String named = threadNames.get(th.getKey());
        role = new Inferred(named == null ? "" : named.contains("#") ? named.substring(0, named.lastIndexOf('#')) : named, leaves, how);
        flat.add(role);
        flatBody.put(role, b);
      }
      List<Tok> b = flatBody.get(role);
      List<Tok> full = th.getValue();
      for (int i = 0; i < full.size(); i++) {
        Leaf leaf = (Leaf) role.body.get(i % b.size());
        leaf.sources.add(full.get(i));
        nodeOf.put(full.get(i), leaf);
      }
      role.tids.add(th.getKey());
      role.jobs = Math.max(role.jobs, (keys.size() + b.size() - 1) / b.size());
    }
    roles.addAll(flat);
    Map<Leaf, String> names = bufferNames(roles);
    StringBuilder sb = new StringBuilder();
    sb.append("# inferred by interlock infer from ").append(capture.source()).append(" (").append(capture.events().size())
        .append(" records, ").append(threads.size()).append(" threads)\n");
    warnings.forEach(w -> sb.append("# warning: ").append(w).append('\n'));
    sb.append("design inferred\n");
    sb.append("vram ").append(Sizes.format(vram)).append('\n');
    map.deviceBuffers().values().forEach(d -> sb.append("# allocated once by the engine, when first needed (")
        .append(d.source()).append(':').append(d.line()).append(")\nbuffer ").append(d.buffer()).append(' ')
        .append(Sizes.format(d.bytes())).append('\n'));
    Set<String> usedMutexes = new LinkedHashSet<>();
    Set<String> usedSems = new LinkedHashSet<>();
    roles.forEach(r -> leaves(r.body).forEach(l -> {
      Tok t = l.tok;
      if (t.kind.equals("lock") || t.kind.equals("unlock")) {
        usedMutexes.add(t.name);
      } else if (t.kind.equals("acquire") || t.kind.equals("release")) {
        usedSems.add(t.name);
      }
    }));
    usedMutexes.forEach(m -> sb.append("mutex ").append(m).append('\n'));
    for (String s : usedSems) {
      sb.append("# the most permits held at once in the run\n");
      sb.append("semaphore ").append(s).append(' ').append(Math.max(1, semMax.getOrDefault(s, 1L))).append('\n');
    }
    Set<String> roleNames = new LinkedHashSet<>();
    for (int i = 0; i < roles.size(); i++) {
      Inferred r = roles.get(i);
      String base = r.base.isEmpty() ? "role" + i : identifier(r.base);
      String name = base;
      for (int k = 2; !roleNames.add(name) || usedMutexes.contains(name) || usedSems.contains(name); k++) {
        name = base + "_" + k;
      }
      sb.append("# threads ").append(r.tids.stream().map(String::valueOf).reduce((a, b) -> a + " " + b).orElse(""))
          .append("; ").append(r.how).append('\n');
      sb.append("role ").append(name).append(" x").append(r.tids.size()).append(" jobs ").append(r.jobs).append('\n');
      writeNodes(sb, r.body, names);
    }
    return sb.toString();
  }

  /**
   * A role's body from its threads' jobs: the whole jobs merged into one body with branches, then each job cut short
   * checked to be the start of one of its paths (else completed with what it would give back, and merged too).
   */
  private List<Node> body(List<Job> jobs) {
    List<List<Tok>> whole = new ArrayList<>();
    List<Job> cut = new ArrayList<>();
    for (Job j : jobs) {
      if (j.cut()) {
        cut.add(j);
      } else {
        whole.add(j.toks());
      }
    }
    List<Node> body = merge(whole);
    List<List<String>> paths = new ArrayList<>();
    paths(body, List.of(), paths);
    boolean added = false;
    for (Job j : cut) {
      List<String> k = keys(j.toks());
      // a cuMemGetInfo with a step after it chose a branch by the free size it read: the threshold must hear of it
      boolean read = false;
      for (int x = 0; x + 1 < j.toks().size(); x++) {
        read |= j.toks().get(x).kind.equals("meminfo");
      }
      if (!whole.isEmpty() && !read && paths.stream().anyMatch(p -> p.size() >= k.size() && p.subList(0, k.size()).equals(k))) {
        continue;
      }
      if (!j.toks().isEmpty() && j.toks().get(j.toks().size() - 1).failed) {
        warnings.add("job " + j.number() + " of thread " + j.tid() + " (" + capture.source() + ":" + j.line()
            + ") failed at an allocation (" + capture.source() + ":" + j.toks().get(j.toks().size() - 1).line
            + ") on a path no whole job took: that path is completed with what it holds");
      }
      whole.add(completed(j.toks()));
      added = true;
    }
    if (added) {
      nodeOf.clear();
      sameBuffer.clear();
      body = merge(whole);
    }
    return body;
  }

  /** A job cut short, completed: its failed last allocation as made, then what it holds given back. */
  private List<Tok> completed(List<Tok> ts) {
    if (!ts.isEmpty()) {
      cutEnds.add(ts.get(ts.size() - 1));
    }
    List<Tok> out = new ArrayList<>();
    for (int i = 0; i < ts.size(); i++) {
      Tok t = ts.get(i);
      if (t.failed && i == ts.size() - 1) {
        Tok made = new Tok(t.kind, t.name, t.bytes, t.async, t.line);
        made.buffer = t.buffer;
        made.note = t.note;
        cutEnds.add(made);
        out.add(made);
      } else {
        out.add(t);
      }
    }
    List<Tok> rest = new ArrayList<>();
    Map<String, Integer> held = new LinkedHashMap<>();
    List<Tok> live = new ArrayList<>();
    for (Tok t : out) {
      switch (t.kind) {
        case "lock" -> held.merge("m " + t.name, 1, Integer::sum);
        case "unlock" -> held.merge("m " + t.name, -1, Integer::sum);
        case "acquire" -> held.merge("s " + t.name, t.permits, Integer::sum);
        case "release" -> held.merge("s " + t.name, -t.permits, Integer::sum);
        case "alloc" -> {
          if (!t.failed) {
            live.add(t);
          }
        }
        case "free" -> live.remove(t.allocTok);
        default -> { }
      }
    }
    java.util.Collections.reverse(live);
    for (Tok a : live) {
      Tok f = new Tok("free", null, a.bytes, a.async, 0);
      f.allocTok = a;
      rest.add(f);
    }
    List<Map.Entry<String, Integer>> hs = new ArrayList<>(held.entrySet());
    java.util.Collections.reverse(hs);
    for (Map.Entry<String, Integer> h : hs) {
      if (h.getValue() > 0) {
        String n = h.getKey().substring(2);
        if (h.getKey().startsWith("m ")) {
          rest.add(new Tok("unlock", n, 0, false, 0));
        } else {
          Tok r = new Tok("release", n, 0, false, 0);
          r.permits = h.getValue();
          rest.add(r);
        }
      }
    }
    rest.forEach(t -> t.added = true);
    out.addAll(rest);
    return out;
  }

  /** Every path of {@code nodes} as step keys, each after {@code prefix} (at most 4096 paths). */
  private static void paths(List<Node> nodes, List<String> prefix, List<List<String>> out) {
    List<List<String>> cur = new ArrayList<>(List.of(prefix));
    for (Node n : nodes) {
      List<List<String>> next = new ArrayList<>();
      for (List<String> p : cur) {
        if (n instanceof Leaf l) {
          next.add(append(p, List.of(l.tok.key())));
        } else if (n instanceof Branch b) {
          paths(b.first(), p, next);
          paths(b.second(), p, next);
        } else if (n instanceof OomAlloc o) {
          List<String> a = append(p, List.of(o.alloc().tok.key()));
          if (o.success().isEmpty()) {
            next.add(a);
          } else {
            paths(o.success(), a, next);
          }
          if (!o.ignore()) {
            paths(o.handler(), a, next);
          }
        }
      }
      cur = next.size() > 4096 ? new ArrayList<>(next.subList(0, 4096)) : next;
    }
    out.addAll(cur);
  }

  private static List<String> append(List<String> a, List<String> b) {
    List<String> out = new ArrayList<>(a);
    out.addAll(b);
    return out;
  }

  /**
   * Merges whole jobs' paths into one body: their common steps once; where they part, a branch: {@code if free} when
   * the cuMemGetInfo just before tells them apart by the free bytes it read, {@code on oom} when an allocation failed
   * in some of them, else {@code choose}; after the branch, the steps all of them end with.
   */
  private List<Node> merge(List<List<Tok>> paths) {
    List<Node> out = new ArrayList<>();
    if (paths.isEmpty()) {
      return out;
    }
    int i = 0;
    while (true) {
      final int at = i;
      // a job cut short whose observed steps are all behind: any way on fits it, so it decides nothing from here
      if (paths.stream().anyMatch(p -> !cutDone(p, at))) {
        paths = paths.stream().filter(p -> !cutDone(p, at)).toList();
      }
      boolean allEnded = paths.stream().allMatch(p -> p.size() <= at);
      if (allEnded) {
        return out;
      }
      boolean anyEnded = paths.stream().anyMatch(p -> p.size() <= at);
      String k = anyEnded ? null : paths.get(0).get(i).key();
      if (k != null && paths.stream().allMatch(p -> p.get(at).key().equals(k))) {
        if (paths.stream().anyMatch(p -> p.get(at).failed)) {
          out.addAll(failure(paths, i));
          return out;
        }
        Leaf leaf = new Leaf(paths.get(0).get(i));
        paths.forEach(p -> {
          leaf.sources.add(p.get(at));
          nodeOf.put(p.get(at), leaf);
        });
        out.add(leaf);
        i++;
        continue;
      }
      Leaf meminfo = i > 0 && out.get(out.size() - 1) instanceof Leaf l && l.tok.kind.equals("meminfo") ? l : null;
      out.addAll(branch(paths, i, meminfo));
      return out;
    }
  }

  /** Whether p is a job cut short with no observed step from i on (only the steps its completion added). */
  private boolean cutDone(List<Tok> p, int i) {
    return p.stream().anyMatch(cutEnds::contains) && p.subList(Math.min(i, p.size()), p.size()).stream().allMatch(t -> t.added);
  }

  private static String keyAt(List<Tok> p, int i) {
    return p.size() <= i ? "<end>" : p.get(i).key();
  }

  /** Where paths part at {@code i}: an {@code if free} the cuMemGetInfo before it decides, else a {@code choose}. */
  private List<Node> branch(List<List<Tok>> paths, int i, Leaf meminfo) {
    List<List<Tok>> first = new ArrayList<>();
    List<List<Tok>> second = new ArrayList<>();
    long threshold = -1;
    if (meminfo != null) {
      List<List<Tok>> sorted = new ArrayList<>(paths);
      sorted.sort(java.util.Comparator.comparingLong(p -> p.get(i - 1).free));
      for (int c = 1; c < sorted.size() && threshold < 0; c++) {
        Set<String> low = new HashSet<>();
        sorted.subList(0, c).forEach(p -> low.add(keyAt(p, i)));
        final int cc = c;
        boolean apart = sorted.subList(c, sorted.size()).stream().noneMatch(p -> low.contains(keyAt(p, i)));
        long lo = sorted.get(c - 1).get(i - 1).free;
        long hi = sorted.get(c).get(i - 1).free;
        if (apart && hi > lo) {
          threshold = roundBetween(lo, hi);
          first.addAll(sorted.subList(cc, sorted.size()));
          second.addAll(sorted.subList(0, cc));
        }
      }
      if (threshold < 0) {
        warnings.add("the jobs that read cuMemGetInfo at " + capture.source() + ":" + meminfo.tok.line
            + " part there, but no free size tells their paths apart: written as choose");
      }
    }
    if (threshold < 0) {
      String k = keyAt(paths.get(0), i);
      for (List<Tok> p : paths) {
        (keyAt(p, i).equals(k) ? first : second).add(p);
      }
      List<Tok> a = first.get(0);
      List<Tok> b = second.get(0);
      warnings.add("jobs part at " + where(a, i) + " and " + where(b, i)
          + " where neither a cuMemGetInfo nor a failed allocation decides: written as choose/or");
    }
    List<List<Tok>> all = new ArrayList<>(first);
    all.addAll(second);
    int common = commonSuffix(all, i);
    List<Node> out = new ArrayList<>();
    out.add(new Branch(threshold >= 0 ? meminfo : null, threshold, merge(middle(first, i, common)), merge(middle(second, i, common))));
    List<List<Tok>> tails = new ArrayList<>();
    all.forEach(p -> tails.add(p.subList(p.size() - common, p.size())));
    out.addAll(merge(tails));
    return out;
  }

  /**
   * A size in (lo, hi], as round as it can be, near the middle: the free sizes a run read are the device's, beside
   * other processes and a budget's slack, so a threshold far from both readings is the one a design's model agrees with.
   */
  static long roundBetween(long lo, long hi) {
    long mid = lo + (hi - lo) / 2;
    for (long unit : new long[] {1L << 30, 1L << 29, 1L << 28, 1L << 20, 1L << 10, 1}) {
      long c = Math.round((double) mid / unit) * unit;
      if (c > lo && c <= hi) {
        return c;
      }
    }
    return hi;
  }

  /** Where path p is at step i, for a message: that step's capture line, else the end of the job after its last one. */
  private String where(List<Tok> p, int i) {
    Tok last = p.isEmpty() ? null : p.get(Math.min(i, p.size() - 1));
    String at = last == null || last.line == 0 ? "an unobserved point" : capture.source() + ":" + last.line;
    return p.size() > i ? at : "the end of a job (after " + at + ")";
  }

  private static List<List<Tok>> middle(List<List<Tok>> ps, int from, int common) {
    List<List<Tok>> out = new ArrayList<>();
    ps.forEach(p -> out.add(p.subList(from, p.size() - common)));
    return out;
  }

  /** How many last steps every path (from {@code from} on) has in common. */
  private static int commonSuffix(List<List<Tok>> ps, int from) {
    int n = 0;
    while (true) {
      final int k = n;
      if (ps.stream().anyMatch(p -> p.size() - from <= k)) {
        return n;
      }
      String key = ps.get(0).get(ps.get(0).size() - 1 - k).key();
      if (!ps.stream().allMatch(p -> p.get(p.size() - 1 - k).key().equals(key))) {
        return n;
      }
      n++;
    }
  }

  /**
   * Paths that reach the same allocation at {@code i}, where it failed in some: the failure is ignored when each failed
   * job goes on as a job whose allocation succeeded, without that buffer's free (a free of the null pointer the failure
   * left, which the engine does not make); handled when it takes other steps first and then goes on as such a job (those
   * steps are the handler). Either is compared up to the next failed allocation of the job, which the merge of what
   * follows decides in turn. A failed job that does neither is left out, with a warning.
   */
  private List<Node> failure(List<List<Tok>> paths, int i) {
    // which jobs went on as if allocated, or joined after a handler, is judged against whole jobs only: a job cut short
    // and completed (completed()) shows less than a whole one after its allocation
    List<List<Tok>> failed = paths.stream().filter(p -> p.get(i).failed).toList();
    List<List<Tok>> ok = paths.stream().filter(p -> !p.get(i).failed && p.stream().noneMatch(this::completion)).toList();
    List<List<Tok>> cutOk = paths.stream().filter(p -> !p.get(i).failed && p.stream().anyMatch(this::completion)).toList();
    Leaf leaf = new Leaf(paths.get(0).get(i));
    paths.forEach(p -> {
      leaf.sources.add(p.get(i));
      nodeOf.put(p.get(i), leaf);
    });
    List<List<Tok>> tails = new ArrayList<>();
    ok.forEach(p -> tails.add(p.subList(i + 1, p.size())));
    cutOk.forEach(p -> tails.add(p.subList(i + 1, p.size())));
    // ignored: every failed job goes on as some successful one without its free of the buffer
    List<List<Tok>> ignoredTails = new ArrayList<>();
    for (List<Tok> f : failed) {
      List<Tok> rest = f.subList(i + 1, f.size());
      for (List<Tok> s : ok) {
        List<Tok> withFree = withoutFree(rest, s.subList(i + 1, s.size()), s.get(i), f.get(i));
        if (withFree != null) {
          ignoredTails.add(withFree);
          break;
        }
      }
    }
    List<Node> out = new ArrayList<>();
    long size = paths.get(0).get(i).bytes;
    if (ok.isEmpty() && cutOk.isEmpty() && failed.stream().noneMatch(f -> f.stream().anyMatch(this::completion))
        && failed.stream().noneMatch(f -> f.subList(i + 1, f.size()).stream()
            .anyMatch(t -> t.kind.equals("alloc") && t.bytes == size))) {
      // no job allocated the buffer, so none shows another path: each went on with what it did next, which is what a
      // swallowed failure looks like. A job that allocates the same size again (a retry) is not taken as one; any
      // other handler (a fallback of another size) cannot be told from the continuation, and the comment says so
      out.add(new OomAlloc(leaf, true, List.of(), List.of(), "every job failed here and went on without allocating "
          + "it again; no job allocated it, so a fallback could not be told from the failure's being ignored"));
      failed.forEach(f -> tails.add(f.subList(i + 1, f.size())));
      out.addAll(merge(tails));
      return out;
    }
    if (!ok.isEmpty() && ignoredTails.size() == failed.size()) {
      out.add(new OomAlloc(leaf, true, List.of(), List.of(), "every failed job went on as if allocated"));
      tails.addAll(ignoredTails);
      out.addAll(merge(tails));
      return out;
    }
    if (!ok.isEmpty() && failed.stream().anyMatch(f -> !f.stream().anyMatch(this::completion) && joinAt(f.subList(i + 1, f.size()), ok, i) < 0)) {
      return parted(leaf, ok, cutOk, failed, i);
    }
    List<List<Tok>> handlers = new ArrayList<>();
    for (List<Tok> f : failed) {
      List<Tok> rest = f.subList(i + 1, f.size());
      int h = -1;
      for (int at = 0; at <= rest.size() && h < 0; at++) {
        for (List<Tok> s : ok) {
          if (follows(rest.subList(at, rest.size()), s.subList(i + 1, s.size()))) {
            h = at;
            break;
          }
        }
      }
      if (h < 0 && rest.stream().anyMatch(this::completion)) {
        // a job cut short in its handler: the handler is what was seen of it. Where whole jobs went on after this
        // allocation, its allocations are the failed buffer's, so that those steps find and free it (the frees the
        // completion added stay out); where none did, nothing after the handler frees them, and the added frees stay
        boolean after = !ok.isEmpty();
        List<Tok> hs = after ? rest.stream().filter(t -> !(t.added && t.kind.equals("free"))).toList() : rest;
        for (Tok t : hs) {
          if (after && t.kind.equals("alloc") && hs.stream().noneMatch(x -> x.kind.equals("free") && x.allocTok == t)) {
            sameBuffer.add(new Tok[] {t, f.get(i)});
          }
        }
        handlers.add(hs);
      } else if (ok.isEmpty()) {
        handlers.add(List.of());
        tails.add(rest);
      } else if (h < 0) {
        warnings.add("a job's allocation failed at " + capture.source() + ":" + f.get(i).line + " and the job went on ("
            + (rest.isEmpty() ? "to its end" : "from " + capture.source() + ":" + rest.get(0).line) + ") on a path that neither"
            + " goes on as if allocated nor joins a job whose allocation succeeded: that job is left out of the body");
      } else {
        handlers.add(rest.subList(0, h));
        tails.add(rest.subList(h, rest.size()));
      }
    }
    out.add(new OomAlloc(leaf, false, merge(handlers), List.of(), "the failed jobs took other steps, then went on"));
    out.addAll(merge(tails));
    return out;
  }

  /** Where rest joins a whole job whose allocation at i succeeded (see {@link #follows}); -1 if nowhere. */
  private int joinAt(List<Tok> rest, List<List<Tok>> ok, int i) {
    for (int at = 0; at <= rest.size(); at++) {
      for (List<Tok> s : ok) {
        if (follows(rest.subList(at, rest.size()), s.subList(i + 1, s.size()))) {
          return at;
        }
      }
    }
    return -1;
  }

  /**
   * A failure after which the failed jobs take a path of their own up to the steps that every whole job ends with:
   * {@code on oom}, the failed jobs' steps, {@code else}, the successful jobs' steps (run only on success), {@code end},
   * then those last steps. Jobs cut short go wholly to their side.
   */
  private List<Node> parted(Leaf leaf, List<List<Tok>> ok, List<List<Tok>> cutOk, List<List<Tok>> failed, int i) {
    List<List<Tok>> whole = new ArrayList<>();
    ok.forEach(p -> whole.add(p.subList(i + 1, p.size())));
    failed.stream().filter(f -> f.stream().noneMatch(this::completion)).forEach(f -> whole.add(f.subList(i + 1, f.size())));
    int common = commonSuffix(whole, 0);
    List<List<Tok>> onFailure = new ArrayList<>();
    List<List<Tok>> onSuccess = new ArrayList<>();
    List<List<Tok>> tails = new ArrayList<>();
    for (List<Tok> f : failed) {
      List<Tok> rest = f.subList(i + 1, f.size());
      boolean cut = f.stream().anyMatch(this::completion);
      onFailure.add(cut ? rest : rest.subList(0, rest.size() - common));
      if (!cut) {
        tails.add(rest.subList(rest.size() - common, rest.size()));
      }
    }
    for (List<Tok> p : ok) {
      List<Tok> rest = p.subList(i + 1, p.size());
      onSuccess.add(rest.subList(0, rest.size() - common));
      tails.add(rest.subList(rest.size() - common, rest.size()));
    }
    cutOk.forEach(p -> onSuccess.add(p.subList(i + 1, p.size())));
    List<Node> out = new ArrayList<>();
    List<Node> success = merge(onSuccess);
    out.add(new OomAlloc(leaf, false, merge(onFailure), success,
        "the failed jobs took a path of their own" + (success.isEmpty() ? "" : "; else: the path of the jobs whose allocation succeeded")));
    out.addAll(merge(tails));
    return out;
  }

  /** Whether {@code t} is the end of a job cut short, or a step added to complete one. */
  private boolean completion(Tok t) {
    return t.added || cutEnds.contains(t);
  }

  /**
   * Whether {@code rest} goes on as {@code tail} does: the same steps up to the end of both, or up to a failed
   * allocation of rest where tail makes the same allocation, or a cuMemGetInfo of both (what follows is merged in turn).
   */
  private boolean follows(List<Tok> rest, List<Tok> tail) {
    boolean cut = rest.stream().anyMatch(cutEnds::contains);
    for (int j = 0; ; j++) {
      if (cut && (j == rest.size() || rest.get(j).added)) {
        return true; // a job cut short: what was seen of it goes on as tail does
      }
      if (j == rest.size() || j == tail.size()) {
        return j == rest.size() && j == tail.size();
      }
      if (!rest.get(j).key().equals(tail.get(j).key())) {
        return false;
      }
      if (rest.get(j).failed || rest.get(j).kind.equals("meminfo")) {
        return true; // what follows a failure or a reading of the free size is merged in turn (on oom, if free)
      }
    }
  }

  /**
   * {@code rest} with a free of the failed allocation {@code lost} put where {@code tail} frees its allocation
   * {@code made}, when rest goes on as tail does without that free (see {@link #follows}); else null. The free put in
   * is no observed step (line 0): the model's free of a missing buffer does nothing, and validate takes it silently.
   */
  private List<Tok> withoutFree(List<Tok> rest, List<Tok> tail, Tok made, Tok lost) {
    int at = -1;
    for (int j = 0; j < tail.size(); j++) {
      if (tail.get(j).kind.equals("free") && tail.get(j).allocTok == made) {
        at = j;
      }
    }
    if (at < 0) {
      return null;
    }
    List<Tok> t = new ArrayList<>(tail);
    t.remove(at);
    if (!follows(rest, t)) {
      return null;
    }
    List<Tok> out = new ArrayList<>(rest);
    Tok free = new Tok("free", null, lost.bytes, lost.async, 0);
    free.allocTok = lost;
    out.add(Math.min(at, out.size()), free);
    return out;
  }


  /** Every leaf of {@code nodes}, in body order. */
  private static List<Leaf> leaves(List<Node> nodes) {
    List<Leaf> out = new ArrayList<>();
    for (Node n : nodes) {
      if (n instanceof Leaf l) {
        out.add(l);
      } else if (n instanceof Branch b) {
        if (b.meminfo() != null) {
          out.add(b.meminfo());
        }
        out.addAll(leaves(b.first()));
        out.addAll(leaves(b.second()));
      } else if (n instanceof OomAlloc o) {
        out.add(o.alloc());
        out.addAll(leaves(o.handler()));
        out.addAll(leaves(o.success()));
      }
    }
    return out;
  }

  /**
   * The buffer name of each alloc: allocations freed by one free step share a name (a buffer allocated on either side
   * of a branch and freed after it), else each has its own; from the NVTX range around it, else buf1, buf2, ...
   */
  private Map<Leaf, String> bufferNames(List<Inferred> roles) {
    Map<Leaf, Leaf> parent = new java.util.IdentityHashMap<>();
    List<Leaf> allocs = new ArrayList<>();
    for (Inferred r : roles) {
      for (Leaf l : leaves(r.body)) {
        if (l.tok.kind.equals("alloc")) {
          parent.put(l, l);
          allocs.add(l);
        }
      }
      for (Leaf l : leaves(r.body)) {
        if (l.tok.kind.equals("free")) {
          Leaf first = null;
          for (Tok s : l.sources) {
            Leaf a = s.allocTok == null ? null : nodeOf.get(s.allocTok);
            if (a != null && parent.containsKey(a)) {
              if (first == null) {
                first = a;
              } else {
                parent.put(root(parent, a), root(parent, first));
              }
            }
          }
        }
      }
    }
    for (Tok[] pair : sameBuffer) {
      Leaf a = nodeOf.get(pair[0]);
      Leaf b = nodeOf.get(pair[1]);
      if (a != null && b != null && parent.containsKey(a) && parent.containsKey(b)) {
        parent.put(root(parent, a), root(parent, b));
      }
    }
    Map<Leaf, String> names = new java.util.IdentityHashMap<>();
    Map<Leaf, String> rootName = new java.util.IdentityHashMap<>();
    Set<String> taken = new HashSet<>();
    int counter = 1;
    for (Leaf a : allocs) {
      Leaf r = root(parent, a);
      String n = rootName.get(r);
      if (n == null) {
        String base = null;
        for (Leaf b : allocs) {
          if (root(parent, b) == r && b.tok.buffer != null) {
            base = b.tok.buffer;
            break;
          }
        }
        if (base == null) {
          base = "buf" + counter++;
        }
        n = base;
        for (int k = 2; taken.contains(n); k++) {
          n = base + "_" + k;
        }
        taken.add(n);
        rootName.put(r, n);
      }
      names.put(a, n);
    }
    for (Inferred r : roles) {
      for (Leaf l : leaves(r.body)) {
        if (l.tok.kind.equals("free")) {
          for (Tok s : l.sources) {
            Leaf a = s.allocTok == null ? null : nodeOf.get(s.allocTok);
            if (a != null && names.containsKey(a)) {
              names.put(l, names.get(a));
              break;
            }
          }
        }
      }
    }
    return names;
  }

  private static Leaf root(Map<Leaf, Leaf> parent, Leaf l) {
    while (parent.get(l) != l) {
      l = parent.get(l);
    }
    return l;
  }

  private void writeNodes(StringBuilder sb, List<Node> nodes, Map<Leaf, String> names) {
    for (Node n : nodes) {
      if (n instanceof Leaf l) {
        writeLeaf(sb, l, names);
      } else if (n instanceof Branch b) {
        List<Node> first = b.first();
        List<Node> second = b.second();
        if (b.meminfo() != null) {
          boolean atLeast = !first.isEmpty();
          sb.append("  if free ").append(atLeast ? ">= " : "< ").append(Sizes.format(b.threshold())).append("  # ")
              .append(capture.source()).append(':').append(b.meminfo().tok.line).append(": cuMemGetInfo; jobs that read ")
              .append(atLeast ? "at least" : "less than").append(" this took the first branch\n");
          writeNodes(sb, atLeast ? first : second, names);
          if (atLeast && !second.isEmpty()) {
            sb.append("  else\n");
            writeNodes(sb, second, names);
          }
          sb.append("  end\n");
        } else {
          sb.append("  choose  # no cuMemGetInfo or failed allocation decides which path a job takes\n");
          writeNodes(sb, first, names);
          sb.append("  or\n");
          writeNodes(sb, second, names);
          sb.append("  end\n");
        }
      } else if (n instanceof OomAlloc o) {
        writeLeaf(sb, o.alloc(), names);
        int failures = (int) o.alloc().sources.stream().filter(t -> t.failed).count();
        if (o.ignore()) {
          sb.append("  on oom ignore  # ").append(failures).append(" failed: ").append(o.why()).append('\n');
        } else {
          sb.append("  on oom  # ").append(failures).append(" failed: ").append(o.why()).append('\n');
          writeNodes(sb, o.handler(), names);
          if (!o.success().isEmpty()) {
            sb.append("  else\n");
            writeNodes(sb, o.success(), names);
          }
          sb.append("  end\n");
        }
      }
    }
  }

  private void writeLeaf(StringBuilder sb, Leaf l, Map<Leaf, String> names) {
    Tok t = l.tok;
    String text = switch (t.kind) {
      case "meminfo" -> null;
      case "alloc" -> "alloc " + names.get(l) + " " + Sizes.format(t.bytes) + (t.async ? " async" : "");
      case "free" -> names.containsKey(l) ? "free " + names.get(l) : null;
      case "acquire", "release" -> t.kind + " " + t.name + " " + t.permits;
      case "sync stream" -> "sync stream";
      default -> t.kind + (t.name == null ? "" : " " + t.name);
    };
    if (text == null) {
      return;
    }
    Tok seen = l.sources.stream().filter(s -> s.line > 0).findFirst().orElse(null);
    sb.append("  ").append(text).append("  # ");
    if (seen == null) {
      sb.append("not observed: the run ended inside this job\n");
      return;
    }
    sb.append(capture.source()).append(':').append(seen.line)
        .append(seen.note == null || !t.kind.equals("alloc") ? "" : ", " + seen.note).append('\n');
  }

  private static boolean consistent(List<String> keys, List<Tok> body) {
    for (int i = 0; i < keys.size(); i++) {
      if (!keys.get(i).equals(body.get(i % body.size()).key())) {
        return false;
      }
    }
    return true;
  }

  /** The shortest p with keys[i] == keys[i - p] for every i >= p. */
  private static int period(List<String> keys) {
    for (int p = 1; p < keys.size(); p++) {
      boolean ok = true;
      for (int i = p; i < keys.size() && ok; i++) {
        ok = keys.get(i).equals(keys.get(i - p));
      }
      if (ok) {
        return p;
      }
    }
    return keys.size();
  }
}
