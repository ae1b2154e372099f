package dev.interlock.observe;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Folds each thread that its creator started and then at once joined into the creator: the creator did nothing in
 * between but wait, so the child's records are the creator's own work, done on another OS thread.
 *
 * <p>Engines do this to run a device's part of a job on a thread of its own: cuzk's prover starts one thread per GPU
 * under its lock and joins them before it unlocks. A design writes that work in the worker's body (the worker waits
 * for it), so validate and infer see it there. The rule is strict: the creator's next record after {@code
 * thread_start child=C} (rc 0) must be {@code thread_join child=C}, so that the child ran alone in that window; a
 * child joined later (cuzk's prep_msm thread, which runs beside the locked section) stays a thread of its own. The
 * folded child's records keep their lines and times and take the creator's tid; its start, join and name records
 * are dropped (its name would rename the creator). Only the child's records between the start and the join move (a
 * thread id the kernel hands out again later is another thread). Folding is transitive: a folded child's own folded
 * children go to the same creator.
 *
 * <p>Captures written before the capture library made a child wait for its thread_start record can hold the child's
 * first records before that record: they fold too when they follow the creator's previous record and are no older
 * than the child's start time.
 */
final class ForkJoinFolding {
  private ForkJoinFolding() {}

  /** The events with every folded child's records on its creator's thread. */
  static List<CaptureEvent> fold(List<CaptureEvent> events) {
    Map<Long, List<Window>> windows = foldedChildren(events);
    if (windows.isEmpty()) {
      return events;
    }
    List<CaptureEvent> out = new ArrayList<>(events.size());
    for (int i = 0; i < events.size(); i++) {
      CaptureEvent e = events.get(i);
      int at = i;
      if (e instanceof CaptureEvent.ThreadStart s && windows.getOrDefault(s.child(), List.of()).stream().anyMatch(w -> w.start() == at)
          || e instanceof CaptureEvent.ThreadJoin j && windows.getOrDefault(j.child(), List.of()).stream().anyMatch(w -> w.join() == at)
          || e instanceof CaptureEvent.ThreadName n && windowOf(windows, n.named(), i, e.nanos()) != null) {
        continue;
      }
      long to = e.tid();
      for (Window w = windowOf(windows, to, i, e.nanos()); w != null; w = windowOf(windows, to, i, e.nanos())) {
        to = w.creator(); // transitively: a folded child's own folded child goes to the same creator
      }
      out.add(to == e.tid() ? e : e.accept(new Retid(to)));
    }
    return out;
  }

  /**
   * The creator's start and join of a folded child: the child's records between them are the creator's, and so are
   * those between the creator's previous record ({@code after}, -1 if none) and the start that are no older than the
   * child's start ({@code startNanos}).
   */
  private record Window(long creator, int after, int start, long startNanos, int join) {}

  /** The window of thread {@code tid} that holds record index {@code at} (of time {@code nanos}), if any. */
  private static Window windowOf(Map<Long, List<Window>> windows, long tid, int at, long nanos) {
    for (Window w : windows.getOrDefault(tid, List.of())) {
      if (at > w.start() && at < w.join() || at > w.after() && at < w.start() && nanos >= w.startNanos()) {
        return w;
      }
    }
    return null;
  }

  /**
   * child -> its windows, for the children whose creator's next record after starting them is their join (only the
   * records between the two are folded: a thread id the kernel gives again later is another thread).
   */
  private static Map<Long, List<Window>> foldedChildren(List<CaptureEvent> events) {
    Map<Long, Integer> pending = new HashMap<>(); // creator -> index of its last record, if a start
    Map<Long, Integer> before = new HashMap<>(); // creator -> index of its record before that start
    Map<Long, Integer> last = new HashMap<>(); // thread -> index of its last record so far
    Map<Long, List<Window>> windows = new HashMap<>();
    for (int i = 0; i < events.size(); i++) {
      CaptureEvent e = events.get(i);
      Integer startAt = pending.remove(e.tid());
      if (startAt != null && e instanceof CaptureEvent.ThreadJoin j && j.rc() == 0
          && j.child() == ((CaptureEvent.ThreadStart) events.get(startAt)).child()) {
        windows.computeIfAbsent(j.child(), k -> new ArrayList<>())
            .add(new Window(j.tid(), before.get(j.tid()), startAt, events.get(startAt).nanos(), i));
      }
      if (e instanceof CaptureEvent.ThreadStart s && s.rc() == 0) {
        pending.put(s.tid(), i);
        before.put(s.tid(), last.getOrDefault(s.tid(), -1));
      }
      last.put(e.tid(), i);
    }
    return windows;
  }

