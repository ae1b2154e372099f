package dev.interlock.observe;

import java.util.Objects;

/**
 * One record of a captured run (docs/capture-format.md): where it is in the file, when and on which OS thread.
 *
 * <p>Java 17 has no pattern matching in switch, so consumers that need every kind implement {@link Visitor}.
 */
public sealed interface CaptureEvent {
  /** The record's line in the capture file (1-based). */
  int line();

  /** CLOCK_MONOTONIC nanoseconds when it was recorded. */
  long nanos();

  /** The OS thread (gettid) that recorded it. */
  long tid();

  /** Calls the visitor method for this record's kind. */
  <R> R accept(Visitor<R> v);

  /**
   * How an object was taken: a pthread mutex (lock, trylock, timedlock), a rwlock for reading or writing (rdlock,
   * wrlock), a semaphore (sem_wait, sem_trywait, sem_timedwait) or an NVTX sync-user object.
   */
  enum AcquireKind {
    LOCK("lock", true, false), TRYLOCK("trylock", true, false), TIMEDLOCK("timedlock", true, false),
    RDLOCK("rdlock", true, true), WRLOCK("wrlock", true, false), SEM_WAIT("sem_wait", false, false),
    SEM_TRYWAIT("sem_trywait", false, false), SEM_TIMEDWAIT("sem_timedwait", false, false),
    SYNC_ACQUIRE("sync_acquire", false, false);

    private final String event;
    private final boolean mutex;
    private final boolean shared;

    AcquireKind(String event, boolean mutex, boolean shared) {
      this.event = event;
      this.mutex = mutex;
      this.shared = shared;
    }

    /** The record's EVENT word. */
    public String event() {
      return event;
    }

    /** Whether the object is a lock (a design's mutex) rather than something counted (a design's semaphore). */
    public boolean mutex() {
      return mutex;
    }

    /** Whether it is taken for reading, shared with other readers: a design has no such lock. */
    public boolean shared() {
      return shared;
    }
  }

  /** How an object was given back: the release of each {@link AcquireKind}'s object. */
  enum ReleaseKind {
    UNLOCK("unlock", true, false), RDUNLOCK("rdunlock", true, true), WRUNLOCK("wrunlock", true, false),
    SEM_POST("sem_post", false, false), SYNC_RELEASE("sync_release", false, false);

    private final String event;
    private final boolean mutex;
    private final boolean shared;

    ReleaseKind(String event, boolean mutex, boolean shared) {
      this.event = event;
      this.mutex = mutex;
      this.shared = shared;
    }

    /** The record's EVENT word. */
    public String event() {
      return event;
    }

    /** Whether the object is a lock (a design's mutex) rather than something counted (a design's semaphore). */
    public boolean mutex() {
      return mutex;
    }

    /** Whether a reader gives back a rwlock: a design has no such lock. */
    public boolean shared() {
      return shared;
    }
  }

  /** {@code thread_start child=TID rc=N}: pthread_create returned. */
  record ThreadStart(int line, long nanos, long tid, long child, int rc) implements CaptureEvent {
    public <R> R accept(Visitor<R> v) {
      return v.threadStart(this);
    }
  }

  /** {@code thread_join child=TID rc=N}: pthread_join returned. */
  record ThreadJoin(int line, long nanos, long tid, long child, int rc) implements CaptureEvent {
    public <R> R accept(Visitor<R> v) {
      return v.threadJoin(this);
    }
  }

  /** {@code thread_name name=NAME [tid_named=TID]}: names {@code named} (the recording thread unless given). */
  record ThreadName(int line, long nanos, long tid, String name, long named) implements CaptureEvent {
    public ThreadName {
      requireText("thread_name name", name);
    }

    public <R> R accept(Visitor<R> v) {
      return v.threadName(this);
    }
  }

  /** An {@link AcquireKind} record: recorded when the call returned; taken when rc is 0 (a failed try or timed call is not). */
  record Acquire(int line, long nanos, long tid, AcquireKind kind, String obj, int rc) implements CaptureEvent {
    public Acquire {
      Objects.requireNonNull(kind, "kind");
      requireText("obj", obj);
    }

    /** Whether the call took the object. */
    public boolean taken() {
      return rc == 0;
    }

    public <R> R accept(Visitor<R> v) {
      return v.acquire(this);
    }
  }

  /** A {@link ReleaseKind} record: recorded before the call. */
  record Release(int line, long nanos, long tid, ReleaseKind kind, String obj) implements CaptureEvent {
    public Release {
      Objects.requireNonNull(kind, "kind");
      requireText("obj", obj);
    }

    public <R> R accept(Visitor<R> v) {
      return v.release(this);
    }
  }

  /** {@code name obj=OBJ name=NAME}: NVTX resource naming of a mutex or sync object. */
  record Name(int line, long nanos, long tid, String obj, String name) implements CaptureEvent {
    public Name {
      requireText("obj", obj);
      requireText("name", name);
    }

    public <R> R accept(Visitor<R> v) {
      return v.name(this);
    }
  }

  /** {@code range_push name=NAME domain=DOMAIN}: an NVTX range begins. */
  record RangePush(int line, long nanos, long tid, String name, String domain) implements CaptureEvent {
    public RangePush {
      requireText("range name", name);
      requireText("domain", domain);
    }

    public <R> R accept(Visitor<R> v) {
      return v.rangePush(this);
    }
  }

  /** {@code range_pop domain=DOMAIN}: the innermost NVTX range of the thread in that domain ends. */
  record RangePop(int line, long nanos, long tid, String domain) implements CaptureEvent {
    public RangePop {
      requireText("domain", domain);
    }

    public <R> R accept(Visitor<R> v) {
      return v.rangePop(this);
    }
  }

