package dev.interlock.impl.pipeline;

import dev.interlock.impl.api.Device;
import dev.interlock.impl.api.DeviceBuffer;
import dev.interlock.impl.api.Job;
import dev.interlock.impl.api.KernelRun;
import dev.interlock.impl.api.Mutex;
import dev.interlock.impl.api.Pipeline;
import dev.interlock.impl.api.Probe;
import dev.interlock.impl.api.Worker;
import java.util.List;

/**
 * Implements designs/single-lock.design: stage, compute and free under compute_mtx, released before b_g2_msm.
 *
 * <p>The example to copy for a pipeline of your own: it uses only {@code dev.interlock.impl.api} and the JDK, and
 * names each step by its line in the design. Every step goes through the worker's {@link Probe}; cleanup runs in
 * finally blocks, which the probe keeps out of the trace once a step has failed.
 */
public final class SingleLockPipeline implements Pipeline {
  /** Staged bytes in designs/single-lock.design (12GiB). */
  public static final long DEFAULT_STAGED = 12L << 30;
  /** Scratch bytes in designs/single-lock.design (2GiB). */
  public static final long DEFAULT_SCRATCH = 2L << 30;

  private final long stagedBytes;
  private final long scratchBytes;
  /** The design's alloc steps for these sizes, made once: the probe parses each text once. */
  private final String allocStaged;
  private final String allocScratch;

  /** With the design file's sizes: 12GiB staged, 2GiB scratch. */
  public SingleLockPipeline() {
    this(DEFAULT_STAGED, DEFAULT_SCRATCH);
  }

  public SingleLockPipeline(long stagedBytes, long scratchBytes) {
    if (stagedBytes < 1 || scratchBytes < 1) {
      throw new IllegalArgumentException("sizes must be positive, got staged " + stagedBytes + ", scratch " + scratchBytes);
    }
    this.stagedBytes = stagedBytes;
    this.scratchBytes = scratchBytes;
    this.allocStaged = "alloc staged " + stagedBytes + "B";
    this.allocScratch = "alloc scratch " + scratchBytes + "B";
  }

  @Override
  public Object runJob(Worker w, Job job) {
    Probe probe = w.probe();
    Device device = w.device();
    Mutex computeMtx = w.resources().mutex("compute_mtx");

    probe.interval("cpu synthesize", this::synthesize);
    probe.step("lock compute_mtx", computeMtx::lock);
    try {
      DeviceBuffer staged = probe.step(allocStaged, () -> device.allocate(w.name(), "staged", stagedBytes, false));
      try {
        DeviceBuffer scratch = probe.step(allocScratch, () -> device.allocate(w.name(), "scratch", scratchBytes, false));
        try {
          KernelRun k = probe.begin("kernel ntt_msm uses staged scratch",
              () -> device.launch(w.name(), "ntt_msm", List.of(staged, scratch), this::nttMsm));
          try {
            probe.end("kernel ntt_msm uses staged scratch", k::await);
          } finally {
            if (probe.silent()) {
              k.await(); // the end step did not run (run aborted there): never leave a kernel running
            }
          }
        } finally {
          probe.step("free scratch", () -> device.free(scratch));
        }
      } finally {
        probe.step("free staged", () -> device.free(staged));
      }
    } finally {
      probe.step("unlock compute_mtx", computeMtx::unlock);
    }
    probe.interval("cpu b_g2_msm", this::bG2Msm);
    probe.interval("cpu epilogue", this::epilogue);
    return null;
  }

  private void synthesize() {
    // witness synthesis would run here; the simulated workload has none
  }

  private void nttMsm() {
    // the NTT and MSM kernels would run here
  }

  private void bG2Msm() {
    // the CPU MSM over G2 would run here
  }

  private void epilogue() {
    // proof assembly would run here
  }
}
