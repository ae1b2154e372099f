package dev.interlock.view.timeline;

import dev.interlock.impl.api.KernelTiming;
import dev.interlock.impl.engine.Event;
import dev.interlock.impl.engine.LockHolds;
import dev.interlock.impl.engine.RunReport;
import dev.interlock.model.state.Phase;
import dev.interlock.model.step.Interval;
import dev.interlock.model.step.Kernel;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A run of the engine as a {@link Timeline}, built from the run's own objects, so what a user sees is what the engine
 * recorded. Groups, in this order (their Chrome trace pids):
 * <ul>
 *   <li>{@value #THREADS} "threads": one track per engine thread (role threads and task threads, by name, numbers as
 *       numbers). A {@code cpu} or {@code kernel} step is a slice from its begin to its end, named by the interval's
 *       name (as TIMELINE lines name it); every other step is an instant named by its text. A lock's or semaphore's
 *       wait is a slice "wait NAME" from the thread's previous event to the step that took it (as {@link LockHolds}
 *       defines it). A failed step is an instant named with " FAILED KIND", its violation in the args.
 *   <li>{@value #LOCKS} "locks": per mutex or semaphore, its holds as slices named by the holding thread; holds that
 *       overlap (a semaphore's several holders) go to further tracks "NAME #2", "NAME #3". Holds of different locks
 *       may cross; they live on different tracks.
 *   <li>{@value #DEVICE} "device memory": counters "used bytes" and "cached bytes", one sample per event, the device's
 *       bytes after it.
 *   <li>{@value #GPU} "GPU (device clock)": on a device with a clock of its own, one track per stream with each kernel
 *       launch from its start to its end by the device's clock, aligned to the host's (see {@link KernelTiming}).
 * </ul>
 * Times are from the run's start (the events' clock).
 */
public final class RunTimeline {
  static final int THREADS = 1;
  static final int LOCKS = 2;
  static final int DEVICE = 3;
  static final int GPU = 4;

  private final RunReport report;

  private RunTimeline(RunReport report) {
    this.report = report;
  }

  /** The timeline of {@code report}, with the device's {@code kernels} that started during the run. */
  public static Timeline of(RunReport report, List<KernelTiming> kernels) {
    RunTimeline t = new RunTimeline(report);
    List<Timeline.Group> groups = new ArrayList<>(List.of(t.threads(), t.locks(), t.memory()));
    t.gpu(kernels).ifPresent(groups::add);
    Map<String, Object> about = new LinkedHashMap<>();
    about.put("design", report.trace().design());
    about.put("source", report.trace().source());
    about.put("vram_bytes", report.memory().capacity());
    about.put("peak_used_bytes", report.memory().peakUsed());
    about.put("seconds", report.seconds());
    return new Timeline(groups, about);
  }

  // ------------------------------------------------------------------------------------------------ threads

  private Timeline.Group threads() {
    Map<String, List<Timeline.Mark>> tracks = new LinkedHashMap<>();
    report.events().stream().map(Event::thread).distinct().sorted(RunTimeline::byName).forEach(t -> tracks.put(t, new ArrayList<>()));
    Map<String, Event> open = new HashMap<>();
    List<Event> events = report.events();
    long last = events.isEmpty() ? 0 : events.get(events.size() - 1).nanos();
    for (Event e : events) {
      List<Timeline.Mark> track = tracks.get(e.thread());
      Event begun = open.remove(e.thread());
      boolean ends = begun != null && e.phase().orElse(null) == Phase.END && e.step().equals(begun.step());
      if (begun != null) {
        Map<String, Object> a = intervalArgs(begun);
        if (ends) {
          a.put("end_seq", e.seq());
          a.put("used_bytes", e.used());
          a.put("cached_bytes", e.cached());
        } else {
          a.put("unfinished", true); // the thread stepped on without the interval's end: up to that step
        }
        track.add(interval(begun, e.nanos(), a));
      }
      if (e.failure().isEmpty() && (ends || e.step() instanceof Interval && e.phase().orElse(null) == Phase.BEGIN)) {
        if (!ends) {
          open.put(e.thread(), e);
        }
        continue;
      }
      track.add(instant(e));
    }
    open.values().forEach(b -> { // still open at the end
      Map<String, Object> a = intervalArgs(b);
      a.put("unfinished", true);
      tracks.get(b.thread()).add(interval(b, last, a));
    });
    for (LockHolds.Interval w : LockHolds.intervals(events)) {
      if (w.kind() == LockHolds.Kind.WAIT) {
        tracks.get(w.thread()).add(new Timeline.Slice("wait " + w.lock(), "wait", w.startNanos(), w.endNanos(), Map.of("lock", w.lock())));
      }
    }
    List<Timeline.Instant> global = report.deadlock()
        .map(msg -> List.of(new Timeline.Instant("DEADLOCK", "violation", last, Map.of("message", msg)))).orElse(List.of());
    List<Timeline.Track> list = new ArrayList<>();
    tracks.forEach((name, marks) -> list.add(new Timeline.Track(name, marks)));
    return new Timeline.Group("threads", list, global, List.of());
  }

  /** The args of an interval step's slice that begins at {@code begin}: the step, its job and the begin's number. */
  private static Map<String, Object> intervalArgs(Event begin) {
    Map<String, Object> a = new LinkedHashMap<>();
    a.put("step", begin.step().text());
    a.put("job", begin.job());
    a.put("begin_seq", begin.seq());
    return a;
  }

  private static Timeline.Slice interval(Event begin, long endNanos, Map<String, Object> args) {
    Interval step = (Interval) begin.step();
    return new Timeline.Slice(step.name(), step instanceof Kernel ? "kernel" : "cpu", begin.nanos(), endNanos, args);
  }

  private static Timeline.Instant instant(Event e) {
    String name = e.step().text() + e.phase().map(p -> " (" + p.label() + ")").orElse("")
        + e.failure().map(v -> " FAILED " + v.kind()).orElse("");
    Map<String, Object> a = new LinkedHashMap<>();
    a.put("seq", e.seq());
    a.put("job", e.job());
    a.put("used_bytes", e.used());
    a.put("cached_bytes", e.cached());
    e.free().ifPresent(f -> a.put("free_bytes", f));
    e.failure().ifPresent(v -> {
      a.put("violation", v.kind().name());
      a.put("message", v.message());
    });
    return new Timeline.Instant(name, e.failure().isPresent() ? "violation" : "step", e.nanos(), a);
  }

  // -------------------------------------------------------------------------------------------------- locks

  private Timeline.Group locks() {
    Map<String, List<LockHolds.Interval>> holds = new LinkedHashMap<>();
    for (LockHolds.Interval i : LockHolds.intervals(report.events())) {
      List<LockHolds.Interval> l = holds.computeIfAbsent(i.lock(), k -> new ArrayList<>()); // in the order first taken
      if (i.kind() == LockHolds.Kind.HOLD) {
        l.add(i);
      }
    }
    List<Timeline.Track> tracks = new ArrayList<>();
    for (Map.Entry<String, List<LockHolds.Interval>> lock : holds.entrySet()) {
      List<List<LockHolds.Interval>> lanes = Lanes.of(lock.getValue(), LockHolds.Interval::startNanos, LockHolds.Interval::endNanos);
      for (int lane = 0; lane < Math.max(1, lanes.size()); lane++) {
        List<Timeline.Mark> marks = new ArrayList<>();
        if (lane < lanes.size()) {
          for (LockHolds.Interval h : lanes.get(lane)) {
            Map<String, Object> a = new LinkedHashMap<>();
            a.put("lock", h.lock());
            a.put("thread", h.thread());
            marks.add(new Timeline.Slice(h.thread(), "hold", h.startNanos(), h.endNanos(), a));
          }
        }
        tracks.add(new Timeline.Track(Lanes.name(lock.getKey(), lane), marks));
      }
    }
    return new Timeline.Group("locks", tracks, List.of(), List.of());
  }

  // ------------------------------------------------------------------------------------------------- memory

  private Timeline.Group memory() {
    List<Timeline.Sample> used = new ArrayList<>();
    List<Timeline.Sample> cached = new ArrayList<>();
    for (Event e : report.events()) {
      used.add(new Timeline.Sample(e.nanos(), e.used()));
      cached.add(new Timeline.Sample(e.nanos(), e.cached()));
    }
    return new Timeline.Group("device memory", List.of(), List.of(), List.of(
        new Timeline.Counter("used bytes", "memory", "bytes", used), new Timeline.Counter("cached bytes", "memory", "bytes", cached)));
  }

  // ---------------------------------------------------------------------------------------------------- gpu

  private java.util.Optional<Timeline.Group> gpu(List<KernelTiming> kernels) {
    long origin = report.clockOrigin();
    Map<String, List<KernelTiming>> streams = new LinkedHashMap<>();
    for (KernelTiming k : kernels) {
      if (k.startNanos() >= origin) {
        streams.computeIfAbsent(k.stream(), s -> new ArrayList<>()).add(k);
      }
    }
    if (streams.isEmpty()) {
      return java.util.Optional.empty();
    }
    List<Timeline.Track> tracks = new ArrayList<>();
    for (Map.Entry<String, List<KernelTiming>> stream : streams.entrySet()) {
      List<List<KernelTiming>> lanes = Lanes.of(stream.getValue(), KernelTiming::startNanos, KernelTiming::endNanos);
      for (int lane = 0; lane < lanes.size(); lane++) {
        List<Timeline.Mark> marks = new ArrayList<>();
        for (KernelTiming k : lanes.get(lane)) {
          marks.add(new Timeline.Slice(k.name(), "gpu", k.startNanos() - origin, k.endNanos() - origin, Map.of("stream", k.stream())));
        }
        tracks.add(new Timeline.Track(Lanes.name("stream " + stream.getKey(), lane), marks));
      }
    }
    return java.util.Optional.of(new Timeline.Group("GPU (device clock)", tracks, List.of(), List.of()));
  }

  /**
   * Thread names in reading order: numbers compared as numbers (gpu_worker#2 before gpu_worker#10), so that role
   * threads come in index order and a task thread, whose name extends its thread's, right under it.
   */
  static int byName(String a, String b) {
    String[] x = a.split("(?<=\\D)(?=\\d)|(?<=\\d)(?=\\D)");
    String[] y = b.split("(?<=\\D)(?=\\d)|(?<=\\d)(?=\\D)");
    for (int i = 0; i < Math.min(x.length, y.length); i++) {
      boolean numbers = !x[i].isEmpty() && !y[i].isEmpty() && Character.isDigit(x[i].charAt(0)) && Character.isDigit(y[i].charAt(0));
      int c = numbers ? new BigDecimal(x[i]).compareTo(new BigDecimal(y[i])) : x[i].compareTo(y[i]);
      if (c != 0) {
        return c;
      }
    }
    return Integer.compare(x.length, y.length);
  }
}