  /**
   * {@code range_start name=NAME domain=DOMAIN id=N}: an NVTX start/end range begins. It is not bound to a thread: the
   * {@link RangeEnd} with the same id may come from another one.
   */
  record RangeStart(int line, long nanos, long tid, String name, String domain, long id) implements CaptureEvent {
    public RangeStart {
      requireText("range name", name);
      requireText("domain", domain);
      requireId(id);
    }

    public <R> R accept(Visitor<R> v) {
      return v.rangeStart(this);
    }
  }

  /** {@code range_end id=N}: the start/end range with that id ends, on whichever thread recorded this. */
  record RangeEnd(int line, long nanos, long tid, long id) implements CaptureEvent {
    public RangeEnd {
      requireId(id);
    }

    public <R> R accept(Visitor<R> v) {
      return v.rangeEnd(this);
    }
  }

  /** {@code mark name=NAME domain=DOMAIN}: an NVTX mark, an instant with a name. */
  record Mark(int line, long nanos, long tid, String name, String domain) implements CaptureEvent {
    public Mark {
      requireText("mark name", name);
      requireText("domain", domain);
    }

    public <R> R accept(Visitor<R> v) {
      return v.mark(this);
    }
  }

  /** {@code alloc ptr bytes async stream rc api}: a device allocation returned (ptr 0 when it failed). */
  record Alloc(int line, long nanos, long tid, long ptr, long bytes, boolean async, String stream, int rc, String api)
      implements CaptureEvent {
    /** CUDA_ERROR_OUT_OF_MEMORY. */
    public static final int OUT_OF_MEMORY = 2;

    public Alloc {
      if (bytes < 0) {
        throw new IllegalArgumentException("alloc of negative size " + bytes);
      }
      requireText("stream", stream);
      requireText("api", api);
    }

    /** Whether the allocation failed for lack of device memory. */
    public boolean outOfMemory() {
      return rc == OUT_OF_MEMORY;
    }

    public <R> R accept(Visitor<R> v) {
      return v.alloc(this);
    }
  }

  /** {@code free ptr async stream rc api}: a device free returned. */
  record Free(int line, long nanos, long tid, long ptr, boolean async, String stream, int rc, String api)
      implements CaptureEvent {
    public Free {
      requireText("stream", stream);
      requireText("api", api);
    }

    public <R> R accept(Visitor<R> v) {
      return v.free(this);
    }
  }

  /** {@code trim pool keep rc}: cuMemPoolTrimTo. */
  record Trim(int line, long nanos, long tid, long pool, long keep, int rc) implements CaptureEvent {
    public <R> R accept(Visitor<R> v) {
      return v.trim(this);
    }
  }

  /** {@code pool_threshold pool bytes rc}: the pool's release threshold was set. */
  record PoolThreshold(int line, long nanos, long tid, long pool, long bytes, int rc) implements CaptureEvent {
    public <R> R accept(Visitor<R> v) {
      return v.poolThreshold(this);
    }
  }

  /** {@code meminfo free total rc}: cuMemGetInfo and what it returned. */
  record MemInfo(int line, long nanos, long tid, long free, long total, int rc) implements CaptureEvent {
    public <R> R accept(Visitor<R> v) {
      return v.memInfo(this);
    }
  }

  /** {@code sync rc api}: a device-wide synchronization. */
  record Sync(int line, long nanos, long tid, int rc, String api) implements CaptureEvent {
    public Sync {
      requireText("api", api);
    }

    public <R> R accept(Visitor<R> v) {
      return v.sync(this);
    }
  }

  /** {@code sync_stream stream rc}: a stream synchronization. */
  record SyncStream(int line, long nanos, long tid, String stream, int rc) implements CaptureEvent {
    public SyncStream {
      requireText("stream", stream);
    }

    public <R> R accept(Visitor<R> v) {
      return v.syncStream(this);
    }
  }

  /** {@code launch kernel stream corr rc}: a kernel launch returned. */
  record Launch(int line, long nanos, long tid, String kernel, String stream, long corr, int rc) implements CaptureEvent {
    public Launch {
      requireText("kernel", kernel);
      requireText("stream", stream);
    }

    public <R> R accept(Visitor<R> v) {
      return v.launch(this);
    }
  }

  /** {@code kernel corr start_ns end_ns}: CUPTI's device times of a launched kernel, on the host clock. */
  record KernelActivity(int line, long nanos, long tid, long corr, long startNs, long endNs) implements CaptureEvent {
    public KernelActivity {
      if (endNs < startNs) {
        throw new IllegalArgumentException("kernel ends (" + endNs + ") before it starts (" + startNs + ")");
      }
    }

    public <R> R accept(Visitor<R> v) {
      return v.kernelActivity(this);
    }
  }

  private static void requireId(long id) {
    if (id <= 0) {
      throw new IllegalArgumentException("range id must be positive, got " + id);
    }
  }

  private static void requireText(String what, String s) {
    if (s == null || s.isEmpty()) {
      throw new IllegalArgumentException(what + " is empty");
    }
  }

  /** An exhaustive case analysis over record kinds. */
  interface Visitor<R> {
    R threadStart(ThreadStart e);

    R threadJoin(ThreadJoin e);

    R threadName(ThreadName e);

    R acquire(Acquire e);

    R release(Release e);

    R name(Name e);

    R rangePush(RangePush e);

    R rangePop(RangePop e);

    R rangeStart(RangeStart e);

    R rangeEnd(RangeEnd e);

    R mark(Mark e);

    R alloc(Alloc e);

    R free(Free e);

    R trim(Trim e);

    R poolThreshold(PoolThreshold e);

    R memInfo(MemInfo e);

    R sync(Sync e);

    R syncStream(SyncStream e);

    R launch(Launch e);

    R kernelActivity(KernelActivity e);
  }
}
