package dev.interlock.observe;

import static org.assertj.core.api.Assertions.assertThat;

import dev.interlock.impl.api.DeviceCall;
import dev.interlock.impl.device.SimulatedDevice;
import dev.interlock.impl.engine.Engine;
import dev.interlock.impl.pipeline.InterpretedPipeline;
import dev.interlock.impl.sync.JitterGate;
import dev.interlock.model.design.Design;
import dev.interlock.model.design.DesignParser;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/**
 * The engine's own device calls (on the simulated device, which logs the calls CudaDevice would make) against the
 * capture a faithful CUDA device would give of them: they match; one changed call is reported at that call.
 */
class DeviceCallMatchTest {
  private static final long SEED = 7;
  private static final int FIRST_RECORD_LINE = 3; // after the capture's two header lines

  /** The device calls of an engine run of {@code d} on the simulated device. */
  private static List<DeviceCall> engineCalls(Design d, long seed) {
    SimulatedDevice dev = new SimulatedDevice(d.vram());
    new Engine(dev, new JitterGate(seed, 30), 200).run(d, d.name() + ".design", InterpretedPipeline::new);
    List<DeviceCall> calls = dev.deviceCalls();
    assertThat(calls).as("seed %d", seed).isNotEmpty();
    return calls;
  }

  private static Capture engineSide(List<DeviceCall> calls) throws CaptureFormatException {
    return CaptureFormat.parse("engine.calls", DeviceCallFile.text(calls, 1, "interlock run"));
  }

  /**
   * What the capture library would record of a process making {@code calls}: other thread ids, pointers and streams,
   * native thread names (cut to 15 bytes; the main thread unnamed), and records that are not device calls (locks, a
   * kernel activity record after each launch) between them.
   */
  private static List<CaptureEvent> faithful(List<DeviceCall> calls) {
    List<CaptureEvent> out = new ArrayList<>();
    Map<Long, Long> tids = new HashMap<>();
    for (DeviceCall c : calls) {
      Long tid = tids.get(c.threadId());
      if (tid == null) {
        tid = 7000L + 3 * tids.size();
        tids.put(c.threadId(), tid);
        if (!c.threadName().equals("main")) {
          out.add(new CaptureEvent.ThreadName(0, c.nanos(), tid, DeviceCallMatch.nativeName(c.threadName()), tid));
        }
      }
      out.add(new CaptureEvent.Acquire(0, c.nanos(), tid, CaptureEvent.AcquireKind.LOCK, "mutex@0x77", 0));
      CaptureEvent r = DeviceCallFile.record(0, c);
      long ptr = c.ptr() == 0 ? 0 : c.ptr() ^ 0x3a0000000000L;
      String stream = c.stream() == 0 ? "-" : CaptureFormat.hex(c.stream() + 0x5500);
      if (r instanceof CaptureEvent.Alloc a) {
        r = new CaptureEvent.Alloc(0, a.nanos(), tid, ptr, a.bytes(), a.async(), stream, a.rc(), a.api() + "_v2");
      } else if (r instanceof CaptureEvent.Free f) {
        r = new CaptureEvent.Free(0, f.nanos(), tid, ptr, f.async(), stream, f.rc(), f.api() + "_v2");
      } else if (r instanceof CaptureEvent.Launch l) {
        r = new CaptureEvent.Launch(0, l.nanos(), tid, l.kernel(), stream, 900 + c.seq(), l.rc());
      } else {
        r = retid(r, tid);
      }
      out.add(r);
      if (r instanceof CaptureEvent.Launch l) {
        out.add(new CaptureEvent.KernelActivity(0, l.nanos(), tid, l.corr(), l.nanos(), l.nanos() + 10));
      }
      out.add(new CaptureEvent.Release(0, c.nanos(), tid, CaptureEvent.ReleaseKind.UNLOCK, "mutex@0x77"));
    }
    return out;
  }

  /** A record on another thread id, by writing and reading it again. */
  private static CaptureEvent retid(CaptureEvent r, long tid) {
    String line = CaptureFormat.format(r);
    String moved = r.nanos() + " " + tid + line.substring(line.indexOf(' ', line.indexOf(' ') + 1));
    return parseOne(moved);
  }

