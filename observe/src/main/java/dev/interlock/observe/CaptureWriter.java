package dev.interlock.observe;

import dev.interlock.impl.engine.Event;
import dev.interlock.model.design.Design;
import dev.interlock.model.state.Phase;
import dev.interlock.model.step.Acquire;
import dev.interlock.model.step.Alloc;
import dev.interlock.model.step.Free;
import dev.interlock.model.step.IfFree;
import dev.interlock.model.step.Kernel;
import dev.interlock.model.step.Lock;
import dev.interlock.model.step.Release;
import dev.interlock.model.step.Step;
import dev.interlock.model.step.Sync;
import dev.interlock.model.step.SyncStream;
import dev.interlock.model.step.Trim;
import dev.interlock.model.step.Unlock;
import dev.interlock.model.step.Interval;
import dev.interlock.model.step.Cpu;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Writes an engine run as the capture library would have recorded it (docs/capture-format.md): named mutexes and
 * semaphores, NVTX ranges for cpu and kernel intervals, allocations and frees with sizes and pointers.
 *
 * <p>It stands in for a native engine in tests that have no GPU: the run's events up to its first failure, which
 * is written as the failed call (an OOM as {@code rc=2}) and ends the capture, as a crash would.
 */
public final class CaptureWriter {
  private static final long TID_BASE = 4000;
  private static final long MAIN_TID = 3999;

  private final Design design;
  private final boolean nameThreads;
  private final List<CaptureEvent> out = new ArrayList<>();
  private final Map<String, Long> tids = new HashMap<>();
  private final Map<String, Long> livePtr = new HashMap<>();
  private long nextPtr = 0x7f0000000000L;
  private long corr = 1;
  private int line = 3;

  private final boolean jobRanges;
  /** Per thread, the job whose NVTX range {@code job} is open. */
  private final Map<String, Integer> openJob = new HashMap<>();
  /** Buffers (thread/job/buffer) whose allocation failed into an {@code on oom}: a free of one is a free of null, not recorded. */
  private final java.util.Set<String> missing = new java.util.HashSet<>();

  private CaptureWriter(Design design, boolean nameThreads, boolean jobRanges) {
    this.design = design;
    this.nameThreads = nameThreads;
    this.jobRanges = jobRanges;
  }

  /** The records of an engine run of {@code design}; {@code nameThreads} adds a thread_name per thread. */
  public static List<CaptureEvent> records(Design design, List<Event> events, boolean nameThreads) {
    return records(design, events, nameThreads, false);
  }

  /**
   * As {@link #records(Design, List, boolean)}; {@code jobRanges} puts each job of a thread in an NVTX range named
   * {@code job}, as the test engine does (what {@code infer} cuts jobs by). An allocation that failed into its
   * {@code on oom} (phase oom) is written as the failed call and the run goes on; the free of its buffer is then a free of
   * a null pointer, which the engine does not make.
   */
  public static List<CaptureEvent> records(Design design, List<Event> events, boolean nameThreads, boolean jobRanges) {
    CaptureWriter w = new CaptureWriter(design, nameThreads, jobRanges);
    w.start();
    boolean ended = false;
    for (Event e : events) {
      if (!w.add(e)) {
        ended = true;
        break;
      }
    }
    if (!ended && jobRanges) {
      long ns = events.isEmpty() ? 1000 : 1001 + events.get(events.size() - 1).nanos();
      w.openJob.keySet().stream().sorted().forEach(t -> w.out.add(new CaptureEvent.RangePop(w.line++, ns, w.tid(t), "-")));
    }
    return w.out;
  }

  /** The capture file text of a list of records. */
  public static String text(List<CaptureEvent> records) {
    StringBuilder sb = new StringBuilder(CaptureFormat.header(1, "/synthetic/engine", 0));
    for (CaptureEvent e : records) {
      sb.append(CaptureFormat.format(e)).append('\n');
    }
    return sb.toString();
  }

  /** The object address of design mutex or semaphore {@code name}. */
  public static String object(Design design, String name) {
    int m = design.mutexIndex(name);
    return m >= 0 ? "mutex@" + CaptureFormat.hex(0x5000 + 0x40L * m) : "sem@" + CaptureFormat.hex(0x6000 + 0x40L * design.semaphoreIndex(name));
  }

  private void start() {
    out.add(new CaptureEvent.MemInfo(line++, 0, MAIN_TID, design.vram() - design.residentBytes(), design.vram(), 0));
    for (String m : design.mutexes()) {
      out.add(new CaptureEvent.Name(line++, 0, MAIN_TID, object(design, m), m));
    }
    design.semaphores().forEach(s -> out.add(new CaptureEvent.Name(line++, 0, MAIN_TID, object(design, s.name()), s.name())));
  }

  private long tid(String thread) {
    Long t = tids.get(thread);
    if (t == null) {
      t = TID_BASE + tids.size();
      tids.put(thread, t);
      out.add(new CaptureEvent.ThreadStart(line++, 0, MAIN_TID, t, 0));
      if (nameThreads) {
        out.add(new CaptureEvent.ThreadName(line++, 0, t, thread, t));
      }
    }
    return t;
  }

