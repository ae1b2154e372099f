package dev.interlock.impl.engine;

import dev.interlock.impl.api.Device;
import dev.interlock.impl.api.DeviceBuffer;
import dev.interlock.impl.api.Job;
import dev.interlock.impl.api.MemoryInfo;
import dev.interlock.impl.device.BufferNotLiveException;
import dev.interlock.impl.fault.InjectedFault;
import dev.interlock.impl.sync.Await;
import dev.interlock.model.state.Violation;
import dev.interlock.model.state.ViolationKind;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * One job as its threads share it: the role thread that took it and the tasks it spawned, directly
 * or through other tasks. It holds the job's buffers (by name; the same name in another job is
 * another buffer), its one-shot events and the task threads it started, and it closes the job when
 * the last of its threads has ended: a non-kept buffer still live then is a LEAK. A buffer whose allocation failed
 * and was ignored ({@code on oom ignore}) is missing: not live, no leak, its free a no-op; the job's result is then
 * {@link JobResult.Swallowed}.
 *
 * <p>A job's result goes out when it has closed (after a failure, once its buffers are freed) and
 * its role thread's pipeline has returned (or the job failed); a thread may start its next job
 * before then. Thread-safe.
 */
public final class JobScope {
  private final JobLifecycle life;
  private final EngineWorker owner;
  private final Job job;
  private final int number;
  private final boolean lastJob;
  private final boolean scoped;
  private final Await changes;
  private final Map<String, DeviceBuffer> buffers = new LinkedHashMap<>();
  /** The job's buffers whose allocation failed and was ignored ({@code on oom ignore}): missing, not live. */
  private final Set<String> missing = new LinkedHashSet<>();
  /** The ignored allocation failures of the job, and the kernels that ran without a missing buffer. */
  private final List<Violation> swallowed = new ArrayList<>();
  private final List<MissingUse> withoutBuffers = new ArrayList<>();
  /** The first step of the job that went wrong for want of a buffer (an ignored failure, a kernel without it). */
  private String firstWrong;
  private final Set<String> signalled = new HashSet<>();
  private final Map<String, String> lastSpawned = new HashMap<>();
  private final Set<String> active = new LinkedHashSet<>();
  /** The threads of {@link #active} by name, once started: what a failure cancels. */
  private final Map<String, Thread> threads = new HashMap<>();
  private final CompletableFuture<JobResult> result = new CompletableFuture<>();
  private boolean closed;
  /** The closing has done its work (a failed job's buffers freed): the result may go out. */
  private boolean settled;
  private boolean published;
  private boolean returned;
  private Object value;
  private JobResult failure;
  private volatile boolean cancelled;

  /**
   * Made on the owner's thread, which is the job's first.
   *
   * @param owner   the role thread that took the job
   * @param number  the job's 0-based number among its role thread's jobs (J - 1 in task names)
   * @param lastJob whether it is the role thread's last job (its end then finishes the crew)
   * @param scoped  whether the pipeline registers the job's buffers here (the interpreter); else the
   *                role thread's live buffers on the device are the job's
   */
  JobScope(JobLifecycle life, EngineWorker owner, Job job, int number, boolean lastJob, boolean scoped, Await changes) {
    this.life = life;
    this.owner = owner;
    this.job = job;
    this.number = number;
    this.lastJob = lastJob;
    this.scoped = scoped;
    this.changes = changes;
    active.add(owner.name());
    threads.put(owner.name(), Thread.currentThread());
  }

  public Job job() {
    return job;
  }

  /** The job's 0-based number among its role thread's jobs. */
  public int number() {
    return number;
  }

  /** The role thread that took the job, {@code role#i}. */
  public String roleThread() {
    return owner.name();
  }

  private Device device() {
    return owner.device();
  }

  private String label() {
    return owner.name() + " job " + (number + 1);
  }

  // ---- buffers ----

  /** The job's live buffer called {@code name}, or null. */
  public synchronized DeviceBuffer buffer(String name) {
    return buffers.get(name);
  }

  /** The job's live buffers by name. */
  public synchronized Map<String, DeviceBuffer> buffers() {
    return new LinkedHashMap<>(buffers);
  }

  /**
   * The step {@code alloc B SIZE}: allocates the job's buffer B through {@code allocate}.
   *
   * @throws LeakException with {@code leakMessage} when this job's B is live: its earlier allocation leaks
   */
  public synchronized void allocate(String name, Supplier<DeviceBuffer> allocate, String leakMessage) {
    if (buffers.containsKey(name)) {
      throw new LeakException(leakMessage);
    }
    buffers.put(name, allocate.get());
    missing.remove(name); // a new buffer replaces the missing mark
  }

