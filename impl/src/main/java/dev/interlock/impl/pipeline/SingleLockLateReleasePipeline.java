package dev.interlock.impl.pipeline;

import dev.interlock.impl.device.Device;
import dev.interlock.impl.device.DeviceBuffer;
import dev.interlock.impl.device.KernelRun;
import dev.interlock.impl.engine.Job;
import dev.interlock.impl.engine.Pipeline;
import dev.interlock.impl.engine.Probe;
import dev.interlock.impl.engine.Resources;
import dev.interlock.impl.engine.Worker;
import dev.interlock.model.design.Sizes;
import java.util.List;
import java.util.concurrent.locks.Lock;

/** Implements designs/single-lock-late-release.design: like single-lock, but compute_mtx is held through b_g2_msm. */
public final class SingleLockLateReleasePipeline implements Pipeline {
  /** Staged bytes in designs/single-lock-late-release.design. */
  public static final long DEFAULT_STAGED = 12 * Sizes.GIB;
  /** Scratch bytes in designs/single-lock-late-release.design. */
  public static final long DEFAULT_SCRATCH = 2 * Sizes.GIB;

  private static final String COMPUTE_MTX = "compute_mtx";
  private static final String SYNTHESIZE = "cpu synthesize";
  private static final String LOCK_COMPUTE = "lock " + COMPUTE_MTX;
  private static final String UNLOCK_COMPUTE = "unlock " + COMPUTE_MTX;
  private static final String NTT_MSM = "kernel ntt_msm uses staged scratch";
  private static final String FREE_SCRATCH = "free scratch";
  private static final String FREE_STAGED = "free staged";
  private static final String B_G2_MSM = "cpu b_g2_msm";
  private static final String EPILOGUE = "cpu epilogue";

  private final long stagedBytes;
  private final long scratchBytes;
  private final String allocStaged;
  private final String allocScratch;

  /** The run's locks, looked up once per engine run (the engine makes a pipeline per run). */
  private volatile Locks locks;

  private static final class Locks {
    final Resources resources;
    final Lock computeMtx;

    Locks(Resources resources) {
      this.resources = resources;
      this.computeMtx = resources.mutex(COMPUTE_MTX);
    }
  }

  /** With the design file's sizes: 12GiB staged, 2GiB scratch. */
  public SingleLockLateReleasePipeline() {
    this(DEFAULT_STAGED, DEFAULT_SCRATCH);
  }

  public SingleLockLateReleasePipeline(long stagedBytes, long scratchBytes) {
    this.stagedBytes = HandWrittenPipelines.positive("staged", stagedBytes);
    this.scratchBytes = HandWrittenPipelines.positive("scratch", scratchBytes);
    this.allocStaged = "alloc staged " + Sizes.format(stagedBytes);
    this.allocScratch = "alloc scratch " + Sizes.format(scratchBytes);
  }

  private Locks locks(Worker w) {
    Locks l = locks;
    if (l == null || l.resources != w.resources()) {
      l = new Locks(w.resources());
      locks = l;
    }
    return l;
  }

  @Override
  public Object runJob(Worker w, Job job) {
    Probe probe = w.probe();
    Device device = w.device();
    Lock computeMtx = locks(w).computeMtx;

    probe.interval(SYNTHESIZE, this::synthesize);
    probe.step(LOCK_COMPUTE, computeMtx::lock);
    try {
      DeviceBuffer staged = probe.step(allocStaged, () -> device.allocate(w.name(), "staged", stagedBytes, false));
      try {
        DeviceBuffer scratch = probe.step(allocScratch, () -> device.allocate(w.name(), "scratch", scratchBytes, false));
        try {
          KernelRun k = probe.begin(NTT_MSM, () -> device.launch(w.name(), "ntt_msm", List.of(staged, scratch), this::nttMsm));
          try {
            probe.end(NTT_MSM, k::await);
          } finally {
            if (probe.silent()) {
              k.await(); // the end step did not run (run aborted there): never leave a kernel running
            }
          }
        } finally {
          probe.step(FREE_SCRATCH, () -> device.free(scratch));
        }
      } finally {
        probe.step(FREE_STAGED, () -> device.free(staged));
      }
      probe.interval(B_G2_MSM, this::bG2Msm);
    } finally {
      probe.step(UNLOCK_COMPUTE, computeMtx::unlock);
    }
    probe.interval(EPILOGUE, this::epilogue);
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
