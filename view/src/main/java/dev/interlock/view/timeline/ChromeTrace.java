package dev.interlock.view.timeline;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.interlock.impl.device.KernelTiming;
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
import java.util.OptionalInt;

/**
 * A run of the engine as a Chrome trace event file (JSON object format), which ui.perfetto.dev and chrome://tracing
 * open: written from the run's own objects, so what a user sees is what the engine recorded.
 *
 * <p>Layout, one process per kind of track, each track a "thread" of it:
 * <ul>
 *   <li>{@value #THREADS} "threads": one track per engine thread (role threads and task threads, by name, numbers as
 *       numbers). A {@code cpu} or {@code kernel} step is a slice from its begin to its end, named by the interval's
 *       name (as TIMELINE lines name it); every other step is an instant event named by its text. A lock's or
 *       semaphore's wait is a slice "wait NAME" from the thread's previous event to the step that took it (as
 *       {@link LockHolds} defines it). A failed step is an instant named with " FAILED KIND", its violation in the args.
 *   <li>{@value #LOCKS} "locks": per mutex or semaphore, its holds as slices named by the holding thread; holds that
 *       overlap (a semaphore's several holders) go to further tracks "NAME #2", "NAME #3" so that no two slices of a
 *       track overlap. Holds of different locks may cross; they live on different tracks.
 *   <li>{@value #DEVICE} "device memory": counter tracks "used bytes" and "cached bytes", one sample per event, the device's
 *       bytes after it.
 *   <li>{@value #GPU} "GPU": on a device with a clock of its own, one track per stream with each kernel launch from its
 *       start to its end by the device's clock, aligned to the host's (see {@link KernelTiming}).
 * </ul>
 * Times are microseconds from the run's start (the events' clock), written with nanosecond digits.
 */
public final class ChromeTrace {
  static final int THREADS = 1;
  static final int LOCKS = 2;
  static final int DEVICE = 3;
  static final int GPU = 4;

  private static final ObjectMapper MAPPER = new ObjectMapper()
      .enable(SerializationFeature.INDENT_OUTPUT)
      .enable(JsonGenerator.Feature.WRITE_BIGDECIMAL_AS_PLAIN);

  private final RunReport report;
  private final ArrayNode out = JsonNodeFactory.instance.arrayNode();
  /** Thread ids are unique across the processes, so that no viewer merges two tracks. */
  private int lastTid;

  private ChromeTrace(RunReport report) {
    this.report = report;
  }

  /** The trace of {@code report}, with the device's {@code kernels} that started during the run. */
  public static ObjectNode of(RunReport report, List<KernelTiming> kernels) {
    ChromeTrace t = new ChromeTrace(report);
    t.threads();
    t.locks();
    t.memory();
    t.gpu(kernels);
    ObjectNode root = JsonNodeFactory.instance.objectNode();
    root.put("displayTimeUnit", "ms");
    root.set("traceEvents", t.out);
    ObjectNode other = root.putObject("otherData");
    other.put("design", report.trace().design());
    other.put("source", report.trace().source());
    other.put("vram_bytes", report.memory().capacity());
    other.put("peak_used_bytes", report.memory().peakUsed());
    other.put("seconds", report.seconds());
    return root;
  }

  /** {@link #of} as JSON text. */
  public static String json(RunReport report, List<KernelTiming> kernels) {
    try {
      return MAPPER.writeValueAsString(of(report, kernels)) + "\n";
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new IllegalStateException("cannot write a timeline", e);
    }
  }

  // ------------------------------------------------------------------------------------------------ threads

  private void threads() {
    process(THREADS, "threads");
    Map<String, Integer> tids = new LinkedHashMap<>();
    report.events().stream().map(Event::thread).distinct().sorted(ChromeTrace::byName).forEach(t -> tids.put(t, ++lastTid));
    tids.forEach((name, tid) -> thread(THREADS, tid, name));
    Map<String, Event> open = new HashMap<>();
    List<Event> events = report.events();
    long last = events.isEmpty() ? 0 : events.get(events.size() - 1).nanos();
    for (Event e : events) {
      int tid = tids.get(e.thread());
      Event begun = open.remove(e.thread());
      boolean ends = begun != null && e.phase().orElse(null) == Phase.END && e.step().equals(begun.step());
      if (begun != null) {
        ObjectNode a = interval(begun, e.nanos(), tid);
        if (ends) {
          a.put("end_seq", e.seq());
          a.put("used_bytes", e.used());
          a.put("cached_bytes", e.cached());
        } else {
          a.put("unfinished", true); // the thread stepped on without the interval's end: up to that step
        }
      }
      if (e.failure().isEmpty() && (ends || e.step() instanceof Interval && e.phase().orElse(null) == Phase.BEGIN)) {
        if (!ends) {
          open.put(e.thread(), e);
        }
        continue;
      }
      instant(e, tid);
    }
    open.values().forEach(b -> interval(b, last, tids.get(b.thread())).put("unfinished", true)); // still open at the end
    for (LockHolds.Interval w : LockHolds.intervals(events)) {
      if (w.kind() == LockHolds.Kind.WAIT) {
        slice(THREADS, tids.get(w.thread()), "wait " + w.lock(), "wait", w.startNanos(), w.endNanos()).put("lock", w.lock());
      }
    }
    report.deadlock().ifPresent(msg -> {
      ObjectNode i = event("i", THREADS, 0, "DEADLOCK", "violation", last);
      i.put("s", "g");
      i.putObject("args").put("message", msg);
    });
  }

  /** The slice of an interval step from its begin event to {@code endNanos}; its args. */
  private ObjectNode interval(Event begin, long endNanos, int tid) {
    Interval step = (Interval) begin.step();
    ObjectNode a = slice(THREADS, tid, step.name(), step instanceof Kernel ? "kernel" : "cpu", begin.nanos(), endNanos);
    a.put("step", step.text());
    a.put("job", begin.job());
    a.put("begin_seq", begin.seq());
    return a;
  }

