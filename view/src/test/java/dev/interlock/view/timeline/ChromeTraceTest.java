package dev.interlock.view.timeline;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.interlock.impl.api.KernelTiming;
import dev.interlock.impl.device.SimulatedDevice;
import dev.interlock.impl.engine.Engine;
import dev.interlock.impl.engine.Event;
import dev.interlock.impl.engine.LockHolds;
import dev.interlock.impl.engine.RunReport;
import dev.interlock.impl.engine.Scheduled;
import dev.interlock.impl.pipeline.InterpretedPipeline;
import dev.interlock.impl.sync.StepGate;
import dev.interlock.model.TestDesigns;
import dev.interlock.model.design.Design;
import dev.interlock.model.state.Phase;
import dev.interlock.model.step.Interval;
import dev.interlock.model.trace.Trace;
import dev.interlock.model.trace.TraceFormat;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The timeline of real engine runs, parsed back and held against the run's events and lock intervals. */
class ChromeTraceTest {
  /** Crossing mutexes (lock a; lock b; unlock a; unlock b), a semaphore several workers hold at once, and a task. */
  private static final String CROSSING = """
      design crossing
      vram 16GiB
      mutex a
      mutex b
      semaphore s 3
      task helper
        cpu help
        alloc h 1GiB async
        free h
      role w x3 jobs 2
        spawn helper
        cpu prep
        lock a
        lock b
        alloc x 2GiB async
        unlock a
        kernel k uses x
        unlock b
        acquire s 1
        cpu inside
        release s 1
        free x
        join helper
      """;

