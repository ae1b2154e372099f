package dev.interlock.impl.engine;

import dev.interlock.impl.api.Device;
import dev.interlock.impl.api.Job;
import dev.interlock.impl.api.Pipeline;
import dev.interlock.impl.fault.InjectedFault;
import dev.interlock.impl.sync.Await;
import dev.interlock.impl.sync.RunAborted;
import dev.interlock.impl.sync.StepGate;
import dev.interlock.impl.sync.WaitRegistry;
import dev.interlock.impl.sync.WorkerInterrupted;
import dev.interlock.model.state.Violation;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;

/**
 * One job's life, the same in {@link Engine} and {@link SharedEngine}: the role thread's probe is
 * armed for the job, the pipeline runs it, the tasks it spawns run on threads of their own, and the
 * job closes when its thread and all its tasks have ended; a non-kept buffer live then is a leak.
 * After any failure the job's other threads are cancelled (each stops at its next step, its waits end), its buffers
 * and the crew's kept ones are freed once all its threads have ended, and only then does each of its threads give
 * back the mutexes and permits it holds: other workers are not left waiting on a dead job, and the next holder of a
 * lock never finds the dead job's buffers still live.
 */
final class JobLifecycle {

  /** What an engine makes of a job that a thread's pipeline ended by throwing something other than a failed step. */
  @FunctionalInterface
  interface CutShort {
    /**
     * The job's result, asked before the thread's holds are released, so it sees the device as the
     * job left it; empty to let {@code e} (a RuntimeException or an Error) propagate once they are.
     */
    Optional<JobResult> result(EngineWorker w, Job job, Throwable e);
  }

  /** Lets anything but a failed step propagate to the caller. */
  static final CutShort PROPAGATE = (w, job, e) -> Optional.empty();

  /**
   * How the role thread left a job.
   *
   * @param scope    the job, whose result comes once it has closed
   * @param cutShort whether the pipeline threw something other than a failed step
   * @param failed   whether the job had failed when the role thread left it
   */
  record Ended(JobScope scope, boolean cutShort, boolean failed) {}

  private final RunResources resources;
  private final EventLog log;
  private final StepGate gate;
  private final WaitRegistry waits;
  private final RunThreads threads;
  private final UnaryOperator<String> leakStep;
  private final CutShort cutShort;
  private final Consumer<JobResult> results;
  private final DeviceContexts contexts;

  /**
   * @param threads  where the task threads it starts are registered
   * @param leakStep the step a leak found at a job's end is reported at, from the position of the
   *                 thread that closed the job ({@code after 'free a'})
   * @param cutShort what a job its pipeline ended by throwing becomes
   * @param results  receives each job's result once the job has closed
   */
  JobLifecycle(RunResources resources, EventLog log, StepGate gate, WaitRegistry waits, RunThreads threads,
      UnaryOperator<String> leakStep, CutShort cutShort, Consumer<JobResult> results) {
    this.resources = resources;
    this.log = log;
    this.gate = gate;
    this.waits = waits;
    this.threads = threads;
    this.leakStep = leakStep;
    this.cutShort = cutShort;
    this.results = results;
    this.contexts = new DeviceContexts(resources.device(), waits);
  }

  /** A probe for thread {@code name} of this run. */
  RecordingProbe probe(String name) {
    return new RecordingProbe(name, gate, log, resources.device(), waits, contexts.faults());
  }

  /** A role thread of this run, the first of its crew. */
  EngineWorker roleWorker(String name, String role, int index) {
    return new EngineWorker(name, role, index, probe(name), resources, new Crew(name, resources.device()));
  }

  /**
   * Runs {@code job} on the calling role thread {@code w} ({@code lastJob}: the thread's last one).
   * A failed step, a leak at the job's close and a cancelled thread are the job's result; anything
   * else the pipeline throws goes to {@link CutShort}. Returns when the role thread has left the
   * job, which may be before the job's tasks have ended.
   */
  Ended run(EngineWorker w, Pipeline pipeline, Job job, boolean lastJob) {
    contexts.enter();
    JobScope scope = new JobScope(this, w, job, w.crew().begin(), lastJob, pipeline instanceof ScopedPipeline,
        new Await(gate, waits));
    contexts.started(scope);
    w.enter(scope);
    w.probe().rearm(job.id(), scope);
    try {
      Object value = pipeline.runJob(w, job);
      leave(w, scope);
      scope.returned(value);
      if (scope.failed()) {
        releaseOnceSettled(scope);
      }
      return new Ended(scope, false, scope.failed());
    } catch (StepFailed f) {
      scope.fail(new JobResult.Failed(job, w.name(), f.step(), f.violation(), f.memory(), f.driverError()));
      unwind(w, scope);
      return new Ended(scope, false, true);
    } catch (JobCancelled c) {
      unwind(w, scope);
      return new Ended(scope, false, true);
    } catch (InjectedFault f) {
      scope.fail(new JobResult.Faulted(job, w.name(), w.probe().position(), f.fault(), resources.device().memory()));
      unwind(w, scope);
      return new Ended(scope, false, true);
    } catch (RuntimeException | Error e) {
      if (cancelledWait(e)) {
        unwind(w, scope);
        return new Ended(scope, false, true);
      }
      Optional<JobResult> result = Optional.empty();
      try {
        result = cutShort.result(w, job, e);
      } finally {
        scope.fail(result.orElseGet(() -> new JobResult.Aborted(job, w.name(), "pipeline error: " + e)));
        unwind(w, scope);
      }
      if (result.isEmpty()) {
        throw e;
      }
      return new Ended(scope, true, true);
    }
  }