  /**
   * The allocation of the job's buffer B failed and the design ignores it: B is missing (a kernel runs without it,
   * its free does nothing, it is no leak at the job's end) until an allocation of B succeeds.
   */
  public synchronized void markMissing(String name) {
    missing.add(name);
  }

  /** Whether the job's buffer {@code name} is missing: its allocation failed and was ignored. */
  public synchronized boolean isMissing(String name) {
    return missing.contains(name);
  }

  /** Notes an ignored allocation failure of this job at {@code step} ({@code SWALLOWED_OOM}): its result is wrong. */
  synchronized void swallowed(String step, Violation v) {
    swallowed.add(v);
    if (firstWrong == null) {
      firstWrong = step;
    }
  }

  /** Notes a kernel of this job that ran without missing buffers. */
  synchronized void ranWithout(MissingUse use) {
    withoutBuffers.add(use);
    if (firstWrong == null) {
      firstWrong = use.step();
    }
  }

  /**
   * The step {@code free B} of the job's buffer B, on thread {@code thread}'s stream (a task may free
   * the job's buffers).
   *
   * @throws dev.interlock.impl.device.BufferNotLiveException (BAD_FREE) when B is not live
   */
  public synchronized void free(String name, String thread) {
    DeviceBuffer b = buffers.get(name);
    if (b == null && missing.remove(name)) {
      return; // the failed allocation left a null pointer, whose cudaFree does nothing
    }
    if (b == null) {
      throw new BufferNotLiveException(ViolationKind.BAD_FREE, thread + " free " + name + ": " + label() + " has no live " + name);
    }
    device().free(b, thread);
    buffers.remove(name);
  }

  // ---- events ----

  /** The step {@code signal E}: sets the job's one-shot event E. */
  public void signal(String event) {
    synchronized (this) {
      signalled.add(event);
    }
    changes.changed();
  }

  /** The step {@code wait E}: returns once a thread of this job has signalled E. */
  public void await(String event) {
    changes.until("event " + event + " of " + label(), () -> cancelled || isSignalled(event));
    unlessCancelled();
  }

  private synchronized boolean isSignalled(String event) {
    return signalled.contains(event);
  }

  // ---- tasks ----

  /**
   * The step {@code spawn T}: starts thread {@code thread}, which runs {@code body} once as a task of
   * this job, sharing its buffers and events.
   */
  public void spawn(String thread, String task, Consumer<EngineWorker> body) {
    synchronized (this) {
      if (closed) {
        throw new IllegalStateException(label() + " has closed: it cannot spawn " + thread);
      }
      active.add(thread);
      lastSpawned.put(task, thread);
    }
    life.startTask(this, owner, thread, body);
  }

  /** Task thread {@code name}, spawned in this job, is {@code thread}: called before it starts. */
  synchronized void attach(String name, Thread thread) {
    threads.put(name, thread);
    if (cancelled) {
      life.waits().cancel(thread);
    }
  }

  /**
   * The step {@code join T}: returns once the most recent instance of T spawned in this job has
   * ended; at once when the job has spawned no T.
   */
  public void join(String task) {
    String last;
    synchronized (this) {
      last = lastSpawned.get(task);
    }
    if (last == null) {
      unlessCancelled();
      return;
    }
    changes.until("task " + last + " to end", () -> cancelled || joinable(task));
    unlessCancelled();
  }

  private synchronized boolean joinable(String task) {
    String last = lastSpawned.get(task);
    return last == null || !active.contains(last);
  }

  private void unlessCancelled() {
    if (cancelled) {
      throw new JobCancelled(label() + " failed on another of its threads");
    }
  }

  // ---- the job's life ----

  /** Whether {@code thread} is one of the job's threads still working in it. */
  synchronized boolean has(Thread thread) {
    return threads.containsValue(thread);
  }

  /** Whether another thread of the job failed: this one unwinds at its next step. */
  boolean cancelled() {
    return cancelled;
  }

  /** Whether the job has failed (a step, a leak at its end, a cut short thread). */
  synchronized boolean failed() {
    return failure != null;
  }

  /** The job's result, once it has closed. */
  CompletableFuture<JobResult> result() {
    return result;
  }

  /**
   * Returns once the job has closed and its closing has done its work: a failed job's buffers freed, by whichever of
   * its threads ended last. A failed thread that has ended its part waits here before giving back its locks, so that
   * the next holder of a lock never finds the job's buffers still live.
   *
   * @throws dev.interlock.impl.sync.WorkerInterrupted when the watchdog ends the wait (a deadlock)
   * @throws dev.interlock.impl.sync.RunAborted when a controlled run ends meanwhile
   */
  void awaitSettled() {
    changes.until("the other threads of " + label() + " to end, to free its buffers before its locks go",
        this::isSettled);
  }

  private synchronized boolean isSettled() {
    return settled;
  }

