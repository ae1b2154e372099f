package dev.interlock.view.timeline;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.interlock.impl.device.SimulatedDevice;
import dev.interlock.impl.engine.Engine;
import dev.interlock.impl.engine.Event;
import dev.interlock.impl.engine.LockHolds;
import dev.interlock.impl.engine.RunReport;
import dev.interlock.impl.pipeline.InterpretedPipeline;
import dev.interlock.impl.sync.StepGate;
import dev.interlock.model.TestDesigns;
import dev.interlock.model.design.Design;
import dev.interlock.model.step.Alloc;
import dev.interlock.model.step.Free;
import dev.interlock.observe.Capture;
import dev.interlock.observe.CaptureEvent;
import dev.interlock.observe.CaptureFormat;
import dev.interlock.observe.CaptureWriter;
import dev.interlock.observe.Mapping;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Timelines of captured runs: real H200 captures and synthetic ones, held against their records. */
class CaptureTimelineTest {
  private static Capture h200(String name) throws Exception {
    return CaptureFormat.read(TestDesigns.root().resolve("observe/src/test/resources/h200/" + name + ".capture"));
  }

  private static Timeline.Group group(Timeline t, String name) {
    return t.groups().stream().filter(g -> g.name().equals(name)).findFirst().orElseThrow(() -> new AssertionError("no group " + name));
  }

  private static Timeline.Track track(Timeline t, String group, String name) {
    return group(t, group).tracks().stream().filter(x -> x.name().equals(name)).findFirst()
        .orElseThrow(() -> new AssertionError("no track " + name + " in " + group(t, group).tracks().stream().map(Timeline.Track::name).toList()));
  }

  private static <T> List<T> marks(Timeline.Track track, Class<T> kind) {
    return track.marks().stream().filter(kind::isInstance).map(kind::cast).toList();
  }

  private static Timeline.Counter counter(Timeline t, String name) {
    return group(t, "device memory").counters().stream().filter(c -> c.name().equals(name)).findFirst().orElseThrow();
  }

