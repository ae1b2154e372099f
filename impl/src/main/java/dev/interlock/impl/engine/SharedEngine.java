package dev.interlock.impl.engine;

import dev.interlock.impl.device.Device;
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
 * thread pool) instead of the engine's {@code role#i} workers: one device and the design's mutexes
 * and semaphores, shared by every caller, with {@link StepGate#FREE}.
 *
 * <p>A calling thread becomes a worker of the role it first runs, named {@code role#k} with k
 * counted per role in order of first use by this instance (so a fresh instance numbers afresh); it
 * keeps that name and cannot run another role. After a failed job the thread's mutexes, permits
 * and buffers are released, as the engine does, so later jobs are unaffected. There is no deadlock
 * watchdog: a job that blocks forever blocks its caller.
 */
public final class SharedEngine {
  /** The step of a leak found when a job ends, in {@link #describe(JobResult)}. */
  public static final String END_OF_JOB = "end of job";

  private final Device device;
  private final EventLog log = new EventLog();
  private final WaitRegistry waits = new WaitRegistry();
  private final Resources resources;
  private final JobLifecycle lifecycle;
  private final Map<String, Pipeline> pipelines = new LinkedHashMap<>();
  private final Map<String, Integer> workersPerRole = new HashMap<>();
  private final ThreadLocal<Worker> worker = new ThreadLocal<>();
  private int nextJob;

  public SharedEngine(Design design, Device device, Function<Role, Pipeline> pipelines) {
    this.device = device;
    this.resources = new Resources(design, device, StepGate.FREE, waits);
    this.lifecycle = new JobLifecycle(resources, log, StepGate.FREE, w -> END_OF_JOB, JobLifecycle.PROPAGATE);
    for (Role r : design.roles()) {
      this.pipelines.put(r.name(), pipelines.apply(r));
    }
  }

  /** Runs one job of {@code role} on the calling thread and says how it ended: {@link #describe}. */
  public String runJob(String role) {
    return describe(run(role));
  }

  /**
   * Runs one job of {@code role} on the calling thread: Completed, or Failed with the step; anything
   * else the pipeline throws propagates once the thread's holds are released.
   */
  public JobResult run(String role) {
    Worker w = workerFor(role);
    return lifecycle.run(w, pipelines.get(role), new Job(nextJobId(), role, null)).result();
  }

  /** "ok" for a completed job, else the verdict and step: {@code "OOM at alloc staged 12GiB"}. */
  public static String describe(JobResult r) {
    if (r instanceof JobResult.Failed f) {
      return f.violation().kind() + " at " + f.step();
    }
    if (r instanceof JobResult.Aborted a) {
      return "aborted: " + a.why();
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

  private Worker workerFor(String role) {
    Worker w = worker.get();
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
    String name = role + "#" + index;
    w = new Worker(name, role, index, new Probe(name, StepGate.FREE, log, device, waits), resources);
    worker.set(w);
    return w;
  }

  private synchronized int nextJobId() {
    return nextJob++;
  }
}
