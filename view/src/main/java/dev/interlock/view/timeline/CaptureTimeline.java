package dev.interlock.view.timeline;

import dev.interlock.model.design.Sizes;
import dev.interlock.observe.Capture;
import dev.interlock.observe.CaptureEvent;
import dev.interlock.observe.CaptureFormat;
import dev.interlock.observe.CaptureNames;
import dev.interlock.observe.Mapping;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A captured run (docs/capture-format.md) as a {@link Timeline}, on the capture's own clock, read from its records
 * alone (no design). Groups, in this order:
 * <ul>
 *   <li>"threads": one track per OS thread, named by the mapping file or its thread_name record, with its id. NVTX
 *       ranges are slices (a domain other than the default one on a track of its own, "THREAD DOMAIN", since ranges
 *       of two domains need not nest); every other call is an instant: locks and unlocks, allocations (a failed one
 *       named "FAILED rc=N", category {@code violation}), frees, synchronizations, launches, cuMemGetInfo, trims.
 *   <li>"locks": per mutex, semaphore or NVTX sync object that was taken, its holds as slices named by the holding
 *       thread, from the call that took it (recorded when it returned) to the one that gave it back (recorded before
 *       the call); a thread's hold runs from its first permit to its last one given back, as the engine's timeline
 *       counts them. Objects named through NVTX or the mapping file come first, under that name. Holds that overlap
 *       go to further tracks "NAME #2", ...; a hold or range still open when the capture ends runs to its end and is
 *       marked {@code unfinished}.
 *   <li>"device memory": counter "live bytes": the bytes of the allocations that succeeded and were not yet freed, as
 *       the program's calls see them (a pool's cache is not counted); and, when the run called cuMemGetInfo, counter
 *       "free bytes (cuMemGetInfo)" with what it returned.
 *   <li>"GPU (device clock)": one track per stream, each kernel from its start to its end as CUPTI's activity records
 *       give them (aligned to the host clock by the capture library), named by its launch.
 * </ul>
 * Time 0 is the capture's start ({@code start_ns}), or its earliest time if a record lies before it.
 */
public final class CaptureTimeline {
  private final Capture capture;
  private final CaptureNames names;
  private final long origin;
  private final long end;
  private final Map<Long, String> trackNames = new HashMap<>();
  private final Map<String, List<Timeline.Mark>> threadTracks = new HashMap<>();

  private CaptureTimeline(Capture capture, Mapping map) {
    this.capture = capture;
    this.names = CaptureNames.of(capture, map);
    long first = capture.startNs();
    long last = capture.startNs();
    for (CaptureEvent e : capture.events()) {
      first = Math.min(first, e.nanos());
      last = Math.max(last, e.nanos());
      if (e instanceof CaptureEvent.KernelActivity k) {
        first = Math.min(first, k.startNs());
        last = Math.max(last, k.endNs());
      }
    }
    this.origin = first;
    this.end = last;
  }

  /** The timeline of {@code capture}, with the names of {@code map} ({@link Mapping#NONE}: the capture's own). */
  public static Timeline of(Capture capture, Mapping map) {
    return new CaptureTimeline(capture, map).build();
  }

  private Timeline build() {
    List<CaptureEvent> events = new ArrayList<>(capture.events());
    events.sort(Comparator.comparingLong(CaptureEvent::nanos).thenComparingInt(CaptureEvent::line)); // file order per thread
    Walk walk = new Walk();
    events.forEach(e -> e.accept(walk));
    walk.finish();
    List<Timeline.Group> groups = new ArrayList<>();
    groups.add(new Timeline.Group("threads", threadTracks(), List.of(), List.of()));
    groups.add(new Timeline.Group("locks", walk.lockTracks(), List.of(), List.of()));
    List<Timeline.Counter> counters = new ArrayList<>();
    counters.add(new Timeline.Counter("live bytes", "memory", "bytes", walk.live));
    if (!walk.free.isEmpty()) {
      counters.add(new Timeline.Counter("free bytes (cuMemGetInfo)", "memory", "bytes", walk.free));
    }
    groups.add(new Timeline.Group("device memory", List.of(), List.of(), counters));
    List<Timeline.Track> gpu = walk.gpuTracks();
    if (!gpu.isEmpty()) {
      groups.add(new Timeline.Group("GPU (device clock)", gpu, List.of(), List.of()));
    }
    Map<String, Object> about = new LinkedHashMap<>();
    about.put("capture", capture.source());
    about.put("program", capture.program());
    about.put("pid", capture.pid());
    about.put("origin_ns", origin);
    about.put("records", capture.events().size());
    about.put("peak_live_bytes", walk.peak);
    about.put("failed_allocs", walk.failedAllocs);
    return new Timeline(groups, about);
  }

