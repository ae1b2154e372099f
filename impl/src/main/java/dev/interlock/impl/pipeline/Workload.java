package dev.interlock.impl.pipeline;

import dev.interlock.impl.api.Device;
import dev.interlock.impl.api.DeviceBuffer;
import dev.interlock.impl.api.Job;
import dev.interlock.impl.api.KernelRun;
import dev.interlock.model.design.Role;
import java.util.List;
import java.util.Map;

/**
 * The real work behind a design's steps, for the interpreter: what each {@code cpu} interval
 * computes, what each {@code kernel} launches, and how large each buffer really is.
 *
 * <p>{@link #NONE} does no work and allocates what the design says: the pure concurrency skeleton.
 * A proving workload binds {@code cpu synthesize} to witness synthesis, {@code kernel ntt_msm} to
 * the NTT and MSM kernels, and sizes {@code staged} and {@code scratch} from the circuit.
 */
public interface Workload {

  /** Per-job state the bound steps share (the partition's witness, intermediate vectors, the proof). */
  interface JobState {
    /** The value the job returns (a proof), or null. */
    default Object result() {
      return null;
    }
  }

  /**
   * Checks, before any job runs, that this workload can run every {@code cpu} and {@code kernel} step of
   * {@code role}.
   *
   * @throws IllegalArgumentException naming the first step it has no work for
   */
  default void bind(Role role) {}

  /** Fresh state for a job. */
  default JobState start(Job job) {
    return new JobState() {};
  }

  /** Bytes to allocate for {@code buffer} where the design says {@code designBytes}. */
  default long bytes(String buffer, long designBytes) {
    return designBytes;
  }

  /** Runs CPU interval {@code name} of a job. */
  default void cpu(String name, JobState state) {}

  /**
   * Launches kernel {@code name} of a job on {@code device}, over the job's live {@code buffers}
   * ({@code uses} in the design's order); the caller awaits the returned run.
   */
  default KernelRun kernel(String name, String owner, Device device, List<DeviceBuffer> uses, Map<String, DeviceBuffer> buffers, JobState state) {
    return device.launch(owner, name, uses, () -> {});
  }

  /** No work: the design's skeleton. */
  Workload NONE = new Workload() {};
}
