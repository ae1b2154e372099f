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
 * are dropped (its name would rename the creator). Folding is transitive: a folded child's own folded children go
 * to the same creator.
 */
final class ForkJoinFolding {
  private ForkJoinFolding() {}

  /** The events with every folded child's records on its creator's thread. */
  static List<CaptureEvent> fold(List<CaptureEvent> events) {
    Map<Long, Long> creatorOf = foldedChildren(events);
    if (creatorOf.isEmpty()) {
      return events;
    }
    List<CaptureEvent> out = new ArrayList<>(events.size());
    for (CaptureEvent e : events) {
      if (e instanceof CaptureEvent.ThreadStart s && creatorOf.containsKey(s.child())
          || e instanceof CaptureEvent.ThreadJoin j && creatorOf.containsKey(j.child())
          || e instanceof CaptureEvent.ThreadName n && creatorOf.containsKey(n.named())) {
        continue;
      }
      long to = root(creatorOf, e.tid());
      out.add(to == e.tid() ? e : e.accept(new Retid(to)));
    }
    return out;
  }

  /** child -> creator, for the children whose creator's next record after starting them is their join. */
  private static Map<Long, Long> foldedChildren(List<CaptureEvent> events) {
    Map<Long, CaptureEvent.ThreadStart> pending = new HashMap<>(); // creator -> its last record, if a start
    Map<Long, Long> creatorOf = new HashMap<>();
    for (CaptureEvent e : events) {
      CaptureEvent.ThreadStart started = pending.remove(e.tid());
      if (started != null && e instanceof CaptureEvent.ThreadJoin j && j.child() == started.child() && j.rc() == 0) {
        creatorOf.put(j.child(), j.tid());
      }
      if (e instanceof CaptureEvent.ThreadStart s && s.rc() == 0) {
        pending.put(s.tid(), s);
      }
    }
    return creatorOf;
  }

  private static long root(Map<Long, Long> creatorOf, long tid) {
    long t = tid;
    for (Long up = creatorOf.get(t); up != null; up = creatorOf.get(t)) {
      t = up;
    }
    return t;
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