  @Test
  void twoLockOnTheH200SlicesPerWorkerTheRealOomAndAnHonestMemoryCounter() throws Exception {
    Capture c = h200("two-lock-1");
    Timeline t = CaptureTimeline.of(c, Mapping.NONE);
    long origin = (Long) t.about().get("origin_ns");
    // one track per worker, its NVTX ranges as slices: as many as it pushed
    for (long tid : new long[] {503, 504, 505}) {
      Timeline.Track w = track(t, "threads", "gpu_worker#" + (tid - 503) + " (" + tid + ")");
      long pushes = c.events().stream().filter(e -> e.tid() == tid && e instanceof CaptureEvent.RangePush).count();
      assertThat(pushes).isPositive();
      assertThat(marks(w, Timeline.Slice.class)).as("ranges of %d", tid).hasSize((int) pushes);
      assertNests(marks(w, Timeline.Slice.class));
    }
    assertThat(track(t, "threads", "main (495)").marks()).isNotEmpty();
    // every failed allocation is an instant on its thread's track, with its rc
    List<CaptureEvent.Alloc> failed = c.events().stream().filter(e -> e instanceof CaptureEvent.Alloc a && a.rc() != 0)
        .map(CaptureEvent.Alloc.class::cast).toList();
    assertThat(failed).isNotEmpty().allMatch(CaptureEvent.Alloc::outOfMemory);
    List<String> marked = new ArrayList<>();
    for (Timeline.Track tr : group(t, "threads").tracks()) {
      for (Timeline.Instant i : marks(tr, Timeline.Instant.class)) {
        if (i.category().equals("violation")) {
          assertThat(i.name()).isEqualTo("alloc 12GiB FAILED rc=2");
          assertThat(i.args()).containsEntry("rc", 2).containsEntry("error", "CUDA_ERROR_OUT_OF_MEMORY");
          marked.add(tr.name().replaceAll(".*\\((\\d+)\\)$", "$1") + "@" + (i.at() + origin) + ":" + i.args().get("line"));
        }
      }
    }
    assertThat(marked).containsExactlyInAnyOrderElementsOf(failed.stream().map(a -> a.tid() + "@" + a.nanos() + ":" + a.line()).toList());
    assertThat(t.about()).containsEntry("failed_allocs", failed.size());
    // the counter: never negative, and at every sample the bytes of the allocations made by then and not yet freed
    Timeline.Counter live = counter(t, "live bytes");
    assertThat(live.samples()).hasSizeGreaterThan(100);
    List<long[]> lifetimes = lifetimes(c); // {start, end (Long.MAX_VALUE: never freed), bytes}
    for (Timeline.Sample s : live.samples()) {
      assertThat(s.value()).isNotNegative();
      long expected = lifetimes.stream().filter(l -> l[0] <= s.at() + origin && s.at() + origin < l[1]).mapToLong(l -> l[2]).sum();
      assertThat(s.value()).as("live bytes at %d", s.at()).isEqualTo(expected);
    }
    assertThat(t.about().get("peak_live_bytes")).isEqualTo(live.samples().stream().mapToLong(Timeline.Sample::value).max().orElseThrow());
    assertThat(counter(t, "free bytes (cuMemGetInfo)").samples()).isNotEmpty();
    // holds of the named mutexes come first, by the holding worker
    List<String> lockTracks = group(t, "locks").tracks().stream().map(Timeline.Track::name).toList();
    assertThat(lockTracks.subList(0, 3)).contains("mem_mtx", "compute_mtx");
    for (Timeline.Track l : group(t, "locks").tracks()) {
      assertNests(marks(l, Timeline.Slice.class));
    }
    assertThat(marks(track(t, "locks", "mem_mtx"), Timeline.Slice.class)).extracting(Timeline.Slice::name)
        .contains("gpu_worker#0 (503)", "gpu_worker#1 (504)", "gpu_worker#2 (505)");
    // kernels on the GPU's clock, named by their launch
    long kernels = c.events().stream().filter(e -> e instanceof CaptureEvent.KernelActivity).count();
    List<Timeline.Slice> gpu = group(t, "GPU (device clock)").tracks().stream().flatMap(x -> marks(x, Timeline.Slice.class).stream()).toList();
    assertThat(gpu).hasSize((int) kernels).allMatch(s -> !s.name().startsWith("kernel corr="));
    // and the one writer writes it: counters as "C" events of the device memory process
    JsonNode root = new ObjectMapper().readTree(ChromeTrace.json(t));
    List<JsonNode> samples = new ArrayList<>();
    root.get("traceEvents").forEach(e -> {
      if (e.get("ph").asText().equals("C") && e.get("name").asText().equals("live bytes")) {
        samples.add(e);
      }
    });
    assertThat(samples).hasSameSizeAs(live.samples()).allMatch(e -> e.get("pid").asInt() == 3);
    assertThat(root.get("otherData").get("capture").asText()).endsWith("two-lock-1.capture");
  }

  /** Each successful allocation's {start, end, bytes}, its end the free of its pointer after it (else never). */
  private static List<long[]> lifetimes(Capture c) {
    List<CaptureEvent> sorted = new ArrayList<>(c.events());
    sorted.sort(Comparator.comparingLong(CaptureEvent::nanos).thenComparingInt(CaptureEvent::line));
    List<long[]> out = new ArrayList<>();
    Map<Long, long[]> open = new HashMap<>();
    for (CaptureEvent e : sorted) {
      if (e instanceof CaptureEvent.Alloc a && a.rc() == 0) {
        long[] l = {a.nanos(), Long.MAX_VALUE, a.bytes()};
        out.add(l);
        open.put(a.ptr(), l);
      } else if (e instanceof CaptureEvent.Free f && f.rc() == 0 && open.containsKey(f.ptr())) {
        open.remove(f.ptr())[1] = f.nanos();
      }
    }
    return out;
  }