  /** The same record on another thread. */
  private record Retid(long tid) implements CaptureEvent.Visitor<CaptureEvent> {
    public CaptureEvent threadStart(CaptureEvent.ThreadStart e) {
      return new CaptureEvent.ThreadStart(e.line(), e.nanos(), tid, e.child(), e.rc());
    }

    public CaptureEvent threadJoin(CaptureEvent.ThreadJoin e) {
      return new CaptureEvent.ThreadJoin(e.line(), e.nanos(), tid, e.child(), e.rc());
    }

    public CaptureEvent threadName(CaptureEvent.ThreadName e) {
      return new CaptureEvent.ThreadName(e.line(), e.nanos(), tid, e.name(), e.named());
    }

    public CaptureEvent acquire(CaptureEvent.Acquire e) {
      return new CaptureEvent.Acquire(e.line(), e.nanos(), tid, e.kind(), e.obj(), e.rc());
    }

    public CaptureEvent release(CaptureEvent.Release e) {
      return new CaptureEvent.Release(e.line(), e.nanos(), tid, e.kind(), e.obj());
    }

    public CaptureEvent name(CaptureEvent.Name e) {
      return new CaptureEvent.Name(e.line(), e.nanos(), tid, e.obj(), e.name());
    }

    public CaptureEvent rangePush(CaptureEvent.RangePush e) {
      return new CaptureEvent.RangePush(e.line(), e.nanos(), tid, e.name(), e.domain());
    }

    public CaptureEvent rangePop(CaptureEvent.RangePop e) {
      return new CaptureEvent.RangePop(e.line(), e.nanos(), tid, e.domain());
    }

    public CaptureEvent rangeStart(CaptureEvent.RangeStart e) {
      return new CaptureEvent.RangeStart(e.line(), e.nanos(), tid, e.name(), e.domain(), e.id());
    }

    public CaptureEvent rangeEnd(CaptureEvent.RangeEnd e) {
      return new CaptureEvent.RangeEnd(e.line(), e.nanos(), tid, e.id());
    }

    public CaptureEvent mark(CaptureEvent.Mark e) {
      return new CaptureEvent.Mark(e.line(), e.nanos(), tid, e.name(), e.domain());
    }

    public CaptureEvent alloc(CaptureEvent.Alloc e) {
      return new CaptureEvent.Alloc(e.line(), e.nanos(), tid, e.ptr(), e.bytes(), e.async(), e.stream(), e.rc(), e.api());
    }

    public CaptureEvent free(CaptureEvent.Free e) {
      return new CaptureEvent.Free(e.line(), e.nanos(), tid, e.ptr(), e.async(), e.stream(), e.rc(), e.api());
    }

    public CaptureEvent trim(CaptureEvent.Trim e) {
      return new CaptureEvent.Trim(e.line(), e.nanos(), tid, e.pool(), e.keep(), e.rc());
    }

    public CaptureEvent poolThreshold(CaptureEvent.PoolThreshold e) {
      return new CaptureEvent.PoolThreshold(e.line(), e.nanos(), tid, e.pool(), e.bytes(), e.rc());
    }

    public CaptureEvent memInfo(CaptureEvent.MemInfo e) {
      return new CaptureEvent.MemInfo(e.line(), e.nanos(), tid, e.free(), e.total(), e.rc());
    }

    public CaptureEvent sync(CaptureEvent.Sync e) {
      return new CaptureEvent.Sync(e.line(), e.nanos(), tid, e.rc(), e.api());
    }

    public CaptureEvent syncStream(CaptureEvent.SyncStream e) {
      return new CaptureEvent.SyncStream(e.line(), e.nanos(), tid, e.stream(), e.rc());
    }

    public CaptureEvent launch(CaptureEvent.Launch e) {
      return new CaptureEvent.Launch(e.line(), e.nanos(), tid, e.kernel(), e.stream(), e.corr(), e.rc());
    }

    public CaptureEvent kernelActivity(CaptureEvent.KernelActivity e) {
      return new CaptureEvent.KernelActivity(e.line(), e.nanos(), tid, e.corr(), e.startNs(), e.endNs());
    }
  }
}