  /** The name of an OS thread's track: its name and id, or {@code thread TID}. */
  private String trackName(long tid) {
    return trackNames.computeIfAbsent(tid, t -> names.thread(t).map(n -> n + " (" + t + ")").orElse("thread " + t));
  }

  /** The marks of the track of {@code tid}'s records ({@code domain} null) or of its ranges in another NVTX domain. */
  private List<Timeline.Mark> track(long tid, String domain) {
    String name = trackName(tid) + (domain == null || domain.equals("-") ? "" : " " + domain);
    return threadTracks.computeIfAbsent(name, k -> new ArrayList<>());
  }

  private List<Timeline.Track> threadTracks() {
    List<Timeline.Track> tracks = new ArrayList<>();
    threadTracks.keySet().stream().sorted(RunTimeline::byName).forEach(n -> tracks.add(new Timeline.Track(n, threadTracks.get(n))));
    return tracks;
  }

  private long at(long nanos) {
    return nanos - origin;
  }

  private void instant(CaptureEvent e, String name, String category, Map<String, Object> args) {
    Map<String, Object> a = new LinkedHashMap<>();
    a.put("line", e.line());
    a.putAll(args);
    track(e.tid(), null).add(new Timeline.Instant(name, category, at(e.nanos()), a));
  }

  /** An open NVTX range or hold: where it began. */
  private record Open(CaptureEvent begin, String name) {}

  /** A lock's hold, before it is put on a lane. */
  private record Hold(String thread, long tid, String obj, long start, long end, int beginLine, int endLine) {}

  /** One pass over the records in time order. */
  private final class Walk implements CaptureEvent.Visitor<Void> {
    private final Map<Long, Map<String, Deque<Open>>> ranges = new HashMap<>();
    private final Map<Long, CaptureEvent.RangeStart> started = new LinkedHashMap<>(); // start/end ranges by id
    private final Map<String, Map<Long, Integer>> permits = new HashMap<>();
    private final Map<String, Map<Long, Open>> holding = new HashMap<>();
    private final Map<String, List<Hold>> holds = new LinkedHashMap<>(); // in the order first taken
    private final Map<Long, Long> liveAllocs = new HashMap<>();
    private final Map<Long, CaptureEvent.Launch> launches = new HashMap<>();
    private final List<CaptureEvent.KernelActivity> kernels = new ArrayList<>();
    final List<Timeline.Sample> live = new ArrayList<>(List.of(new Timeline.Sample(0, 0)));
    final List<Timeline.Sample> free = new ArrayList<>();
    long liveBytes;
    long peak;
    int failedAllocs;

    public Void threadStart(CaptureEvent.ThreadStart e) {
      instant(e, "thread_start " + e.child() + rc(e.rc()), "thread", Map.of("child", e.child(), "rc", e.rc()));
      return null;
    }

    public Void threadJoin(CaptureEvent.ThreadJoin e) {
      instant(e, "thread_join " + e.child() + rc(e.rc()), "thread", Map.of("child", e.child(), "rc", e.rc()));
      return null;
    }

    public Void threadName(CaptureEvent.ThreadName e) {
      return null; // names the track
    }

    public Void acquire(CaptureEvent.Acquire e) {
      String name = names.object(e.obj());
      instant(e, e.kind().event() + " " + name + rc(e.rc()), "lock", args("lock", name, "obj", e.obj(), "rc", e.rc()));
      if (e.taken() && permits.computeIfAbsent(e.obj(), k -> new HashMap<>()).merge(e.tid(), 1, Integer::sum) == 1) {
        holding.computeIfAbsent(e.obj(), k -> new HashMap<>()).put(e.tid(), new Open(e, name));
        holds.computeIfAbsent(e.obj(), k -> new ArrayList<>());
      }
      return null;
    }

    public Void release(CaptureEvent.Release e) {
      String name = names.object(e.obj());
      instant(e, e.kind().event() + " " + name, "lock", args("lock", name, "obj", e.obj()));
      Map<Long, Integer> mine = permits.getOrDefault(e.obj(), Map.of());
      Integer n = mine.get(e.tid());
      if (n != null && n > 0) { // a post by a thread that took nothing (a semaphore used as a signal) ends no hold
        mine.put(e.tid(), n - 1);
        if (n == 1) {
          Open o = holding.get(e.obj()).remove(e.tid());
          holds.get(e.obj()).add(new Hold(trackName(e.tid()), e.tid(), e.obj(), at(o.begin().nanos()), at(e.nanos()),
              o.begin().line(), e.line()));
        }
      }
      return null;
    }

    public Void name(CaptureEvent.Name e) {
      return null; // names the object
    }

    public Void rangePush(CaptureEvent.RangePush e) {
      ranges.computeIfAbsent(e.tid(), k -> new HashMap<>()).computeIfAbsent(e.domain(), k -> new ArrayDeque<>())
          .push(new Open(e, e.name()));
      return null;
    }