  /**
   * Records the job's failure (the first one counts) and cancels its other threads: each stops at its next step, and
   * its waits end ({@link dev.interlock.impl.sync.WaitRegistry#cancel}), so that none is left waiting for a lock that
   * a failed thread of the job keeps until the job's buffers are freed.
   */
  void fail(JobResult r) {
    fail(r, false);
  }

  /**
   * As {@link #fail}, and the calling thread's waits are cancelled too when it is one of the job's threads: the job
   * fails for a wait of it that cannot end (a wait that only a device reopening, which waits for this job, could end).
   */
  void failWaiting(JobResult r) {
    fail(r, true);
  }

  private void fail(JobResult r, boolean caller) {
    synchronized (this) {
      if (failure == null) {
        failure = r;
      }
      cancelled = true;
      // under this monitor, so that a thread cancelled here is still working in the job, and uncancels at its end
      for (Map.Entry<String, Thread> t : threads.entrySet()) {
        if (caller || t.getValue() != Thread.currentThread()) {
          life.waits().cancel(t.getValue());
        }
      }
    }
    changes.changed();
    tryPublish();
  }

  /** The role thread's pipeline returned {@code v}: the job's value when it completes. */
  void returned(Object v) {
    synchronized (this) {
      value = v;
      returned = true;
    }
    tryPublish();
  }

  /**
   * Thread {@code thread}, the calling one, has ended its part of the job ({@code position}: where, for a leak's
   * report); null, or the closing of the job when it was the last. A second call does nothing. Its waits are no
   * longer cancelled: it may wait again, in its own unwinding ({@link #awaitSettled}) or in its next job.
   */
  Closing end(String thread, String position) {
    boolean close;
    Thread t;
    synchronized (this) {
      if (!active.remove(thread)) {
        return null;
      }
      t = threads.remove(thread);
      close = active.isEmpty();
      closed |= close;
    }
    if (t == Thread.currentThread()) {
      life.waits().uncancel(); // the job cancels only its active threads: nothing cancels this one again
    }
    changes.changed();
    if (thread.equals(owner.name()) && lastJob) {
      owner.crew().finish();
    }
    if (!close) {
      return null;
    }
    List<DeviceBuffer> live;
    boolean ok;
    synchronized (this) {
      live = scoped ? new ArrayList<>(buffers.values()) : device().liveBuffers(owner.name());
      ok = failure == null;
    }
    Optional<Violation> leak = Optional.empty();
    if (ok && !live.isEmpty()) {
      leak = Optional.of(new Violation(ViolationKind.LEAK, owner.name() + " job " + job.id() + " ends with live buffers "
          + live.stream().map(DeviceBuffer::name).toList()));
      ok = false;
    }
    if (ok) {
      owner.crew().closed(true);
    }
    return new Closing(leak, live, ok, position, device().memory());
  }

  /**
   * A job closing: what its close found; {@link #finish()} reports a leak and cleans up after a
   * failure, once the transition that closed the job has been recorded.
   */
  final class Closing {
    private final Optional<Violation> leak;
    private final List<DeviceBuffer> live;
    private final boolean ok;
    private final String position;
    private final MemoryInfo memory;

    private Closing(Optional<Violation> leak, List<DeviceBuffer> live, boolean ok, String position, MemoryInfo memory) {
      this.leak = leak;
      this.live = live;
      this.ok = ok;
      this.position = position;
      this.memory = memory;
    }

    /** The leak found at the close, if any. */
    Optional<Violation> leak() {
      return leak;
    }

    void finish() {
      try {
        if (leak.isPresent()) {
          Violation v = leak.get();
          fail(new JobResult.Failed(job, owner.name(), life.leakStep(position), v, memory));
          life.leaked(v);
        }
        if (!ok) {
          for (DeviceBuffer b : live) {
            try {
              if (device().isLive(b)) {
                device().free(b, owner.name());
              }
            } catch (InjectedFault e) {
              // the device was poisoned meanwhile: the buffer goes with its context, which the engine reopens
            }
          }
          synchronized (JobScope.this) {
            buffers.clear();
            missing.clear();
          }
          owner.crew().closed(false);
        }
      } finally {
        synchronized (JobScope.this) {
          settled = true;
        }
        changes.changed(); // the job's failed threads waiting to give back their locks (awaitSettled) go on
      }
      tryPublish();
    }
  }

  private void tryPublish() {
    JobResult r;
    synchronized (this) {
      if (!settled || published || failure == null && !returned) {
        return;
      }
      r = failure != null ? failure
          : swallowed.isEmpty() && withoutBuffers.isEmpty() ? new JobResult.Completed(job, owner.name(), value)
          : new JobResult.Swallowed(job, owner.name(), value, firstWrong, swallowed, withoutBuffers);
      published = true;
    }
    life.publish(this, r);
    result.complete(r);
  }
}