  private static CaptureEvent parseOne(String line) {
    try {
      return CaptureFormat.parse("x", CaptureFormat.header(1, "x", 0) + line + "\n").events().get(0);
    } catch (CaptureFormatException e) {
      throw new AssertionError(e);
    }
  }

  private static Capture parse(List<CaptureEvent> records) {
    try {
      return CaptureFormat.parse("run.capture", CaptureWriter.text(records));
    } catch (CaptureFormatException e) {
      throw new AssertionError(e);
    }
  }

  private static Design design(String text) throws Exception {
    return DesignParser.parse("t.design", text);
  }

  private static DeviceCallMatch.Result compare(List<DeviceCall> calls, List<CaptureEvent> capture) throws Exception {
    return DeviceCallMatch.compare(engineSide(calls), parse(capture));
  }

  /** The index in {@code records} of the n-th record (0-based) that {@code which} accepts. */
  private static int nth(List<CaptureEvent> records, java.util.function.Predicate<CaptureEvent> which, int n) {
    for (int i = 0; i < records.size(); i++) {
      if (which.test(records.get(i)) && n-- == 0) {
        return i;
      }
    }
    throw new AssertionError("no such record");
  }

  /** The engine file's line of the call the capture's record at index {@code i} of {@code faithful} stands for. */
  private static int engineLine(List<DeviceCall> calls, List<CaptureEvent> capture, int i) {
    int callIndex = (int) capture.subList(0, i).stream().filter(DeviceCallMatch::isDeviceCall).count();
    return DeviceCallFile.records(calls).stream().filter(DeviceCallMatch::isDeviceCall).toList().get(callIndex).line();
  }

  @Test
  void faithfulCapturesOfShippedDesignsMatch() throws Exception {
    for (String file : List.of("designs/single-lock.design", "designs/two-lock.design", "designs/reservation.design")) {
      Design d = Runs.design(file);
      for (long seed = 1; seed <= 3; seed++) {
        List<DeviceCall> calls = engineCalls(d, seed);
        DeviceCallMatch.Result r = compare(calls, faithful(calls));
        assertThat(r.mismatch()).as("%s seed %d", file, seed).isEmpty();
        assertThat(r.calls()).isEqualTo(calls.size());
      }
    }
  }

  @Test
  void singleLockLogsWhatCudaDeviceWould() {
    List<DeviceCall> calls = engineCalls(Runs.design("designs/single-lock.design"), SEED);
    // 3 workers x 2 jobs: alloc staged 12GiB and scratch 2GiB, one touch launch per used buffer, a sync at its end
    assertThat(calls.stream().filter(c -> c.kind() == DeviceCall.Kind.ALLOC && c.bytes() == 12L << 30)).hasSize(6);
    assertThat(calls.stream().filter(c -> c.kind() == DeviceCall.Kind.ALLOC && c.bytes() == 2L << 30)).hasSize(6);
    assertThat(calls.stream().filter(c -> c.kind() == DeviceCall.Kind.FREE)).hasSize(12);
    assertThat(calls.stream().filter(c -> c.kind() == DeviceCall.Kind.LAUNCH && c.kernel().equals("touch"))).hasSize(12);
    assertThat(calls.stream().filter(c -> c.kind() == DeviceCall.Kind.SYNC_STREAM)).hasSize(6);
    assertThat(calls.get(calls.size() - 1).kind()).isEqualTo(DeviceCall.Kind.TRIM);
    assertThat(calls.get(calls.size() - 1).threadName()).isEqualTo("main");
  }

  @Test
  void twoLockOutOfMemoryIsAnAllocationWithRc2() throws Exception {
    Design d = Runs.design("designs/two-lock.design");
    for (long seed = 1; seed <= 20; seed++) {
      List<DeviceCall> calls = engineCalls(d, seed);
      if (calls.stream().anyMatch(c -> c.kind() == DeviceCall.Kind.ALLOC && c.rc() == DeviceCall.OUT_OF_MEMORY)) {
        List<CaptureEvent> cap = faithful(calls);
        assertThat(compare(calls, cap).matches()).as("seed %d", seed).isTrue();
        int i = nth(cap, e -> e instanceof CaptureEvent.Alloc a && a.outOfMemory(), 0);
        CaptureEvent.Alloc a = (CaptureEvent.Alloc) cap.get(i);
        cap.set(i, new CaptureEvent.Alloc(0, a.nanos(), a.tid(), 0x7000, a.bytes(), a.async(), a.stream(), 0, a.api()));
        DeviceCallMatch.Mismatch m = compare(calls, cap).mismatch().orElseThrow();
        assertThat(m.captureLine()).as("seed %d", seed).isEqualTo(FIRST_RECORD_LINE + i);
        assertThat(m.message()).contains("another return code").contains("= 2");
        return;
      }
    }
    throw new AssertionError("no run of two-lock in seeds 1-20 ran out of memory");
  }

