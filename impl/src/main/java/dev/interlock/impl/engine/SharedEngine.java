package dev.interlock.impl.engine;

import dev.interlock.impl.api.Device;
import dev.interlock.impl.api.Job;
import dev.interlock.impl.api.Pipeline;
import dev.interlock.impl.sync.StepGate;
import dev.interlock.impl.sync.WaitRegistry;
import dev.interlock.model.design.Design;
import dev.interlock.model.design.Role;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Function;

/**
 * The engine's job as an operation callers run on their own threads (a Lincheck test, a caller's
 * thread pool) instead of the engine's {@code role#i} workers: one device with the design's device
 * buffers, and the design's mutexes and semaphores, shared by every caller, with {@link StepGate#FREE}.
 *
 * <p>A calling thread becomes a worker of the role it first runs, named {@code role#k} with k
 * counted per role in order of first use by this instance (so a fresh instance numbers afresh); it
 * keeps that name and cannot run another role. The tasks a job spawns run on threads of their own,
 * and a job returns once it and all its tasks have ended. Kept buffers stay with the calling thread
 * from job to job, since a caller has no last job. After a failed job what its threads held is
 * released, as the engine does, so later jobs are unaffected. There is no deadlock watchdog: a job
 * that blocks forever blocks its caller.
 */
public final class SharedEngine {
  /** The step of a leak found when a job ends, in {@link #describe(JobResult)}. */
  public static final String END_OF_JOB = "end of job";

  private final Device device;
  private final EventLog log = new EventLog();
  private final WaitRegistry waits = new WaitRegistry();
  private final RunThreads threads = new RunThreads();
  private final RunResources resources;
  private final JobLifecycle lifecycle;
  private final Map<String, Pipeline> pipelines = new LinkedHashMap<>();
  private final Map<String, Integer> workersPerRole = new HashMap<>();
  private final ThreadLocal<EngineWorker> worker = new ThreadLocal<>();
  private int nextJob;

  public SharedEngine(Design design, Device device, Function<Role, Pipeline> pipelines) {
    this.device = device;
    this.resources = new RunResources(design, device, StepGate.FREE, waits);
    this.lifecycle = new JobLifecycle(resources, log, StepGate.FREE, waits, threads, position -> END_OF_JOB,
        JobLifecycle.PROPAGATE, r -> {});
    for (Role r : design.roles()) {
      this.pipelines.put(r.name(), pipelines.apply(r));
    }
  }

  /** Runs one job of {@code role} on the calling thread and says how it ended: {@link #describe}. */
  public String runJob(String role) {
    return describe(run(role));
  }

  /**
   * Runs one job of {@code role} on the calling thread and waits until its tasks have ended too:
   * Completed, or Failed with the step; anything else the role thread's pipeline throws propagates
   * once the thread's holds are released.
   */
  public JobResult run(String role) {
    EngineWorker w = workerFor(role);
    JobResult r = lifecycle.run(w, pipelines.get(role), new Job(nextJobId(), role, null), false).scope().result().join();
    lifecycle.contexts().recover();
    return r;
  }

  /** Frees the design's device buffers: no job runs any more. */
  public void close() {
    resources.releaseDeviceBuffers();
  }

  /**
   * "ok" for a completed job, else the verdict and step: {@code "OOM at alloc staged 12GiB"}; a job that ran on
   * without a buffer is {@code SWALLOWED_OOM} at its first step that went wrong ({@link JobResult.Swallowed#step()}).
   */
  public static String describe(JobResult r) {
    if (r instanceof JobResult.Failed f) {
      return f.violation().kind() + " at " + f.step();
    }
    if (r instanceof JobResult.Faulted f) {
      return "injected " + f.fault().kind().specName() + " at " + f.step();
    }
    if (r instanceof JobResult.Aborted a) {
      return "aborted: " + a.why();
    }
    if (r instanceof JobResult.Swallowed sw) {
      return "SWALLOWED_OOM at " + sw.step();
    }
    return "ok";
  }

  /** Every transition the callers took, in order. */
  public EventLog log() {
    return log;
  }

  public Device device() {
    return device;
  }

  private EngineWorker workerFor(String role) {
    EngineWorker w = worker.get();
    if (w != null) {
      if (!w.role().equals(role)) {
        throw new IllegalStateException(w.name() + " cannot run a job of role " + role);
      }
      return w;
    }
    if (!pipelines.containsKey(role)) {
      throw new IllegalArgumentException("no role " + role + " (have " + pipelines.keySet() + ")");
    }
    int index;
    synchronized (this) {
      index = workersPerRole.merge(role, 1, Integer::sum) - 1;
    }
    w = lifecycle.roleWorker(role + "#" + index, role, index);
    worker.set(w);
    return w;
  }

  private synchronized int nextJobId() {
    return nextJob++;
  }
}
