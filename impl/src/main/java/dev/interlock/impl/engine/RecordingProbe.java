package dev.interlock.impl.engine;

import dev.interlock.impl.ViolationException;
import dev.interlock.impl.api.Device;
import dev.interlock.impl.api.DriverError;
import dev.interlock.impl.api.KernelRun;
import dev.interlock.impl.api.MemoryInfo;
import dev.interlock.impl.api.Probe;
import dev.interlock.impl.device.DeviceException;
import dev.interlock.impl.device.OutOfDeviceMemoryException;
import dev.interlock.impl.fault.Fault;
import dev.interlock.impl.fault.FaultKind;
import dev.interlock.impl.fault.Faults;
import dev.interlock.impl.fault.InjectedFault;
import dev.interlock.impl.sync.RunAborted;
import dev.interlock.impl.sync.StepGate;
import dev.interlock.impl.sync.WaitRegistry;
import dev.interlock.impl.sync.WorkerInterrupted;
import dev.interlock.model.state.Phase;
import dev.interlock.model.state.Violation;
import dev.interlock.model.state.ViolationKind;
import dev.interlock.model.step.Acquire;
import dev.interlock.model.step.Alloc;
import dev.interlock.model.step.Cpu;
import dev.interlock.model.step.Free;
import dev.interlock.model.step.Choose;
import dev.interlock.model.step.IfFree;
import dev.interlock.model.step.Interval;
import dev.interlock.model.step.Join;
import dev.interlock.model.step.Kernel;
import dev.interlock.model.step.Lock;
import dev.interlock.model.step.OnOom;
import dev.interlock.model.step.Release;
import dev.interlock.model.step.Signal;
import dev.interlock.model.step.Spawn;
import dev.interlock.model.step.Step;
import dev.interlock.model.step.Steps;
import dev.interlock.model.step.Sync;
import dev.interlock.model.step.SyncStream;
import dev.interlock.model.step.Trim;
import dev.interlock.model.step.Unlock;
import dev.interlock.model.step.Wait;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The engine's {@link Probe}: the step boundary of one worker thread, where every step passes the gate, runs, and
 * is recorded.
 *
 * <p>Pipelines wrap each step of their work in a probe call that names the design's step
 * ({@code alloc staged 12GiB}), which is what ties real code to the model: as text (the {@link Probe} methods,
 * parsed once per text by the design language's parser), or as the model's {@link Step} (the methods the design
 * interpreter, which has its steps parsed already, calls; they stay off the api so that it needs no model types). Once a
 * step has failed or the run was aborted, the probe turns silent: the pipeline's cleanup code
 * (finally blocks) runs its operations directly, unrecorded, as they are not part of the trace.
 */
public final class RecordingProbe implements Probe {
  private final String thread;
  private final StepGate gate;
  private final EventLog log;
  private final Device device;
  private final WaitRegistry waits;
  private final Faults faults;
  private volatile String position = "not started";
  private boolean silent;
  private int job = -1;
  private JobScope scope;
  /** The next transition is the last of the thread's body: its part of the job ends inside it. */
  private boolean endingBody;
  /** The branch an {@code if free} step took and the free bytes it read, for its event. */
  private Phase branch;
  private long freeRead;
  /** An ignored allocation failure of this transition, recorded with it ({@code SWALLOWED_OOM}). */
  private Violation swallowing;
  /** The missing buffers a kernel launched in this transition runs without, recorded with it. */
  private List<String> without;

  RecordingProbe(String thread, StepGate gate, EventLog log, Device device, WaitRegistry waits, Faults faults) {
    this.faults = faults;
    this.thread = thread;
    this.gate = gate;
    this.log = log;
    this.device = device;
    this.waits = waits;
  }

  @Override
  public void step(String step, Runnable op) {
    step(StepTexts.step(step), op);
  }

  @Override
  public <T> T step(String step, Supplier<T> op) {
    return step(StepTexts.step(step), op);
  }

  @Override
  public <T> T begin(String step, Supplier<T> op) {
    return begin(StepTexts.interval(step), op);
  }

  @Override
  public void end(String step, Runnable op) {
    end(StepTexts.interval(step), op);
  }

  @Override
  public void interval(String step, Runnable work) {
    interval(StepTexts.cpu(step), work);
  }

  /** A step that is not an interval. */
  public void step(Step step, Runnable op) {
    transition(step, Optional.empty(), () -> {
      op.run();
      return null;
    });
  }

  /** A step that is not an interval and returns a value (an allocation). */
  public <T> T step(Step step, Supplier<T> op) {
    return transition(step, Optional.empty(), op);
  }

  /** The begin transition of an interval (a kernel launch). */
  public <T> T begin(Interval step, Supplier<T> op) {
    return transition(step, Optional.of(Phase.BEGIN), op);
  }

  /** The end transition of an interval (waiting for the kernel). */
  public void end(Interval step, Runnable op) {
    transition(step, Optional.of(Phase.END), () -> {
      op.run();
      return null;
    });
  }

  /** A whole interval of CPU work: begin, the work, end. */
  public void interval(Cpu step, Runnable work) {
    begin(step, () -> null);
    work.run();
    end(step, () -> {});
  }

  /**
   * The check of an {@code if free} step: one transition that reads the device's free bytes
   * (cudaMemGetInfo: vram minus live and cached bytes) and says whether the then branch runs. Its
   * event has the branch as its phase ({@link Phase#THEN} or {@link Phase#ELSE}) and the bytes read as
   * {@link Event#free()}. With {@code lastOfBody}, the block ends the thread's body: when the branch
   * taken has no steps, this transition is the body's last (see {@link #endsBody()}).
   */
  public boolean ifFree(IfFree step, boolean lastOfBody) {
    return transition(step, Optional.empty(), () -> {
      long free = device.reportedFree();
      boolean then = step.holds(free);
      branch = then ? Phase.THEN : Phase.ELSE;
      freeRead = free;
      if (lastOfBody && (then ? step.then() : step.otherwise()).isEmpty()) {
        endingBody = true;
      }
      return then;
    });
  }

  /**
   * A {@code choose} step: one transition, whose path the gate decides ({@link StepGate#path}: a replay's trace, a
   * random schedule's chooser, or at random in free runs); its event has the path as its phase ({@link Phase#THEN}
   * for the first, {@link Phase#ELSE} for the one after {@code or}). Returns whether the first path runs. With
   * {@code lastOfBody}, as for {@link #ifFree}.
   */
  public boolean choose(Choose step, boolean lastOfBody) {
    return transition(step, Optional.empty(), () -> {
      boolean first = gate.path() == Phase.THEN;
      branch = first ? Phase.THEN : Phase.ELSE;
      if (lastOfBody && (first ? step.first() : step.second()).isEmpty()) {
        endingBody = true;
      }
      return first;
    });
  }

  /**
   * An allocation whose failure the design handles ({@code on oom}, its handler or {@code ignore}): one transition
   * that runs {@code op}, which allocates. When the device runs out of memory (its {@link OutOfDeviceMemoryException},
   * CUDA_ERROR_OUT_OF_MEMORY on a GPU) the transition still moves, with phase {@link Phase#OOM}, as the model's does;
   * for {@code ignore}, {@code ignored} runs inside it (it marks the buffer missing) and the transition is the violation
   * {@code SWALLOWED_OOM}, which ends the run's trace while the job goes on. An injected allocation fault
   * ({@code --faults alloc...}) counts as out of memory here: the handler is the job's own error handling, which cannot
   * tell the two apart. With {@code lastOfBody}, the transition is the body's last unless a handler (on failure) or
   * the handler's else steps (on success) run next.
   *
   * @return whether the allocation succeeded (false: the handler, if any, runs next)
   */
  public boolean alloc(Alloc step, boolean lastOfBody, Runnable op, Runnable ignored) {
    if (!step.fallible()) {
      throw new IllegalArgumentException("'" + step.text() + "' has no on oom: its failure fails the job");
    }
    return transition(step, Optional.empty(), () -> {
      String why;
      try {
        op.run();
        endingBody |= lastOfBody && !(step.onOom() instanceof OnOom.Handle h && !h.success().isEmpty());
        return true;
      } catch (OutOfDeviceMemoryException e) {
        why = e.getMessage();
      } catch (InjectedFault e) {
        if (e.fault().kind() != FaultKind.ALLOC) {
          throw e;
        }
        why = e.getMessage();
      }
      branch = Phase.OOM;
      if (step.onOom() instanceof OnOom.Ignore) {
        ignored.run();
        swallowing = new Violation(ViolationKind.SWALLOWED_OOM, why + "; on oom ignore: " + thread
            + " goes on without " + step.buffer());
      }
      endingBody |= lastOfBody && step.onOom().steps().isEmpty();
      return false;
    });
  }

  /**
   * Says, from inside a kernel launch's operation ({@link #begin}), that the kernel runs without {@code buffers}:
   * missing buffers, whose allocation failed and was ignored. The launch's transition records it as a
   * {@link MissingUse}, in the run's log and the job's result.
   */
  public void launchesWithout(List<String> buffers) {
    if (!silent && !buffers.isEmpty()) {
      without = List.copyOf(buffers);
    }
  }

  /**
   * Says that the thread's next transition is the last of its body for this job: its part of the job
   * ends inside that transition, after the step's operation and before its event is recorded, so a
   * job that closes then (frees kept buffers, or leaks) does so in the same transition, as in the model.
   */
  public void endsBody() {
    endingBody = true;
  }

  private <T> T transition(Step step, Optional<Phase> phase, Supplier<T> op) {
    if (silent) {
      return op.get();
    }
    if (scope != null && scope.cancelled()) {
      goSilent();
      throw new JobCancelled(thread + ": its job failed on another of its threads");
    }
    try {
      gate.before(step, phase);
    } catch (RunAborted e) {
      goSilent();
      throw e;
    }
    position = (phase.isPresent() ? phase.get().label() + " of '" : "at '") + step.text() + "'";
    T result;
    if (faults.injects(FaultKind.EXCEPTION) || faults.injects(FaultKind.INTERRUPT)) {
      op = injecting(step, op);
    }
    if (!phase.equals(Optional.of(Phase.END)) && step.accept(RECORDED_WITH_OPERATION)) {
      synchronized (log) {
        result = runAndRecord(step, phase, op);
      }
    } else if (step instanceof Sync && !gate.controlled()) {
      result = synchronizeInOrder(step, op);
    } else {
      result = runAndRecord(step, phase, op);
    }
    waits.progressed();
    position = (phase.equals(Optional.of(Phase.BEGIN)) ? "inside '" : "after '") + step.text() + "'";
    return result;
  }

  /**
   * The step's operation with the engine's own injected faults around it: an exception thrown from the pipeline code
   * before the operation, or an interrupt of the thread during it (a wait it makes ends at once; one it did not make
   * still ends the step, after the operation took effect, when the thread sees the interrupt).
   */
  private <T> Supplier<T> injecting(Step step, Supplier<T> op) {
    return () -> {
      String name = Steps.subject(step);
      Optional<Fault> thrown = faults.draw(FaultKind.EXCEPTION, name, "the pipeline code of '" + step.text() + "' threw");
      if (thrown.isPresent()) {
        throw new InjectedFault(thrown.get());
      }
      Optional<Fault> interrupt = faults.draw(FaultKind.INTERRUPT, name, "worker thread interrupted during '" + step.text() + "'");
      if (interrupt.isEmpty()) {
        return op.get();
      }
      Thread.currentThread().interrupt();
      T done;
      try {
        done = op.get();
      } catch (WorkerInterrupted e) {
        throw new InjectedFault(interrupt.get());
      } finally {
        Thread.interrupted(); // the interrupt is consumed by this step's failure, not left for a later one
      }
      if (done instanceof KernelRun launched) {
        try {
          launched.await(); // the step launched a kernel that nobody will await once it fails: none is left running
        } catch (InjectedFault e) {
          // the interrupt is this step's fault
        }
      }
      throw new InjectedFault(interrupt.get());
    };
  }

  /**
   * A device-wide sync of a free run: it takes effect and is recorded inside the log's monitor once no
   * recorded kernel is in flight, so no other thread's kernel begin or end can fall between the two and
   * the log shows the sync where the model allows it. (A controlled run's scheduler orders it already.)
   */
  private <T> T synchronizeInOrder(Step step, Supplier<T> op) {
    synchronized (log) {
      waits.enter("sync (kernels running)");
      try {
        log.awaitNoKernelInFlight();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        goSilent();
        throw new WorkerInterrupted("sync");
      } finally {
        waits.exit();
      }
      return runAndRecord(step, Optional.empty(), op);
    }
  }

  /** This thread records no more for its job; the log forgets its kernels in flight. */
  private void goSilent() {
    silent = true;
    endingBody = false;
    swallowing = null;
    without = null;
    log.abandon(thread);
  }

  /** Runs the step's operation and records it, or its failure. */
  private <T> T runAndRecord(Step step, Optional<Phase> phase, Supplier<T> op) {
    T result;
    try {
      result = op.get();
    } catch (ViolationException e) {
      branch = null;
      goSilent();
      Violation v = e.violation();
      MemoryInfo at = e instanceof OutOfDeviceMemoryException oom ? oom.memory() : device.memory();
      Optional<DriverError> driver = e instanceof DeviceException de ? de.driverError() : Optional.empty();
      log.recordFailure(thread, job, step, phase, at, v);
      if (scope != null) {
        // the job's failure, before the gate ends a controlled run and another thread's abort could come first
        scope.fail(new JobResult.Failed(scope.job(), thread, step.text(), v, at, driver));
      }
      gate.failed(v);
      throw new StepFailed(step.text(), v, at, driver, e);
    } catch (InjectedFault e) {
      branch = null;
      goSilent();
      if (scope != null) {
        scope.fail(new JobResult.Faulted(scope.job(), thread, step.text(), e.fault(), device.memory()));
      }
      throw e;
    } catch (RunAborted | WorkerInterrupted | JobCancelled e) {
      branch = null;
      goSilent();
      throw e;
    }
    Optional<Phase> recorded = branch != null ? Optional.of(branch) : phase;
    Optional<Long> free = branch != null && step instanceof IfFree ? Optional.of(freeRead) : Optional.empty();
    branch = null;
    if (!endingBody || scope == null) {
      endingBody = false;
      synchronized (log) {
        log.record(thread, job, step, recorded, free, device::memory);
        recordNotes(step);
      }
      return result;
    }
    endingBody = false;
    synchronized (log) {
      JobScope.Closing closing = scope.end(thread, "after '" + step.text() + "'");
      log.record(thread, job, step, recorded, free, device::memory);
      recordNotes(step);
      if (closing != null) {
        closing.finish();
      }
    }
    return result;
  }

  /**
   * Records, right after the transition's event and in the same hold of the log's monitor, an ignored allocation
   * failure and the missing buffers of a kernel launch that the transition's operation noted; the job notes them too.
   */
  private void recordNotes(Step step) {
    Violation v = swallowing;
    List<String> w = without;
    swallowing = null;
    without = null;
    if (v != null) {
      log.recordSwallowed(v);
      if (scope != null) {
        scope.swallowed(step.text(), v);
      }
    }
    if (w != null) {
      MissingUse m = log.recordMissingUse(thread, job, step, w);
      if (scope != null) {
        scope.ranWithout(m);
      }
    }
  }

  /**
   * Whether a step's transition (its begin, for an interval; never its end) is recorded together
   * with its operation, under the log's monitor: steps that never wait and that others' steps can
   * depend on (unlock, release, alloc, free, trim, a kernel launch, sync stream, signal, spawn) or
   * that read the device ({@code if free}). Their event then sits exactly where the operation took
   * effect, so a lock, acquire or wait they enable, which is recorded after it succeeds, and a
   * spawned task's first step always come later in the log, and device bytes read at any event
   * (the free bytes an {@code if} read included) agree with the log's order. Waiting steps (lock,
   * acquire, sync, wait, join), cpu work and a kernel's end, which runs its work, are recorded just
   * after their operation.
   */
  private static final Step.Visitor<Boolean> RECORDED_WITH_OPERATION = new Step.Visitor<>() {
    @Override
    public Boolean lock(Lock s) {
      return false;
    }

    @Override
    public Boolean unlock(Unlock s) {
      return true;
    }

    @Override
    public Boolean acquire(Acquire s) {
      return false;
    }

    @Override
    public Boolean release(Release s) {
      return true;
    }

    @Override
    public Boolean alloc(Alloc s) {
      return true;
    }

    @Override
    public Boolean free(Free s) {
      return true;
    }

    @Override
    public Boolean trim(Trim s) {
      return true;
    }

    @Override
    public Boolean sync(Sync s) {
      return false;
    }

    @Override
    public Boolean kernel(Kernel s) {
      return true;
    }

    @Override
    public Boolean cpu(Cpu s) {
      return false;
    }

    @Override
    public Boolean syncStream(SyncStream s) {
      return true;
    }

    @Override
    public Boolean ifFree(IfFree s) {
      return true;
    }

    @Override
    public Boolean choose(Choose s) {
      return true;
    }

    @Override
    public Boolean spawn(Spawn s) {
      return true;
    }

    @Override
    public Boolean join(Join s) {
      return false;
    }

    @Override
    public Boolean signal(Signal s) {
      return true;
    }

    @Override
    public Boolean await(Wait s) {
      return false;
    }
  };

  /** Where the thread is, for deadlock reports: e.g. "at 'lock compute_mtx'". */
  public String position() {
    return position;
  }

  /** The thread's name, {@code role#i} or {@code role#i/TASK@J}. */
  @Override
  public String thread() {
    return thread;
  }

  /** Whether a step failed or the run was aborted: the job is unwinding. */
  @Override
  public boolean silent() {
    return silent;
  }

  /** Back to recording, for the thread's next job (a task thread's one job). */
  void rearm(int nextJob, JobScope nextScope) {
    silent = false;
    endingBody = false;
    branch = null;
    swallowing = null;
    without = null;
    job = nextJob;
    scope = nextScope;
  }

  StepGate gate() {
    return gate;
  }
}