  @Test
  void synthetic() throws Exception {
    String text = String.join("\n",
        "# interlock capture v1",
        "# pid=10 program=/x clock=CLOCK_MONOTONIC start_ns=1000",
        "1100 10 name obj=sem@0x60 name=units",
        "1150 11 thread_name name=w#0",
        "1200 11 sem_wait obj=sem@0x60 rc=0",
        "1300 12 sem_wait obj=sem@0x60 rc=0",
        "1350 11 range_push name=outer domain=-",
        "1360 11 range_push name=tools domain=mine",
        "1400 11 alloc ptr=0x100 bytes=4096 async=0 stream=- rc=0 api=cuMemAlloc_v2",
        "1450 11 range_pop domain=-",
        "1500 12 alloc ptr=0x0 bytes=8192 async=0 stream=- rc=2 api=cuMemAlloc_v2",
        "1550 12 free ptr=0xdead async=0 stream=- rc=0 api=cuMemFree_v2",
        "1600 11 sem_post obj=sem@0x60",
        "1650 12 launch kernel=k stream=0x7 corr=5 rc=0",
        "1700 12 lock obj=mutex@0x80 rc=0",
        "1800 11 free ptr=0x100 async=0 stream=- rc=0 api=cuMemFree_v2",
        "1900 11 sem_post obj=sem@0x60",
        "5000 13 kernel corr=5 start_ns=1660 end_ns=1750",
        "5001 13 kernel corr=6 start_ns=1700 end_ns=1720",
        "");
    Capture c = CaptureFormat.parse("s.capture", text);
    Timeline t = CaptureTimeline.of(c, Mapping.parse("s.map", "mutex@0x80 = big\nthread 12 = w#1\n"));
    assertThat(t.about()).containsEntry("origin_ns", 1000L);
    // two threads hold the semaphore at once: two tracks; a post by a thread that holds none ends nothing
    assertThat(marks(track(t, "locks", "units"), Timeline.Slice.class)).singleElement()
        .satisfies(s -> assertThat(List.of(s.name(), s.start(), s.end())).containsExactly("w#0 (11)", 200L, 600L));
    assertThat(marks(track(t, "locks", "units #2"), Timeline.Slice.class)).singleElement()
        .satisfies(s -> assertThat(s.args()).containsEntry("unfinished", true).containsEntry("thread", "w#1 (12)"));
    // the mapping's name; never released: to the capture's end (the last kernel's end is 1750, the last record 5001)
    assertThat(marks(track(t, "locks", "big"), Timeline.Slice.class)).singleElement()
        .satisfies(s -> assertThat(List.of(s.start(), s.end())).containsExactly(700L, 4001L));
    // ranges: the default domain on the thread's track, another domain on its own, unpopped ones cut at the end
    assertThat(marks(track(t, "threads", "w#0 (11)"), Timeline.Slice.class)).singleElement()
        .satisfies(s -> assertThat(List.of(s.name(), s.start(), s.end())).containsExactly("outer", 350L, 450L));
    assertThat(marks(track(t, "threads", "w#0 (11) mine"), Timeline.Slice.class)).singleElement()
        .satisfies(s -> assertThat(s.args()).containsEntry("unfinished", true));
    // live bytes: the one allocation that succeeded, freed; the failed one and the free of an unknown pointer change nothing
    assertThat(counter(t, "live bytes").samples()).containsExactly(new Timeline.Sample(0, 0), new Timeline.Sample(400, 4096),
        new Timeline.Sample(800, 0));
    assertThat(marks(track(t, "threads", "w#1 (12)"), Timeline.Instant.class)).extracting(Timeline.Instant::name)
        .containsExactly("sem_wait units", "alloc 8KiB FAILED rc=2", "free 0xdead", "launch k", "lock big");
    assertThat(group(t, "device memory").counters()).hasSize(1); // no cuMemGetInfo, no free bytes counter
    // kernels: by their launch's stream, or on "stream unknown" without one
    assertThat(marks(track(t, "GPU (device clock)", "stream 0x7"), Timeline.Slice.class)).singleElement()
        .satisfies(s -> assertThat(List.of(s.name(), s.start(), s.end())).containsExactly("k", 660L, 750L));
    assertThat(marks(track(t, "GPU (device clock)", "stream unknown"), Timeline.Slice.class)).singleElement()
        .satisfies(s -> assertThat(s.name()).isEqualTo("kernel corr=6"));
  }

  @Test
  void startEndRangesAreSlicesOnTheStartingThreadAndMarksAreInstants() throws Exception {
    String text = String.join("\n",
        "# interlock capture v1",
        "# pid=10 program=/x clock=CLOCK_MONOTONIC start_ns=1000",
        "1100 11 range_start name=job domain=- id=1",
        "1200 12 range_start name=upload domain=eng id=2",
        "1300 11 mark name=half domain=-",
        "1400 12 range_end id=1",
        "1500 12 range_end id=9",
        "1600 11 mark name=end domain=-",
        "");
    Timeline t = CaptureTimeline.of(CaptureFormat.parse("r.capture", text), Mapping.NONE);
    // started on 11, ended on 12: a slice on 11's track, with where it ended
    assertThat(marks(track(t, "threads", "thread 11"), Timeline.Slice.class)).singleElement()
        .satisfies(s -> {
          assertThat(List.of(s.name(), s.start(), s.end())).containsExactly("job", 100L, 400L);
          assertThat(s.args()).containsEntry("end_tid", 12L).containsEntry("end_line", 6);
        });
    // never ended: to the capture's end, unfinished; on its domain's track
    assertThat(marks(track(t, "threads", "thread 12 eng"), Timeline.Slice.class)).singleElement()
        .satisfies(s -> assertThat(s.args()).containsEntry("unfinished", true));
    assertThat(marks(track(t, "threads", "thread 11"), Timeline.Instant.class)).extracting(Timeline.Instant::name)
        .containsExactly("half", "end");
    assertThat(marks(track(t, "threads", "thread 12"), Timeline.Instant.class)).extracting(Timeline.Instant::name)
        .containsExactly("range_end without a start");
  }