    public Void rangePop(CaptureEvent.RangePop e) {
      Deque<Open> stack = ranges.getOrDefault(e.tid(), Map.of()).get(e.domain());
      if (stack == null || stack.isEmpty()) {
        instant(e, "range_pop without a push", "nvtx", Map.of("domain", e.domain()));
      } else {
        range(stack.pop(), e.nanos(), e.line());
      }
      return null;
    }

    /** The slice of an NVTX range from its push to {@code endNanos} (the pop's line, or 0: still open at the end). */
    private void range(Open o, long endNanos, int endLine) {
      CaptureEvent.RangePush p = (CaptureEvent.RangePush) o.begin();
      Map<String, Object> a = args("domain", p.domain(), "push_line", p.line());
      if (endLine > 0) {
        a.put("pop_line", endLine);
      } else {
        a.put("unfinished", true);
      }
      track(p.tid(), p.domain()).add(new Timeline.Slice(p.name(), "nvtx", at(p.nanos()), at(endNanos), a));
    }

    public Void rangeStart(CaptureEvent.RangeStart e) {
      started.put(e.id(), e);
      return null;
    }

    public Void rangeEnd(CaptureEvent.RangeEnd e) {
      CaptureEvent.RangeStart s = started.remove(e.id());
      if (s == null) {
        instant(e, "range_end without a start", "nvtx", Map.of("id", e.id()));
      } else {
        startEnd(s, e);
      }
      return null;
    }

    /** The slice of a start/end range on the track of the thread that started it; {@code end} null: still open. */
    private void startEnd(CaptureEvent.RangeStart s, CaptureEvent.RangeEnd e) {
      Map<String, Object> a = args("domain", s.domain(), "id", s.id(), "start_line", s.line());
      if (e != null) {
        a.put("end_line", e.line());
        a.put("end_tid", e.tid());
      } else {
        a.put("unfinished", true);
      }
      track(s.tid(), s.domain()).add(new Timeline.Slice(s.name(), "nvtx", at(s.nanos()), at(e != null ? e.nanos() : end), a));
    }

    public Void mark(CaptureEvent.Mark e) {
      instant(e, e.name(), "nvtx", Map.of("domain", e.domain()));
      return null;
    }

    public Void alloc(CaptureEvent.Alloc e) {
      Map<String, Object> a = args("bytes", e.bytes(), "ptr", CaptureFormat.hex(e.ptr()), "async", e.async(),
          "stream", e.stream(), "rc", e.rc(), "api", e.api());
      if (e.rc() == 0) {
        Long before = liveAllocs.put(e.ptr(), e.bytes());
        liveBytes += e.bytes() - (before == null ? 0 : before); // a pointer handed out twice without a free is counted once
        peak = Math.max(peak, liveBytes);
        live.add(new Timeline.Sample(at(e.nanos()), liveBytes));
      } else {
        failedAllocs++;
        a.put("error", e.outOfMemory() ? "CUDA_ERROR_OUT_OF_MEMORY" : "CUresult " + e.rc());
      }
      a.put("live_bytes", liveBytes);
      instant(e, "alloc " + Sizes.format(e.bytes()) + (e.rc() == 0 ? "" : " FAILED rc=" + e.rc()),
          e.rc() == 0 ? "memory" : "violation", a);
      return null;
    }

    public Void free(CaptureEvent.Free e) {
      Long bytes = e.rc() == 0 ? liveAllocs.remove(e.ptr()) : null;
      if (bytes != null) {
        liveBytes -= bytes;
        live.add(new Timeline.Sample(at(e.nanos()), liveBytes));
      }
      Map<String, Object> a = args("ptr", CaptureFormat.hex(e.ptr()), "async", e.async(), "stream", e.stream(), "rc", e.rc(),
          "api", e.api());
      if (bytes != null) {
        a.put("bytes", bytes);
      }
      a.put("live_bytes", liveBytes);
      instant(e, "free " + (bytes != null ? Sizes.format(bytes) : CaptureFormat.hex(e.ptr())) + rc(e.rc()), "memory", a);
      return null;
    }

    public Void trim(CaptureEvent.Trim e) {
      instant(e, "trim keep " + Sizes.format(e.keep()) + rc(e.rc()), "memory",
          args("pool", CaptureFormat.hex(e.pool()), "keep_bytes", e.keep(), "rc", e.rc()));
      return null;
    }

    public Void poolThreshold(CaptureEvent.PoolThreshold e) {
      instant(e, "pool threshold " + Sizes.format(e.bytes()) + rc(e.rc()), "memory",
          args("pool", CaptureFormat.hex(e.pool()), "bytes", e.bytes(), "rc", e.rc()));
      return null;
    }