  private void instant(Event e, int tid) {
    String name = e.step().text() + e.phase().map(p -> " (" + p.label() + ")").orElse("")
        + e.failure().map(v -> " FAILED " + v.kind()).orElse("");
    ObjectNode i = event("i", THREADS, tid, name, e.failure().isPresent() ? "violation" : "step", e.nanos());
    i.put("s", "t");
    ObjectNode a = i.putObject("args");
    a.put("seq", e.seq());
    a.put("job", e.job());
    a.put("used_bytes", e.used());
    a.put("cached_bytes", e.cached());
    e.free().ifPresent(f -> a.put("free_bytes", f));
    e.failure().ifPresent(v -> {
      a.put("violation", v.kind().name());
      a.put("message", v.message());
    });
  }

  // -------------------------------------------------------------------------------------------------- locks

  private void locks() {
    process(LOCKS, "locks");
    Map<String, List<LockHolds.Interval>> holds = new LinkedHashMap<>();
    for (LockHolds.Interval i : LockHolds.intervals(report.events())) {
      List<LockHolds.Interval> l = holds.computeIfAbsent(i.lock(), k -> new ArrayList<>()); // in the order first taken
      if (i.kind() == LockHolds.Kind.HOLD) {
        l.add(i);
      }
    }
    for (Map.Entry<String, List<LockHolds.Interval>> lock : holds.entrySet()) {
      List<List<LockHolds.Interval>> lanes = Lanes.of(lock.getValue(), LockHolds.Interval::startNanos, LockHolds.Interval::endNanos);
      for (int lane = 0; lane < Math.max(1, lanes.size()); lane++) {
        int tid = ++lastTid;
        thread(LOCKS, tid, lane == 0 ? lock.getKey() : lock.getKey() + " #" + (lane + 1));
        if (lane < lanes.size()) {
          for (LockHolds.Interval h : lanes.get(lane)) {
            ObjectNode a = slice(LOCKS, tid, h.thread(), "hold", h.startNanos(), h.endNanos());
            a.put("lock", h.lock());
            a.put("thread", h.thread());
          }
        }
      }
    }
  }

  // ------------------------------------------------------------------------------------------------- memory

  private void memory() {
    process(DEVICE, "device memory");
    for (Event e : report.events()) {
      event("C", DEVICE, 0, "used bytes", "memory", e.nanos()).putObject("args").put("bytes", e.used());
      event("C", DEVICE, 0, "cached bytes", "memory", e.nanos()).putObject("args").put("bytes", e.cached());
    }
  }

  // ---------------------------------------------------------------------------------------------------- gpu

  private void gpu(List<KernelTiming> kernels) {
    long origin = report.clockOrigin();
    Map<String, List<KernelTiming>> streams = new LinkedHashMap<>();
    for (KernelTiming k : kernels) {
      if (k.startNanos() >= origin) {
        streams.computeIfAbsent(k.stream(), s -> new ArrayList<>()).add(k);
      }
    }
    if (streams.isEmpty()) {
      return;
    }
    process(GPU, "GPU (device clock)");
    for (Map.Entry<String, List<KernelTiming>> stream : streams.entrySet()) {
      List<List<KernelTiming>> lanes = Lanes.of(stream.getValue(), KernelTiming::startNanos, KernelTiming::endNanos);
      for (int lane = 0; lane < lanes.size(); lane++) {
        int tid = ++lastTid;
        thread(GPU, tid, "stream " + stream.getKey() + (lane == 0 ? "" : " #" + (lane + 1)));
        for (KernelTiming k : lanes.get(lane)) {
          slice(GPU, tid, k.name(), "gpu", k.startNanos() - origin, k.endNanos() - origin).put("stream", k.stream());
        }
      }
    }
  }

  // ------------------------------------------------------------------------------------------------ helpers

  /** A complete event ("X") from start to end; its args, for the caller to fill. */
  private ObjectNode slice(int pid, int tid, String name, String cat, long startNanos, long endNanos) {
    ObjectNode s = event("X", pid, tid, name, cat, startNanos);
    s.put("dur", micros(endNanos - startNanos));
    return s.putObject("args");
  }

  private ObjectNode event(String ph, int pid, int tid, String name, String cat, long nanos) {
    ObjectNode e = out.addObject();
    e.put("name", name);
    e.put("cat", cat);
    e.put("ph", ph);
    e.put("ts", micros(nanos));
    e.put("pid", pid);
    e.put("tid", tid);
    return e;
  }

  private void process(int pid, String name) {
    metadata("process", pid, OptionalInt.empty(), name, pid);
  }

  private void thread(int pid, int tid, String name) {
    metadata("thread", pid, OptionalInt.of(tid), name, tid);
  }

  /** A track's name and sort index: {@code what}_name and {@code what}_sort_index records of a process or a thread. */
  private void metadata(String what, int pid, OptionalInt tid, String name, int sortIndex) {
    ObjectNode m = out.addObject();
    m.put("name", what + "_name");
    m.put("ph", "M");
    m.put("pid", pid);
    tid.ifPresent(t -> m.put("tid", t));
    m.putObject("args").put("name", name);
    ObjectNode o = out.addObject();
    o.put("name", what + "_sort_index");
    o.put("ph", "M");
    o.put("pid", pid);
    tid.ifPresent(t -> o.put("tid", t));
    o.putObject("args").put("sort_index", sortIndex);
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

  /** Nanoseconds as microseconds with all nine digits kept, written plain. */
  private static BigDecimal micros(long nanos) {
    return BigDecimal.valueOf(nanos, 3);
  }
}