  private static final ObjectMapper MAPPER = new ObjectMapper().enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS);

  /** A slice as read back: track, name, args, start and end in nanoseconds. */
  private record Slice(int pid, int tid, String name, JsonNode args, long start, long end) {}

  @Test
  void aFreeRunsTimelineNestsAndAgreesWithItsEvents() throws Exception {
    Design d = TestDesigns.parse(CROSSING);
    try (SimulatedDevice device = new SimulatedDevice(d.vram())) {
      RunReport r = new Engine(device, StepGate.FREE).run(d, "crossing", InterpretedPipeline::new);
      assertThat(r.failed()).isZero();
      checkAgainstEvents(r, read(r));
    }
  }

  @Test
  void aRoundRobinScheduleSplitsTheSemaphoresOverlappingHoldsAndKeepsCrossingHoldsOnTheirOwnTracks() throws Exception {
    Design d = TestDesigns.parse(CROSSING);
    int[] next = {0};
    try (SimulatedDevice device = new SimulatedDevice(d.vram())) {
      RunReport r = Scheduled.random(d, "crossing", device, InterpretedPipeline::new, n -> next[0]++ % n).report();
      JsonNode root = read(r);
      checkAgainstEvents(r, root);
      List<LockHolds.Interval> holds = LockHolds.intervals(r.events()).stream().filter(i -> i.kind() == LockHolds.Kind.HOLD).toList();
      int depth = maxOverlap(holds.stream().filter(i -> i.lock().equals("s")).toList());
      assertThat(depth).as("round robin lets several workers hold s at once").isGreaterThan(1);
      Map<Integer, String> lockTracks = trackNames(root, RunTimeline.LOCKS);
      List<String> sTracks = lockTracks.values().stream().filter(n -> n.equals("s") || n.startsWith("s #")).toList();
      assertThat(sTracks).hasSize(depth); // first fit in start order needs exactly as many tracks as the most holds at once
      assertThat(lockTracks.values()).contains("a", "b");
      // on one thread, a's hold and b's hold cross: each is on its own lock's track
      boolean crossed = false;
      for (LockHolds.Interval ha : holds) {
        for (LockHolds.Interval hb : holds) {
          crossed |= ha.lock().equals("a") && hb.lock().equals("b") && ha.thread().equals(hb.thread())
              && ha.startNanos() < hb.startNanos() && hb.startNanos() < ha.endNanos() && ha.endNanos() < hb.endNanos();
        }
      }
      assertThat(crossed).isTrue();
    }
  }

  @Test
  void aFailedStepIsAnInstantWithItsViolation() throws Exception {
    Trace t = TraceFormat.read(TestDesigns.root().resolve("traces/two-lock.oom.trace"));
    Design d = t.params().applyTo(TestDesigns.shipped("two-lock"));
    try (SimulatedDevice device = new SimulatedDevice(d.vram())) {
      RunReport r = Scheduled.replay(d, t.source(), t, device, InterpretedPipeline::new).report();
      JsonNode root = read(r);
      checkAgainstEvents(r, root);
      Event failed = r.events().stream().filter(e -> e.failure().isPresent()).findFirst().orElseThrow();
      List<JsonNode> marks = new ArrayList<>();
      root.get("traceEvents").forEach(e -> {
        if (e.get("ph").asText().equals("i") && e.get("cat").asText().equals("violation")) {
          marks.add(e);
        }
      });
      assertThat(marks).hasSize(1);
      JsonNode mark = marks.get(0);
      assertThat(mark.get("name").asText()).isEqualTo("alloc staged 12GiB FAILED OOM");
      assertThat(mark.get("args").get("violation").asText()).isEqualTo("OOM");
      assertThat(nanos(mark.get("ts"))).isEqualTo(failed.nanos());
      assertThat(trackNames(root, RunTimeline.THREADS).get(mark.get("tid").asInt())).isEqualTo(failed.thread());
    }
  }

  @Test
  void kernelTimingsOfTheRunAreSlicesOnOneTrackPerStream() throws Exception {
    Design d = TestDesigns.parse(CROSSING);
    try (SimulatedDevice device = new SimulatedDevice(d.vram())) {
      RunReport r = new Engine(device, StepGate.FREE).run(d, "crossing", InterpretedPipeline::new);
      long o = r.clockOrigin();
      List<KernelTiming> k = List.of(
          new KernelTiming("w#0", "before the run", o - 5_000, o - 1_000),
          new KernelTiming("w#0", "k", o + 1_000, o + 3_000),
          new KernelTiming("w#1", "k", o + 2_000, o + 4_000),
          new KernelTiming("w#0", "k", o + 2_999, o + 5_000)); // aligned times that overlap: a second track
      JsonNode root = MAPPER.readTree(ChromeTrace.json(r, k));
      assertThat(trackNames(root, RunTimeline.GPU).values()).containsExactly("stream w#0", "stream w#0 #2", "stream w#1");
      List<Slice> gpu = slices(root).stream().filter(s -> s.pid() == RunTimeline.GPU).toList();
      assertThat(gpu).extracting(Slice::start).containsExactlyInAnyOrder(1_000L, 2_000L, 2_999L);
      assertNests(slices(root));
    }
  }

  @Test
  void aRunWithoutKernelTimingsHasNoGpuProcess() throws Exception {
    Design d = TestDesigns.parse(CROSSING);
    try (SimulatedDevice device = new SimulatedDevice(d.vram())) {
      RunReport r = new Engine(device, StepGate.FREE).run(d, "crossing", InterpretedPipeline::new);
      assertThat(device.kernelTimings()).isEmpty();
      assertThat(trackNames(read(r), RunTimeline.GPU)).isEmpty();
      assertThat(read(r).get("displayTimeUnit").asText()).isEqualTo("ms");
    }
  }

  @Test
  void threadTracksComeByNameWithNumbersAsNumbersAndTasksUnderTheirThread() {
    List<String> names = new ArrayList<>(List.of("w#10", "w#1/helper#2", "", "w#2", "w#1", "v#3"));
    names.sort(RunTimeline::byName);
    assertThat(names).containsExactly("", "v#3", "w#1", "w#1/helper#2", "w#2", "w#10");
  }

  // ------------------------------------------------------------------------------------------------ checks

  private static JsonNode read(RunReport r) throws Exception {
    return MAPPER.readTree(ChromeTrace.json(r, List.of()));
  }

  private static void checkAgainstEvents(RunReport r, JsonNode root) {
    List<Event> events = r.events();
    assertThat(events).isNotEmpty();
    List<Slice> slices = slices(root);
    assertNests(slices);

    // thread tracks: one per engine thread, named by it
    Map<Integer, String> threads = trackNames(root, RunTimeline.THREADS);
    assertThat(new HashSet<>(threads.values())).isEqualTo(new HashSet<>(events.stream().map(Event::thread).toList()));
    assertThat(threads).hasSameSizeAs(new HashSet<>(threads.values()));
    root.get("traceEvents").forEach(e -> {
      if (e.get("pid").asInt() == RunTimeline.THREADS && !e.get("ph").asText().equals("M") && e.get("tid").asInt() != 0) {
        assertThat(threads).containsKey(e.get("tid").asInt());
      }
    });

    // the counter: one sample per event, the device's bytes after it
    for (String counter : List.of("used bytes", "cached bytes")) {
      List<long[]> samples = new ArrayList<>();
      root.get("traceEvents").forEach(e -> {
        if (e.get("ph").asText().equals("C") && e.get("name").asText().equals(counter)) {
          samples.add(new long[] {nanos(e.get("ts")), e.get("args").get("bytes").asLong()});
        }
      });
      assertThat(samples).as(counter).hasSize(events.size());
      for (int i = 0; i < events.size(); i++) {
        Event e = events.get(i);
        assertThat(samples.get(i)[0]).as(counter + " at event " + e.seq()).isEqualTo(e.nanos());
        assertThat(samples.get(i)[1]).as(counter + " at event " + e.seq()).isEqualTo(counter.startsWith("used") ? e.used() : e.cached());
      }
    }

    // lock holds and waits: LockHolds' intervals, one slice each
    List<String> expectedHolds = new ArrayList<>();
    List<String> expectedWaits = new ArrayList<>();
    for (LockHolds.Interval i : LockHolds.intervals(events)) {
      String key = i.lock() + " " + i.thread() + " " + i.startNanos() + " " + i.endNanos();
      (i.kind() == LockHolds.Kind.HOLD ? expectedHolds : expectedWaits).add(key);
    }
    assertThat(expectedHolds).isNotEmpty();
    Map<Integer, String> lockTracks = trackNames(root, RunTimeline.LOCKS);
    List<String> holds = new ArrayList<>();
    List<String> waits = new ArrayList<>();
    for (Slice s : slices) {
      if (s.pid() == RunTimeline.LOCKS) {
        String lock = s.args().get("lock").asText();
        assertThat(lockTracks.get(s.tid())).matches(java.util.regex.Pattern.quote(lock) + "( #\\d+)?");
        assertThat(s.name()).isEqualTo(s.args().get("thread").asText());
        holds.add(lock + " " + s.name() + " " + s.start() + " " + s.end());
      } else if (s.pid() == RunTimeline.THREADS && s.name().startsWith("wait ")) {
        waits.add(s.name().substring(5) + " " + threads.get(s.tid()) + " " + s.start() + " " + s.end());
      }
    }
    assertThat(holds).containsExactlyInAnyOrderElementsOf(expectedHolds);
    assertThat(waits).containsExactlyInAnyOrderElementsOf(expectedWaits);

    // every interval step that began is a slice from its begin to its end on its thread's track
    Map<String, Event> open = new HashMap<>();
    List<String> expectedIntervals = new ArrayList<>();
    for (Event e : events) {
      if (e.step() instanceof Interval iv && e.failure().isEmpty() && e.phase().isPresent()) {
        if (e.phase().get() == Phase.BEGIN) {
          open.put(e.thread(), e);
        } else {
          Event b = open.remove(e.thread());
          expectedIntervals.add(e.thread() + " " + iv.name() + " " + b.nanos() + " " + e.nanos());
        }
      }
    }
    List<String> intervals = slices.stream()
        .filter(s -> s.pid() == RunTimeline.THREADS && !s.name().startsWith("wait "))
        .map(s -> threads.get(s.tid()) + " " + s.name() + " " + s.start() + " " + s.end()).toList();
    if (open.isEmpty()) {
      assertThat(intervals).containsExactlyInAnyOrderElementsOf(expectedIntervals);
    } else {
      assertThat(intervals).containsAll(expectedIntervals).hasSize(expectedIntervals.size() + open.size());
    }
  }

  /** Within every track, sorted by start, a slice that starts inside another ends inside it. */
  private static void assertNests(List<Slice> slices) {
    Map<List<Integer>, List<Slice>> tracks = new HashMap<>();
    slices.forEach(s -> tracks.computeIfAbsent(List.of(s.pid(), s.tid()), k -> new ArrayList<>()).add(s));
    tracks.forEach((track, l) -> {
      l.sort(Comparator.comparingLong(Slice::start).thenComparing(Comparator.comparingLong(Slice::end).reversed()));
      List<Slice> stack = new ArrayList<>();
      for (Slice s : l) {
        assertThat(s.end()).isGreaterThanOrEqualTo(s.start());
        while (!stack.isEmpty() && stack.get(stack.size() - 1).end() <= s.start()) {
          stack.remove(stack.size() - 1);
        }
        if (!stack.isEmpty()) {
          Slice outer = stack.get(stack.size() - 1);
          assertThat(s.end()).as("track %s: %s inside %s", track, s, outer).isLessThanOrEqualTo(outer.end());
        }
        stack.add(s);
      }
    });
  }

  private static int maxOverlap(List<LockHolds.Interval> holds) {
    int best = 0;
    for (LockHolds.Interval h : holds) {
      int at = (int) holds.stream().filter(o -> o.startNanos() <= h.startNanos() && h.startNanos() < o.endNanos()).count();
      best = Math.max(best, at);
    }
    return best;
  }

  private static List<Slice> slices(JsonNode root) {
    List<Slice> out = new ArrayList<>();
    root.get("traceEvents").forEach(e -> {
      if (e.get("ph").asText().equals("X")) {
        long start = nanos(e.get("ts"));
        out.add(new Slice(e.get("pid").asInt(), e.get("tid").asInt(), e.get("name").asText(), e.get("args"), start,
            start + nanos(e.get("dur"))));
      }
    });
    return out;
  }

  /** Track names of one process by thread id, in thread id order. */
  private static Map<Integer, String> trackNames(JsonNode root, int pid) {
    Map<Integer, String> names = new java.util.TreeMap<>();
    Set<Integer> seen = new HashSet<>();
    root.get("traceEvents").forEach(e -> {
      if (e.get("ph").asText().equals("M") && e.get("name").asText().equals("thread_name") && e.get("pid").asInt() == pid) {
        assertThat(seen.add(e.get("tid").asInt())).as("one name per track").isTrue();
        names.put(e.get("tid").asInt(), e.get("args").get("name").asText());
      }
    });
    return names;
  }

  private static long nanos(JsonNode micros) {
    return micros.decimalValue().movePointRight(3).longValueExact();
  }
}
