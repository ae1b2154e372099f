package dev.interlock.impl.engine;

import dev.interlock.impl.api.Device;
import dev.interlock.impl.api.DeviceBuffer;
import dev.interlock.impl.api.Job;
import dev.interlock.impl.api.Pipeline;
import dev.interlock.impl.sync.RunAborted;
import dev.interlock.impl.sync.StepGate;
import dev.interlock.impl.sync.WaitRegistry;
import dev.interlock.impl.sync.WorkerInterrupted;
import dev.interlock.model.design.Design;
import dev.interlock.model.design.Role;
import dev.interlock.model.state.Violation;
import dev.interlock.model.state.ViolationKind;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * Runs a design on real threads: for each role, {@code threads} workers named {@code role#i} take
 * jobs from the role's queue, {@code jobs} each, and run every job through the role's pipeline; the
 * tasks a job spawns run on threads of their own ({@code role#i/TASK@J}).
 *
 * <p>With {@link StepGate#FREE} the threads run freely and a {@link Watchdog} reports deadlocks;
 * with a controlled gate a scheduler decides every step. Either way every job gets a result, once
 * it and all its tasks have ended, and at the end the device holds nothing the run allocated.
 */
public final class Engine {
  private final Device device;
  private final StepGate gate;
  private final long watchdogMillis;
  private final RetryPolicy retry;
  private final Retention retention;

  public Engine(Device device, StepGate gate) {
    this(device, gate, 100);
  }

  public Engine(Device device, StepGate gate, long watchdogMillis) {
    this(device, gate, watchdogMillis, RetryPolicy.NONE);
  }

  /**
   * @param retry which failed jobs run again (only in a free run: a controlled scheduler plans every step)
   */
  public Engine(Device device, StepGate gate, long watchdogMillis, RetryPolicy retry) {
    this(device, gate, watchdogMillis, retry, Retention.ALL);
  }

  private Engine(Device device, StepGate gate, long watchdogMillis, RetryPolicy retry, Retention retention) {
    if (retry.retries() > 0 && gate.controlled()) {
      throw new IllegalArgumentException("retries need a free run: a controlled gate plans every step");
    }
    this.device = device;
    this.gate = gate;
    this.watchdogMillis = watchdogMillis;
    this.retry = retry;
    this.retention = retention;
  }

  /** This engine with retry policy {@code retry}. */
  public Engine retrying(RetryPolicy retry) {
    return new Engine(device, gate, watchdogMillis, retry, retention);
  }

  /** This engine keeping what {@code retention} says of its runs ({@link Retention#ALL} unless asked). */
  public Engine keeping(Retention retention) {
    return new Engine(device, gate, watchdogMillis, retry, retention);
  }

  /**
   * The role thread names of a design, in role order: what a controlled scheduler expects at the
   * start (task threads join it when they are spawned).
   */
  public static List<String> threadNames(Design design) {
    List<String> names = new ArrayList<>();
    for (Role r : design.roles()) {
      for (int i = 0; i < r.threads(); i++) {
        names.add(r.name() + "#" + i);
      }
    }
    return names;
  }

  /** Runs the design to its end and reports; {@code source} names the design file in the trace. */
  public RunReport run(Design design, String source, Function<Role, Pipeline> pipelines) {
    return start(design, source, pipelines).await();
  }

  /** Starts the design's worker threads; {@link Run#await()} waits for them and reports. */
  public Run start(Design design, String source, Function<Role, Pipeline> pipelines) {
    return new Run(design, source, pipelines, Map.of());
  }

  /**
   * Starts a run whose roles in {@code payloads} get one job per payload (a proof request's
   * partitions) instead of {@code threads x jobs}; their workers take jobs until the queue is empty.
   */
  public Run start(Design design, String source, Function<Role, Pipeline> pipelines, Map<String, List<?>> payloads) {
    return new Run(design, source, pipelines, payloads);
  }

  /** A started run. */
  public final class Run {
    private final long start = System.nanoTime();
    private final Design design;
    private final String source;
    private final boolean keep = retention == Retention.ALL;
    private final RunTally tally;
    private final EventLog log;
    private final WaitRegistry waits = new WaitRegistry();
    private final RunResources resources;
    private final JobLifecycle lifecycle;
    private final RunThreads threads = new RunThreads();
    private final List<Thread> roleThreads = new ArrayList<>();
    private final List<JobResult> results = Collections.synchronizedList(new ArrayList<>());
    private final List<JobResult> retried = Collections.synchronizedList(new ArrayList<>());
    private final Watchdog watchdog;
    private final Thread watchdogThread;
    private volatile String deadlock;

    private Run(Design design, String source, Function<Role, Pipeline> pipelines, Map<String, List<?>> payloads) {
      this.design = design;
      this.source = source;
      tally = new RunTally(design.roles().stream().mapToInt(Role::threads).sum());
      log = new EventLog(retention, tally);
      resources = new RunResources(design, device, gate, waits);
      lifecycle = new JobLifecycle(resources, log, gate, waits, threads, position -> position, this::cutShort, this::ended);
      int nextJob = 0;
      for (Role role : design.roles()) {
        List<?> given = payloads.get(role.name());
        int quota = given == null ? role.jobs() : Integer.MAX_VALUE;
        JobQueue queue = new JobQueue(role.name(), nextJob, given == null ? role.threads() * role.jobs() : given.size(), given);
        nextJob += queue.size;
        Pipeline pipeline = pipelines.apply(role);
        for (int i = 0; i < role.threads(); i++) {
          EngineWorker worker = lifecycle.roleWorker(role.name() + "#" + i, role.name(), i);
          Thread t = new Thread(() -> work(worker, pipeline, queue, quota), worker.name());
          t.setDaemon(true);
          threads.add(t, worker.probe());
          roleThreads.add(t);
        }
      }
      watchdog = new Watchdog(threads, waits, watchdogMillis, this::deadlocked);
      watchdogThread = new Thread(watchdog, "interlock-watchdog");
      watchdogThread.setDaemon(true);
      roleThreads.forEach(Thread::start);
      if (!gate.controlled()) {
        watchdogThread.start();
      }
    }

    private void deadlocked(String message) {
      deadlock = message;
      log.recordViolation(new Violation(ViolationKind.DEADLOCK, message));
    }

    /** The run's event log, live. */
    public EventLog log() {
      return log;
    }

    /** A job's result (or, until {@link #retried}, its attempt's): tallied, and kept with {@link Retention#ALL}. */
    private void ended(JobResult r) {
      tally.ended(r);
      if (keep) {
        results.add(r);
      }
    }

    /** Attempt {@code r}, already {@link #ended}, is retried: it is no longer its job's result. */
    private void retried(JobResult r) {
      tally.retried(r);
      if (keep) {
        synchronized (results) {
          results.removeIf(x -> x == r);
        }
        retried.add(r);
      }
    }

    private void work(EngineWorker w, Pipeline pipeline, JobQueue queue, int quota) {
      try {
        for (int k = 0; k < quota; k++) {
          Job job = queue.poll();
          if (job == null) {
            break;
          }
          if (!runWithRetries(w, pipeline, job, quota != Integer.MAX_VALUE && k == quota - 1)) {
            abortRest(w, queue, quota - k - 1, "an earlier job of " + w.name() + " ended the run");
            break;
          }
        }
      } finally {
        w.crew().finish();
        gate.finished();
      }
    }

    /**
     * Runs a job, and again after a failure the retry policy retries (once the failed attempt has closed, its tasks
     * joined and its result recorded, and after the backoff); reopens a poisoned device once no job is in flight.
     * False when the worker must stop (abort, deadlock, or a failure under a controlled gate).
     */
    private boolean runWithRetries(EngineWorker w, Pipeline pipeline, Job job, boolean last) {
      for (int attempt = 0; ; attempt++) {
        JobLifecycle.Ended ended = lifecycle.run(w, pipeline, job, last);
        if (ended.cutShort() || ended.failed() && gate.controlled()) {
          return false;
        }
        lifecycle.contexts().recover();
        if (!ended.failed() || retry.retries() == 0) {
          return true;
        }
        JobResult r = ended.scope().result().join();
        if (!retry.retries(r, attempt)) {
          return true;
        }
        try {
          Thread.sleep(retry.backoff(attempt + 1)); // the retry's backoff, as a real engine waits before trying again
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return false; // r stays the job's result
        }
        retried(r);
      }
    }

    /** A job cut short: the run was aborted, the watchdog interrupted a wait (a deadlock), or the pipeline failed. */
    private Optional<JobResult> cutShort(EngineWorker w, Job job, Throwable e) {
      if (e instanceof RunAborted a) {
        return Optional.of(new JobResult.Aborted(job, w.name(), a.getMessage()));
      }
      if (e instanceof WorkerInterrupted) {
        Thread.interrupted();
        String why = deadlock != null ? deadlock : e.getMessage();
        return Optional.of(new JobResult.Failed(job, w.name(), w.probe().position(), new Violation(ViolationKind.DEADLOCK, why), device.memory()));
      }
      return Optional.of(new JobResult.Aborted(job, w.name(), "pipeline error: " + e));
    }

    private void abortRest(EngineWorker w, JobQueue queue, int remaining, String why) {
      for (int i = 0; i < remaining; i++) {
        Job j = queue.poll();
        if (j == null) {
          break;
        }
        ended(new JobResult.Aborted(j, w.name(), why));
      }
    }

    /** Waits for every thread (role threads and tasks), frees what is left on the device, and reports. */
    public RunReport await() {
      try {
        threads.joinAll();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while waiting for the run's threads", e);
      }
      watchdog.stop();
      watchdogThread.interrupt();
      lifecycle.contexts().recover();
      List<String> held = resources.held();
      resources.releaseDeviceBuffers();
      List<DeviceBuffer> left = device.liveBuffers(null);
      for (DeviceBuffer b : left) {
        device.free(b);
      }
      device.trim();
      List<JobResult> sorted = new ArrayList<>(results);
      sorted.sort(Comparator.comparingInt(r -> r.job().id()));
      return new RunReport(sorted, log.trace(design, source), log.events(), device.memory(),
          Optional.ofNullable(deadlock), left.size(), (System.nanoTime() - start) / 1e9, log.start(), retried, held,
          log.swallowed(), log.missingUses(), retention, tally);
    }
  }

  /**
   * A role's jobs, ids {@code first} to {@code first + size - 1}, made as its workers take them (with the payloads,
   * when given), so that a run of many jobs does not hold them all from its start.
   */
  private static final class JobQueue {
    private final String role;
    private final int first;
    private final int size;
    private final List<?> payloads;
    private final AtomicInteger taken = new AtomicInteger();

    JobQueue(String role, int first, int size, List<?> payloads) {
      this.role = role;
      this.first = first;
      this.size = size;
      this.payloads = payloads;
    }

    /** The next job, or null when all are taken. */
    Job poll() {
      int i = taken.getAndIncrement();
      if (i >= size) {
        taken.set(size); // no overflow however often an empty queue is polled
        return null;
      }
      return new Job(first + i, role, payloads == null ? null : payloads.get(i));
    }
  }
}
