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

  /** How an object was taken: a pthread mutex, a semaphore or an NVTX sync-user object. */
  enum AcquireKind {
    LOCK("lock"), TRYLOCK("trylock"), SEM_WAIT("sem_wait"), SYNC_ACQUIRE("sync_acquire");

    private final String event;

    AcquireKind(String event) {
      this.event = event;
    }

    /** The record's EVENT word. */
    public String event() {
      return event;
    }
  }

  /** How an object was given back. */
  enum ReleaseKind {
    UNLOCK("unlock"), SEM_POST("sem_post"), SYNC_RELEASE("sync_release");

    private final String event;

    ReleaseKind(String event) {
      this.event = event;
    }

    /** The record's EVENT word. */
    public String event() {
      return event;
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

  /** lock, trylock, sem_wait, sync_acquire: recorded when the call returned; taken when rc is 0. */
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

  /** unlock, sem_post, sync_release: recorded before the call. */
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