    public Void memInfo(CaptureEvent.MemInfo e) {
      instant(e, "cuMemGetInfo free " + Sizes.format(e.free()) + rc(e.rc()), "memory",
          args("free_bytes", e.free(), "total_bytes", e.total(), "rc", e.rc()));
      if (e.rc() == 0) {
        free.add(new Timeline.Sample(at(e.nanos()), e.free()));
      }
      return null;
    }

    public Void sync(CaptureEvent.Sync e) {
      instant(e, e.api() + rc(e.rc()), "sync", args("rc", e.rc(), "api", e.api()));
      return null;
    }

    public Void syncStream(CaptureEvent.SyncStream e) {
      instant(e, "sync stream " + e.stream() + rc(e.rc()), "sync", args("stream", e.stream(), "rc", e.rc()));
      return null;
    }

    public Void launch(CaptureEvent.Launch e) {
      launches.put(e.corr(), e);
      instant(e, "launch " + e.kernel() + rc(e.rc()), "launch", args("kernel", e.kernel(), "stream", e.stream(), "corr", e.corr(), "rc", e.rc()));
      return null;
    }

    public Void kernelActivity(CaptureEvent.KernelActivity e) {
      kernels.add(e);
      return null;
    }

    /** Closes what is still open at the capture's end: ranges and holds run to it, marked unfinished. */
    void finish() {
      ranges.values().forEach(domains -> domains.values().forEach(stack -> {
        while (!stack.isEmpty()) {
          range(stack.pop(), end, 0);
        }
      }));
      started.values().forEach(s -> startEnd(s, null));
      holding.forEach((obj, open) -> open.forEach((tid, o) ->
          holds.get(obj).add(new Hold(trackName(tid), tid, obj, at(o.begin().nanos()), at(end), o.begin().line(), 0))));
    }

    List<Timeline.Track> lockTracks() {
      List<String> objects = new ArrayList<>(holds.keySet());
      objects.sort(Comparator.comparing((String o) -> !names.named(o))); // stable: named first, each in order first taken
      List<Timeline.Track> tracks = new ArrayList<>();
      for (String obj : objects) {
        String name = names.object(obj);
        List<List<Hold>> lanes = Lanes.of(holds.get(obj), Hold::start, Hold::end);
        for (int lane = 0; lane < lanes.size(); lane++) {
          List<Timeline.Mark> marks = new ArrayList<>();
          for (Hold h : lanes.get(lane)) {
            Map<String, Object> a = args("lock", name, "obj", obj, "thread", h.thread(), "tid", h.tid(), "take_line", h.beginLine());
            if (h.endLine() > 0) {
              a.put("give_line", h.endLine());
            } else {
              a.put("unfinished", true);
            }
            marks.add(new Timeline.Slice(h.thread(), "hold", h.start(), h.end(), a));
          }
          tracks.add(new Timeline.Track(Lanes.name(name, lane), marks));
        }
      }
      return tracks;
    }

    List<Timeline.Track> gpuTracks() {
      Map<String, List<CaptureEvent.KernelActivity>> streams = new TreeMap<>();
      for (CaptureEvent.KernelActivity k : kernels) {
        CaptureEvent.Launch l = launches.get(k.corr());
        streams.computeIfAbsent(l == null ? "unknown" : l.stream(), s -> new ArrayList<>()).add(k);
      }
      List<Timeline.Track> tracks = new ArrayList<>();
      streams.forEach((stream, ks) -> {
        List<List<CaptureEvent.KernelActivity>> lanes = Lanes.of(ks, CaptureEvent.KernelActivity::startNs, CaptureEvent.KernelActivity::endNs);
        for (int lane = 0; lane < lanes.size(); lane++) {
          List<Timeline.Mark> marks = new ArrayList<>();
          for (CaptureEvent.KernelActivity k : lanes.get(lane)) {
            CaptureEvent.Launch l = launches.get(k.corr());
            Map<String, Object> a = args("corr", k.corr(), "stream", stream, "line", k.line());
            if (l != null) {
              a.put("launch_line", l.line());
              a.put("thread", trackName(l.tid()));
            }
            marks.add(new Timeline.Slice(l == null ? "kernel corr=" + k.corr() : l.kernel(), "gpu", at(k.startNs()), at(k.endNs()), a));
          }
          tracks.add(new Timeline.Track(Lanes.name("stream " + stream, lane), marks));
        }
      });
      return tracks;
    }
  }

  /** " rc=N" for a call that did not return 0. */
  private static String rc(int rc) {
    return rc == 0 ? "" : " rc=" + rc;
  }

  /** An ordered, modifiable map of key, value pairs. */
  private static Map<String, Object> args(Object... kv) {
    Map<String, Object> m = new LinkedHashMap<>();
    for (int i = 0; i < kv.length; i += 2) {
      m.put((String) kv[i], kv[i + 1]);
    }
    return m;
  }
}