  @Test
  void aCaptureOfAnEngineRunHasTheEnginesHoldsAndLiveBytes() throws Exception {
    for (String name : List.of("single-lock", "two-lock", "reservation")) {
      Design d = TestDesigns.shipped(name);
      RunReport r;
      try (SimulatedDevice device = new SimulatedDevice(d.vram())) {
        r = new Engine(device, StepGate.FREE).run(d, name, InterpretedPipeline::new);
      }
      List<CaptureEvent> records = CaptureWriter.records(d, r.events(), true);
      Capture c = CaptureFormat.parse("run.capture", CaptureWriter.text(records));
      Timeline t = CaptureTimeline.of(c, Mapping.NONE);
      long origin = (Long) t.about().get("origin_ns");
      int written = (int) records.stream().filter(e -> e.nanos() > 0).count(); // the run's events the capture shows
      // CaptureWriter stops at the first failure: the engine's events up to it
      List<Event> shown = new ArrayList<>();
      for (Event e : r.events()) {
        shown.add(e);
        if (e.failure().isPresent()) {
          break;
        }
      }
      assertThat(written).isPositive();
      // holds of each lock: the engine's closed holds, and (the capture ended while held) open ones to the end
      Map<String, List<String>> expected = new HashMap<>();
      for (LockHolds.Interval i : LockHolds.intervals(shown)) {
        if (i.kind() == LockHolds.Kind.HOLD) {
          expected.computeIfAbsent(i.lock(), k -> new ArrayList<>()).add(i.thread() + " " + (1000 + i.startNanos()) + " " + (1000 + i.endNanos()));
        }
      }
      for (Map.Entry<String, List<String>> lock : expected.entrySet()) {
        List<String> got = group(t, "locks").tracks().stream().filter(x -> x.name().equals(lock.getKey()) || x.name().startsWith(lock.getKey() + " #"))
            .flatMap(x -> marks(x, Timeline.Slice.class).stream()).filter(s -> !s.args().containsKey("unfinished"))
            .map(s -> s.name().replaceAll(" \\(\\d+\\)$", "") + " " + (s.start() + origin) + " " + (s.end() + origin)).toList();
        assertThat(got).as(name + " " + lock.getKey()).containsExactlyInAnyOrderElementsOf(lock.getValue());
      }
      // live bytes after each allocation and free: the engine's used minus cached
      List<Long> engineLive = shown.stream().filter(e -> e.failure().isEmpty() && (e.step() instanceof Alloc || e.step() instanceof Free))
          .map(e -> e.used() - e.cached()).toList();
      List<Long> timelineLive = counter(t, "live bytes").samples().stream().skip(1).map(Timeline.Sample::value).toList();
      assertThat(timelineLive).as(name).isEqualTo(engineLive);
    }
  }

  /** Within a track, sorted by start, a slice that starts inside another ends inside it. */
  private static void assertNests(List<Timeline.Slice> slices) {
    List<Timeline.Slice> l = new ArrayList<>(slices);
    l.sort(Comparator.comparingLong(Timeline.Slice::start).thenComparing(Comparator.comparingLong(Timeline.Slice::end).reversed()));
    List<Timeline.Slice> stack = new ArrayList<>();
    for (Timeline.Slice s : l) {
      while (!stack.isEmpty() && stack.get(stack.size() - 1).end() <= s.start()) {
        stack.remove(stack.size() - 1);
      }
      if (!stack.isEmpty()) {
        assertThat(s.end()).as("%s inside %s", s, stack.get(stack.size() - 1)).isLessThanOrEqualTo(stack.get(stack.size() - 1).end());
      }
      stack.add(s);
    }
  }
}
