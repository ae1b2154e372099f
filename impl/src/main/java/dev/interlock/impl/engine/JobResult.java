package dev.interlock.impl.engine;

import dev.interlock.impl.api.DriverError;
import dev.interlock.impl.api.Job;
import dev.interlock.impl.api.MemoryInfo;
import dev.interlock.impl.fault.Fault;
import dev.interlock.model.state.Violation;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/** How a job ended: every job of a run gets exactly one. */
public sealed interface JobResult permits JobResult.Completed, JobResult.Swallowed, JobResult.Failed, JobResult.Faulted,
    JobResult.Aborted {

  Job job();

  /** The worker that took it ({@code role#i}), or "-" when no worker did. */
  String worker();

  /** The job ran to its end; {@code value} is what the pipeline returned (a proof), or null. */
  record Completed(Job job, String worker, Object value) implements JobResult {
    public Completed {
      Objects.requireNonNull(job, "job");
    }
  }

  /**
   * The job ran to its end, but an allocation of it failed and the design ignored the failure ({@code on oom ignore}):
   * {@code value} was computed without the buffer.
   *
   * <p>Why apart from {@link Completed} and {@link Failed}: nothing crashed, yet the result is wrong, which is the
   * verdict {@code SWALLOWED_OOM}, never a success.
   *
   * @param step           the first step of the job that went wrong: its first ignored allocation, or, in a job
   *                       without one, its first kernel that ran without a missing kept buffer
   * @param swallowed      each ignored failure of the job, as the engine saw it (kind {@code SWALLOWED_OOM}, the
   *                       device's message); empty when only a kept buffer that an earlier job failed to allocate was
   *                       missing
   * @param withoutBuffers the kernels of the job that ran without a buffer whose allocation failed
   */
  record Swallowed(Job job, String worker, Object value, String step, List<Violation> swallowed,
      List<MissingUse> withoutBuffers) implements JobResult {
    public Swallowed {
      Objects.requireNonNull(job, "job");
      Objects.requireNonNull(step, "step");
      swallowed = List.copyOf(swallowed);
      withoutBuffers = List.copyOf(withoutBuffers);
      if (swallowed.isEmpty() && withoutBuffers.isEmpty()) {
        throw new IllegalArgumentException("a swallowed job has an ignored failure or a kernel run without its buffer");
      }
    }
  }

  /**
   * A step failed, or the job ended holding buffers: which step, why, the device at that point, and the driver's error
   * where a real device's driver made the failure (its out-of-memory, say); empty on the simulated device.
   */
  record Failed(Job job, String worker, String step, Violation violation, MemoryInfo memory,
      Optional<DriverError> driverError) implements JobResult {
    public Failed {
      Objects.requireNonNull(job, "job");
      Objects.requireNonNull(step, "step");
      Objects.requireNonNull(violation, "violation");
      Objects.requireNonNull(driverError, "driverError");
    }

    /** A failure that no driver reported (the model's rules, a deadlock, a leak). */
    public Failed(Job job, String worker, String step, Violation violation, MemoryInfo memory) {
      this(job, worker, step, violation, memory, Optional.empty());
    }
  }

  /**
   * An injected fault ended the job (docs/faults.md): which step, which fault, and the device then. Not the design's
   * failure: a real one is {@link Failed}.
   */
  record Faulted(Job job, String worker, String step, Fault fault, MemoryInfo memory) implements JobResult {
    public Faulted {
      Objects.requireNonNull(job, "job");
      Objects.requireNonNull(step, "step");
      Objects.requireNonNull(fault, "fault");
      Objects.requireNonNull(memory, "memory");
    }
  }

  /** A controlled run ended (another job failed, or a deadlock) before this job could finish. */
  record Aborted(Job job, String worker, String why) implements JobResult {
    public Aborted {
      Objects.requireNonNull(job, "job");
    }
  }
}
