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
 * synchronizations), cut into jobs by NVTX ranges named {@code job} or by the shortest repeating pattern, and
 * threads with the same job body grouped into one role. Every step's comment names the capture line it came from.
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
        case "free" -> "free " + bytes;
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
    boolean inner;
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
  private final Map<Long, Integer> oomAt = new HashMap<>();
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
    return new Inferrer(CaptureSteps.of(map.withoutIgnoredThreads(capture)), map).run(vram);
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
      open.forEach(f -> f.inner = true);
    }
    ts.add(t);
  }

  private void observe(CaptureEvent e) {
    long tid = e.tid();
    line = e.line();
    if (e instanceof CaptureEvent.MemInfo m && vramSeen < 0 && m.rc() == 0) {
      vramSeen = m.free() + liveBytes;
    } else if (e instanceof CaptureEvent.Acquire a && a.taken()) {
      String n = resolve(a.obj());
      if (isMutex(a) && guards.contains(n)) {
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
        if (mutexes.contains(n)) {
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
      } else if (f.launch && f.inner && onlySyncsAfter(ts, f.slot) && !oomAt.containsKey(tid)) {
        // a kernel's range that waits for it: the sync is the kernel's end, as validate maps it
        ts.subList(f.slot + 1, ts.size()).clear();
        ts.set(f.slot, new Tok("kernel", f.name, 0, false, f.line));
      } else if (!f.inner) {
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
      add(tid, t);
      if (a.outOfMemory()) {
        oomAt.putIfAbsent(tid, tokens(tid).size() - 1);
      }
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
    add(tid, t);
    if (a.outOfMemory()) {
      oomAt.putIfAbsent(tid, tokens(tid).size() - 1);
    }
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
   * A thread's jobs from its NVTX ranges named job: the tokens inside each (those outside are dropped), up to and
   * including its first real OOM, which ends its last job; empty when the thread has no job range.
   */
  private List<List<Tok>> jobs(long tid) {
    List<Integer> starts = jobStarts.getOrDefault(tid, List.of());
    List<Integer> ends = jobEnds.getOrDefault(tid, List.of());
    List<Tok> all = seq.getOrDefault(tid, List.of());
    int stop = oomAt.containsKey(tid) ? oomAt.get(tid) + 1 : all.size();
    List<List<Tok>> out = new ArrayList<>();
    for (int j = 0; j < starts.size() && starts.get(j) < stop; j++) {
      int end = Math.min(j < ends.size() ? ends.get(j) : all.size(), stop);
      out.add(all.subList(starts.get(j), end).stream().filter(t -> t != null).toList());
    }
    return out;
  }

  /** Whether the last job of {@code jobs} stops short: the run ended in it or it ran out of memory. */
  private boolean lastCut(long tid, List<List<Tok>> jobs) {
    return oomAt.containsKey(tid) || jobEnds.getOrDefault(tid, List.of()).size() < jobs.size();
  }

  /** How many whole jobs (not cut short) a thread ran. */
  private int whole(long tid) {
    List<List<Tok>> js = jobs(tid);
    return js.size() - (!js.isEmpty() && lastCut(tid, js) ? 1 : 0);
  }

  /** Whether every whole job of {@code js} is {@code body} and a last job cut short is a prefix of it. */
  private static boolean fits(List<List<Tok>> js, boolean cut, List<String> body) {
    for (int j = 0; j < js.size(); j++) {
      List<String> k = keys(js.get(j));
      boolean ok = j == js.size() - 1 && cut ? prefix(k, body) : k.equals(body);
      if (!ok) {
        return false;
      }
    }
    return true;
  }

  private static List<String> keys(List<Tok> ts) {
    return ts.stream().map(Tok::key).toList();
  }

  private static boolean prefix(List<String> a, List<String> b) {
    return a.size() <= b.size() && b.subList(0, a.size()).equals(a);
  }

  /** A role: its job body (keys and the tokens they came from), threads, and the most jobs one of them ran. */
  private static final class Inferred {
    final List<Tok> body;
    final List<Tok> full;
    final List<Long> tids = new ArrayList<>();
    int jobs = 1;
    String how;
    boolean byJobs;

    Inferred(List<Tok> body, List<Tok> full, String how) {
      this.body = body;
      this.full = full;
      this.how = how;
    }
  }

  private String write(long vram) {
    List<Map.Entry<Long, List<Tok>>> threads = new ArrayList<>();
    for (Map.Entry<Long, List<Tok>> en : seq.entrySet()) {
      List<Tok> ts = en.getValue().stream().filter(t -> t != null).toList();
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
    List<Long> ranged = new ArrayList<>();
    for (Map.Entry<Long, List<Tok>> th : threads) {
      List<List<Tok>> js = jobs(th.getKey());
      if (js.isEmpty() || js.stream().allMatch(List::isEmpty)) {
        unranged.add(th);
      } else {
        ranged.add(th.getKey());
      }
    }
    // threads with a whole job first, so that a thread cut short in its first job joins their role
    ranged.sort((x, y) -> Integer.compare(whole(y), whole(x)));
    for (long tid : ranged) {
      List<List<Tok>> js = jobs(tid);
      boolean cut = lastCut(tid, js);
      Inferred role = null;
      for (Inferred r : roles) {
        if (r.byJobs && fits(js, cut, keys(r.body))) {
          role = r;
          break;
        }
      }
      if (role == null) {
        List<Tok> body = whole(tid) > 0 ? js.get(0) : js.get(js.size() - 1);
        if (fits(js, cut, keys(body))) {
          role = new Inferred(new ArrayList<>(body), body, "jobs from NVTX ranges named job, the tokens inside them");
          role.byJobs = true;
          roles.add(role);
        } else {
          unranged.add(Map.entry(tid, seq.get(tid).stream().filter(t -> t != null).toList()));
          continue;
        }
      }
      role.tids.add(tid);
      role.jobs = Math.max(role.jobs, js.size());
    }
    for (Map.Entry<Long, List<Tok>> th : unranged) {
      List<String> keys = th.getValue().stream().map(Tok::key).toList();
      Inferred role = null;
      for (Inferred r : roles) {
        if (!r.byJobs && consistent(keys, r.body)) {
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
        role = new Inferred(new ArrayList<>(th.getValue().subList(0, Math.min(p, keys.size()))), th.getValue(), how);
        roles.add(role);
      }
      role.tids.add(th.getKey());
      role.jobs = Math.max(role.jobs, (keys.size() + role.body.size() - 1) / role.body.size());
    }
    StringBuilder sb = new StringBuilder();
    sb.append("# inferred by interlock infer from ").append(capture.source()).append(" (").append(capture.events().size())
        .append(" records, ").append(threads.size()).append(" threads)\n");
    sb.append("design inferred\n");
    sb.append("vram ").append(Sizes.format(vram)).append('\n');
    Set<String> usedMutexes = new LinkedHashSet<>();
    Set<String> usedSems = new LinkedHashSet<>();
    roles.forEach(r -> r.body.forEach(t -> {
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
      String named = threadNames.get(r.tids.get(0));
      String base = named == null ? "role" + i : identifier(named.contains("#") ? named.substring(0, named.lastIndexOf('#')) : named);
      String name = base;
      for (int k = 2; !roleNames.add(name) || usedMutexes.contains(name) || usedSems.contains(name); k++) {
        name = base + "_" + k;
      }
      sb.append("# threads ").append(r.tids.stream().map(String::valueOf).reduce((a, b) -> a + " " + b).orElse(""))
          .append("; ").append(r.how).append('\n');
      sb.append("role ").append(name).append(" x").append(r.tids.size()).append(" jobs ").append(r.jobs).append('\n');
      writeBody(sb, r);
    }
    return sb.toString();
  }

  private void writeBody(StringBuilder sb, Inferred r) {
    Map<Integer, String> names = new HashMap<>();
    Set<String> taken = new LinkedHashSet<>();
    int counter = 1;
    List<String> open = new ArrayList<>();
    List<Tok> body = r.body;
    for (int i = 0; i < body.size(); i++) {
      Tok t = body.get(i);
      String text;
      switch (t.kind) {
        case "alloc" -> {
          String base = t.buffer != null ? t.buffer : "buf" + counter++;
          String n = base;
          for (int k = 2; taken.contains(n); k++) {
            n = base + "_" + k;
          }
          taken.add(n);
          names.put(i, n);
          text = "alloc " + n + " " + Sizes.format(t.bytes) + (t.async ? " async" : "");
        }
        case "free" -> {
          int at = allocPosition(r, t);
          String n = at >= 0 ? names.get(at) : null;
          text = n == null ? null : "free " + n;
        }
        case "acquire", "release" -> text = t.kind + " " + t.name + " " + t.permits;
        case "sync stream" -> text = "sync stream";
        default -> text = t.kind + (t.name == null ? "" : " " + t.name);
      }
      if (text != null) {
        sb.append("  ").append(text).append("  # ").append(capture.source()).append(':').append(t.line)
            .append(t.note == null || !t.kind.equals("alloc") ? "" : ", " + t.note).append('\n');
        close(open, text);
      }
    }
    // a job seen only in part (the run ended in it): give back what it took, so that the design's job ends cleanly
    List<String> rest = new ArrayList<>(open);
    java.util.Collections.reverse(rest);
    for (String text : rest) {
      sb.append("  ").append(text).append("  # not observed: the run ended inside this job\n");
    }
  }

  /** Tracks what a body has taken and not given back, as the step that would give it back. */
  private static void close(List<String> open, String text) {
    String[] w = text.split(" ");
    switch (w[0]) {
      case "alloc" -> open.add("free " + w[1]);
      case "lock" -> open.add("unlock " + w[1]);
      case "acquire" -> open.add("release " + w[1] + " " + w[2]);
      case "free", "unlock", "release" -> open.remove(text);
      default -> { }
    }
  }

  /** The body position of the alloc a free frees: where its allocation was, job by job; -1 when unknown. */
  private static int allocPosition(Inferred r, Tok free) {
    if (r.byJobs) {
      return r.body.indexOf(free.allocTok);
    }
    for (int i = 0; i < r.full.size(); i++) {
      if (r.full.get(i) == free.allocTok) {
        return i % r.body.size();
      }
    }
    return -1;
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
