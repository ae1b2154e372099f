package dev.interlock.impl.engine;

import dev.interlock.impl.ViolationException;
import dev.interlock.impl.device.Device;
import dev.interlock.impl.device.MemoryInfo;
import dev.interlock.impl.device.OutOfDeviceMemoryException;
import dev.interlock.impl.sync.RunAborted;
import dev.interlock.impl.sync.StepGate;
import dev.interlock.impl.sync.WaitRegistry;
import dev.interlock.impl.sync.WorkerInterrupted;
import dev.interlock.model.state.Phase;
import dev.interlock.model.state.Violation;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The step boundary of one worker thread: every step passes the gate, runs, and is recorded.
 *
 * <p>Pipelines wrap each step of their work in a probe call whose text is the step as written in
 * the design ({@code "alloc staged 12GiB"}), which is what ties real code to the model. Once a
 * step has failed or the run was aborted, the probe turns silent: the pipeline's cleanup code
 * (finally blocks) runs its operations directly, unrecorded, as they are not part of the trace.
 */
public final class Probe {
  private final String thread;
  private final StepGate gate;
  private final EventLog log;
  private final Device device;
  private final WaitRegistry waits;
  private volatile String position = "not started";
  private boolean silent;
  private int job = -1;

  Probe(String thread, StepGate gate, EventLog log, Device device, WaitRegistry waits) {
    this.thread = thread;
    this.gate = gate;
    this.log = log;
    this.device = device;
    this.waits = waits;
  }

  /** A step that is not an interval. */
  public void step(String text, Runnable op) {
    transition(text, Optional.empty(), () -> {
      op.run();
      return null;
    });
  }

  /** A step that is not an interval and returns a value (an allocation). */
  public <T> T step(String text, Supplier<T> op) {
    return transition(text, Optional.empty(), op);
  }

  /** The begin transition of an interval (a kernel launch). */
  public <T> T begin(String text, Supplier<T> op) {
    return transition(text, Optional.of(Phase.BEGIN), op);
  }

  /** The end transition of an interval (waiting for the kernel). */
  public void end(String text, Runnable op) {
    transition(text, Optional.of(Phase.END), () -> {
      op.run();
      return null;
    });
  }

  /** A whole interval of CPU work: begin, the work, end. */
  public void interval(String text, Runnable work) {
    begin(text, () -> null);
    work.run();
    end(text, () -> {});
  }

  private <T> T transition(String text, Optional<Phase> phase, Supplier<T> op) {
    if (silent) {
      return op.get();
    }
    try {
      gate.before(text, phase);
    } catch (RunAborted e) {
      silent = true;
      throw e;
    }
    position = (phase.isPresent() ? phase.get().label() + " of '" : "at '") + text + "'";
    T result;
    if (atomic(text, phase)) {
      synchronized (log) {
        result = runAndRecord(text, phase, op);
      }
    } else {
      result = runAndRecord(text, phase, op);
    }
    waits.progressed();
    position = (phase.equals(Optional.of(Phase.BEGIN)) ? "inside '" : "after '") + text + "'";
    return result;
  }

  /** Runs the step's operation and records it, or its failure. */
  private <T> T runAndRecord(String text, Optional<Phase> phase, Supplier<T> op) {
    T result;
    try {
      result = op.get();
    } catch (ViolationException e) {
      silent = true;
      Violation v = e.violation();
      MemoryInfo at = e instanceof OutOfDeviceMemoryException oom ? oom.memory() : device.memory();
      log.recordFailure(thread, job, text, phase, at, v);
      gate.failed(v);
      throw new StepFailed(text, v, at, e);
    } catch (RunAborted | WorkerInterrupted e) {
      silent = true;
      throw e;
    }
    log.record(thread, job, text, phase, device::memory);
    return result;
  }

  /**
   * Whether a step is recorded together with its operation, under the log's monitor: steps that
   * never wait and that others' steps can depend on (unlock, release, alloc, free, trim, a kernel
   * launch). Their event then sits exactly where the operation took effect, so a lock or acquire
   * they enable, which is recorded after it succeeds, always comes later in the log, and device
   * bytes read at any event agree with the log's order. Waiting steps (lock, acquire, sync) and a
   * kernel's end, which runs its work, are recorded just after their operation.
   */
  private static boolean atomic(String text, Optional<Phase> phase) {
    return text.startsWith("unlock ") || text.startsWith("release ") || text.startsWith("alloc ") || text.startsWith("free ")
        || text.equals("trim") || (text.startsWith("kernel ") && phase.equals(Optional.of(Phase.BEGIN)));
  }

  /** Where the thread is, for deadlock reports: e.g. "at 'lock compute_mtx'". */
  public String position() {
    return position;
  }

  /** The thread's name, {@code role#i}. */
  public String thread() {
    return thread;
  }

  /** Whether a step failed or the run was aborted: the job is unwinding. */
  public boolean silent() {
    return silent;
  }

  /** Back to recording, for the thread's next job. */
  void rearm(int nextJob) {
    silent = false;
    job = nextJob;
  }

  StepGate gate() {
    return gate;
  }
}