  /** Writes one engine event; false when it failed and the capture ends there. */
  private boolean add(Event e) {
    long tid = tid(e.thread());
    long ns = 1000 + e.nanos();
    Step s = e.step();
    String key = e.thread() + "/" + e.job() + "/";
    // an ignored failure (SWALLOWED_OOM) is recorded with its transition, and the job goes on
    boolean failed = e.failure().isPresent() && e.failure().get().kind() != dev.interlock.model.state.ViolationKind.SWALLOWED_OOM;
    if (jobRanges && !Integer.valueOf(e.job()).equals(openJob.get(e.thread()))) {
      if (openJob.containsKey(e.thread())) {
        out.add(new CaptureEvent.RangePop(line++, ns, tid, "-"));
      }
      out.add(new CaptureEvent.RangePush(line++, ns, tid, "job", "-"));
      openJob.put(e.thread(), e.job());
    }
    boolean handled = e.phase().orElse(null) == Phase.OOM;
    if (s instanceof Lock l) {
      out.add(new CaptureEvent.Acquire(line++, ns, tid, CaptureEvent.AcquireKind.LOCK, object(design, l.mutex()), 0));
    } else if (s instanceof Unlock u) {
      out.add(new CaptureEvent.Release(line++, ns, tid, CaptureEvent.ReleaseKind.UNLOCK, object(design, u.mutex())));
    } else if (s instanceof Acquire a) {
      for (int i = 0; i < a.permits(); i++) {
        out.add(new CaptureEvent.Acquire(line++, ns, tid, CaptureEvent.AcquireKind.SEM_WAIT, object(design, a.semaphore()), 0));
      }
    } else if (s instanceof Release r) {
      for (int i = 0; i < r.permits(); i++) {
        out.add(new CaptureEvent.Release(line++, ns, tid, CaptureEvent.ReleaseKind.SEM_POST, object(design, r.semaphore())));
      }
    } else if (s instanceof Alloc a) {
      String k = a.keep() ? e.thread() + "/keep/" + a.buffer() : key + a.buffer();
      if (a.keep() && livePtr.containsKey(k) && !failed) {
        return true;
      }
      boolean oom = failed || handled;
      long ptr = oom ? 0 : nextPtr;
      nextPtr += Math.max(0x1000, a.bytes());
      out.add(new CaptureEvent.Alloc(line++, ns, tid, ptr, a.bytes(), a.async(), a.async() ? CaptureFormat.hex(tid) : "-",
          oom ? CaptureEvent.Alloc.OUT_OF_MEMORY : 0, a.async() ? "cuMemAllocAsync" : "cuMemAlloc_v2"));
      if (!oom) {
        livePtr.put(k, ptr);
        missing.remove(k);
      } else if (handled) {
        missing.add(k);
      }
    } else if (s instanceof Free f && (missing.remove(key + f.buffer()) || missing.remove(e.thread() + "/keep/" + f.buffer()))) {
      return true; // a free of the null pointer a failed allocation left: the engine makes no call
    } else if (s instanceof Free f) {
      Long ptr = livePtr.remove(key + f.buffer());
      if (ptr == null) {
        ptr = livePtr.remove(e.thread() + "/keep/" + f.buffer());
      }
      boolean async = design.roles().stream().anyMatch(r -> asyncBuffer(r.body(), f.buffer()));
      out.add(new CaptureEvent.Free(line++, ns, tid, ptr == null ? 0xdead0000L : ptr, async, async ? CaptureFormat.hex(tid) : "-",
          0, async ? "cuMemFreeAsync" : "cuMemFree_v2"));
    } else if (s instanceof Trim) {
      out.add(new CaptureEvent.Trim(line++, ns, tid, 0x9000, 0, 0));
    } else if (s instanceof Sync) {
      out.add(new CaptureEvent.Sync(line++, ns, tid, 0, "cuCtxSynchronize"));
    } else if (s instanceof SyncStream) {
      out.add(new CaptureEvent.SyncStream(line++, ns, tid, CaptureFormat.hex(tid), 0));
    } else if (s instanceof IfFree) {
      long free = e.free().orElse(0L);
      out.add(new CaptureEvent.MemInfo(line++, ns, tid, free, design.vram(), 0));
    } else if (s instanceof Interval i) {
      String name = i instanceof Kernel k ? k.name() : ((Cpu) i).name();
      if (e.phase().orElse(Phase.BEGIN) == Phase.BEGIN) {
        out.add(new CaptureEvent.RangePush(line++, ns, tid, name, "-"));
        if (i instanceof Kernel) {
          out.add(new CaptureEvent.Launch(line++, ns, tid, name + "_kernel", CaptureFormat.hex(tid), corr++, 0));
        }
      } else {
        out.add(new CaptureEvent.RangePop(line++, ns, tid, "-"));
      }
    }
    return !failed;
  }

  private static boolean asyncBuffer(List<Step> body, String buffer) {
    return dev.interlock.model.step.Steps.flatten(body).stream()
        .anyMatch(s -> s instanceof Alloc a && a.buffer().equals(buffer) && a.async());
  }
}