  /** Starts task thread {@code name} of {@code scope}'s job, which runs {@code body} on a worker of its own. */
  void startTask(JobScope scope, EngineWorker owner, String name, Consumer<EngineWorker> body) {
    EngineWorker tw = new EngineWorker(name, owner.role(), owner.index(), probe(name), resources, owner.crew());
    tw.enter(scope);
    tw.probe().rearm(scope.job().id(), scope);
    gate.starting(name);
    Thread t = new Thread(() -> runTask(tw, scope, body), name);
    t.setDaemon(true);
    threads.add(t, tw.probe());
    scope.attach(name, t);
    t.start();
  }

  /** A task thread's life: its body once, then its part of the job ends, whatever happened. */
  private void runTask(EngineWorker tw, JobScope scope, Consumer<EngineWorker> body) {
    Job job = scope.job();
    try {
      body.accept(tw);
      leave(tw, scope);
    } catch (StepFailed f) {
      scope.fail(new JobResult.Failed(job, tw.name(), f.step(), f.violation(), f.memory(), f.driverError()));
      unwind(tw, scope);
    } catch (JobCancelled c) {
      unwind(tw, scope);
    } catch (InjectedFault f) {
      scope.fail(new JobResult.Faulted(job, tw.name(), tw.probe().position(), f.fault(), resources.device().memory()));
      unwind(tw, scope);
    } catch (RuntimeException | Error e) {
      if (cancelledWait(e)) {
        unwind(tw, scope);
        return;
      }
      Optional<JobResult> result = Optional.empty();
      try {
        result = cutShort.result(tw, job, e);
      } finally {
        scope.fail(result.orElseGet(() -> new JobResult.Aborted(job, tw.name(), "pipeline error: " + e)));
        unwind(tw, scope);
      }
    } finally {
      gate.finished();
    }
  }

  /** Thread w ends its part of the job normally (when its last step has not already done so). */
  private static void leave(EngineWorker w, JobScope scope) {
    JobScope.Closing c = scope.end(w.name(), w.probe().position());
    if (c != null) {
      c.finish();
    }
  }

  /**
   * Thread w leaves a failed job and releases its mutexes and permits, in this order: it ends its part (the job's
   * last thread to end frees the job's buffers), waits until the job's other threads have ended and the buffers are
   * freed, and only then releases its locks. Otherwise the next holder of a lock could find the failed job's buffers
   * still live and run out of memory for them. The wait cannot hang on a sibling waiting for one of those locks:
   * the failure cancelled the siblings' waits ({@link JobScope#fail}), and a thread of the job that has ended its part
   * holds its locks without waiting for anything but the others to end.
   */
  private void unwind(EngineWorker w, JobScope scope) {
    try {
      leave(w, scope);
    } finally {
      releaseOnceSettled(scope);
    }
  }

  /** Releases the calling thread's mutexes and permits once its failed job has settled: its buffers are freed. */
  private void releaseOnceSettled(JobScope scope) {
    try {
      scope.awaitSettled();
    } catch (WorkerInterrupted | RunAborted e) {
      // the watchdog found a deadlock, or a controlled run ended: no next holder can be helped by waiting
    } finally {
      resources.releaseLocksOfCurrentThread();
    }
  }

  /** Whether {@code e} ended a wait of the calling thread because another thread of its job failed. */
  private boolean cancelledWait(Throwable e) {
    return e instanceof WorkerInterrupted && waits.cancelled(Thread.currentThread());
  }

  /** A leak found when a job closed: recorded in the log and passed to the gate. */
  void leaked(Violation v) {
    log.recordViolation(v);
    gate.failed(v);
  }

  /** The step a leak found at {@code position} is reported at. */
  String leakStep(String position) {
    return leakStep.apply(position);
  }

  /** The result of {@code scope}'s job, once it has closed. */
  void publish(JobScope scope, JobResult r) {
    try {
      results.accept(r);
    } finally {
      contexts.exit(scope);
    }
  }

  /** Where the run's threads wait: what a failed job cancels its other threads' waits through. */
  WaitRegistry waits() {
    return waits;
  }

  /** The device's contexts: who is in flight, and the reopening after a poison. */
  DeviceContexts contexts() {
    return contexts;
  }

  Device device() {
    return resources.device();
  }
}