  /** Applies {@code mutate} to a faithful capture of single-lock and returns the mismatch. */
  private static DeviceCallMatch.Mismatch mismatchAfter(List<DeviceCall> calls, UnaryOperator<List<CaptureEvent>> mutate)
      throws Exception {
    List<CaptureEvent> cap = mutate.apply(new ArrayList<>(faithful(calls)));
    DeviceCallMatch.Result r = compare(calls, cap);
    assertThat(r.matches()).as("a mutated capture must not match").isFalse();
    return r.mismatch().get();
  }

  @Test
  void aChangedSizeIsReportedAtThatAllocation() throws Exception {
    List<DeviceCall> calls = engineCalls(Runs.design("designs/single-lock.design"), SEED);
    List<CaptureEvent> cap = faithful(calls);
    int i = nth(cap, e -> e instanceof CaptureEvent.Alloc, 3);
    DeviceCallMatch.Mismatch m = mismatchAfter(calls, c -> {
      CaptureEvent.Alloc a = (CaptureEvent.Alloc) c.get(i);
      c.set(i, new CaptureEvent.Alloc(0, a.nanos(), a.tid(), a.ptr(), a.bytes() + (1L << 30), a.async(), a.stream(), 0, a.api()));
      return c;
    });
    assertThat(m.captureLine()).isEqualTo(FIRST_RECORD_LINE + i);
    assertThat(m.engineLine()).isEqualTo(engineLine(calls, cap, i));
    assertThat(m.message()).contains("another size");
  }

  @Test
  void aDroppedFreeIsReportedWhereItWasMissing() throws Exception {
    List<DeviceCall> calls = engineCalls(Runs.design("designs/single-lock.design"), SEED);
    List<CaptureEvent> cap = faithful(calls);
    int i = nth(cap, e -> e instanceof CaptureEvent.Free, 0); // free scratch: free staged follows on its thread
    long tid = cap.get(i).tid();
    int next = i + 1;
    while (!(DeviceCallMatch.isDeviceCall(cap.get(next)) && cap.get(next).tid() == tid)) {
      next++;
    }
    int expectedLine = FIRST_RECORD_LINE + next - 1; // the thread's next call, one line up once the free is gone
    DeviceCallMatch.Mismatch m = mismatchAfter(calls, c -> {
      c.remove(i);
      return c;
    });
    assertThat(m.captureLine()).isEqualTo(expectedLine);
    assertThat(m.engineLine()).isEqualTo(engineLine(calls, cap, i));
    // the thread's next call is free staged, a free too: it frees another allocation than the engine's free scratch
    assertThat(m.message()).contains("the engine's cuMemFree").contains("frees");
  }

  @Test
  void aChangedReturnCodeIsReportedAtThatCall() throws Exception {
    List<DeviceCall> calls = engineCalls(Runs.design("designs/single-lock.design"), SEED);
    List<CaptureEvent> cap = faithful(calls);
    int i = nth(cap, e -> e instanceof CaptureEvent.SyncStream, 2);
    DeviceCallMatch.Mismatch m = mismatchAfter(calls, c -> {
      CaptureEvent.SyncStream s = (CaptureEvent.SyncStream) c.get(i);
      c.set(i, new CaptureEvent.SyncStream(0, s.nanos(), s.tid(), s.stream(), 700));
      return c;
    });
    assertThat(m.captureLine()).isEqualTo(FIRST_RECORD_LINE + i);
    assertThat(m.message()).contains("another return code");
  }

  @Test
  void twoCallsOfOneThreadSwappedAreReportedAtTheFirst() throws Exception {
    List<DeviceCall> calls = engineCalls(Runs.design("designs/single-lock.design"), SEED);
    List<CaptureEvent> cap = faithful(calls);
    int i = nth(cap, e -> e instanceof CaptureEvent.Alloc, 0); // alloc staged; alloc scratch is the thread's next call
    long tid = cap.get(i).tid();
    int j = i + 1;
    while (!(DeviceCallMatch.isDeviceCall(cap.get(j)) && cap.get(j).tid() == tid)) {
      j++;
    }
    int k = j;
    DeviceCallMatch.Mismatch m = mismatchAfter(calls, c -> {
      CaptureEvent a = c.get(i);
      c.set(i, c.get(k));
      c.set(k, a);
      return c;
    });
    assertThat(m.captureLine()).isEqualTo(FIRST_RECORD_LINE + i);
    assertThat(m.engineLine()).isEqualTo(engineLine(calls, cap, i));
  }

  @Test
  void aFreeOfTheWrongAllocationIsReportedAtThatFree() throws Exception {
    List<DeviceCall> calls = engineCalls(Runs.design("designs/single-lock.design"), SEED);
    List<CaptureEvent> cap = faithful(calls);
    int i = nth(cap, e -> e instanceof CaptureEvent.Free, 0);
    long tid = cap.get(i).tid();
    int j = i + 1;
    while (!(cap.get(j) instanceof CaptureEvent.Free && cap.get(j).tid() == tid)) {
      j++;
    }
    int k = j;
    DeviceCallMatch.Mismatch m = mismatchAfter(calls, c -> { // free scratch and free staged swap their pointers
      CaptureEvent.Free a = (CaptureEvent.Free) c.get(i);
      CaptureEvent.Free b = (CaptureEvent.Free) c.get(k);
      c.set(i, new CaptureEvent.Free(0, a.nanos(), a.tid(), b.ptr(), a.async(), a.stream(), 0, a.api()));
      c.set(k, new CaptureEvent.Free(0, b.nanos(), b.tid(), a.ptr(), b.async(), b.stream(), 0, b.api()));
      return c;
    });
    assertThat(m.captureLine()).isEqualTo(FIRST_RECORD_LINE + i);
    assertThat(m.message()).contains("frees its allocation at line").contains("the capture's cuMemFree_v2");
  }

  @Test
  void threadsWhoseNamesAreCutTheSamePairInTheOrderOfTheirFirstCall() throws Exception {
    Design d = design("design long-names\nvram 16GiB\nmutex m\nrole a_worker_with_a_long_name x3 jobs 2\n"
        + "  lock m\n  alloc b 4GiB\n  kernel k uses b\n  free b\n  unlock m\n");
    List<DeviceCall> calls = engineCalls(d, SEED);
    assertThat(DeviceCallMatch.nativeName("a_worker_with_a_long_name#1")).isEqualTo("a_worker_with_a");
    List<CaptureEvent> cap = faithful(calls);
    assertThat(compare(calls, cap).matches()).isTrue();
    // the workers' calls are alike, so only the pairing in order keeps a dropped launch from hiding
    int i = nth(cap, e -> e instanceof CaptureEvent.Launch, 4);
    DeviceCallMatch.Mismatch m = mismatchAfter(calls, c -> {
      c.remove(i + 1); // its kernel activity record: not a device call, ignored
      c.remove(i);
      return c;
    });
    assertThat(m.message()).contains("cuLaunchKernel(touch)");
  }

  @Test
  void aCaptureThatEndsEarlyIsReportedAtTheEnginesFirstMissingCall() throws Exception {
    List<DeviceCall> calls = engineCalls(Runs.design("designs/single-lock.design"), SEED);
    List<CaptureEvent> cap = faithful(calls);
    int last = nth(cap, e -> e instanceof CaptureEvent.Trim, 0); // the main thread's trim at the run's end
    DeviceCallMatch.Mismatch m = mismatchAfter(calls, c -> new ArrayList<>(c.subList(0, last)));
    assertThat(m.captureLine()).isZero();
    assertThat(m.engineLine()).isEqualTo(engineLine(calls, cap, last));
    assertThat(m.message()).contains("thread main").contains("cuMemPoolTrimTo").contains("has no more device calls");
  }
}
