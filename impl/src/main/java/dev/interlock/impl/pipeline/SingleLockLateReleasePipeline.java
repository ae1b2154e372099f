package dev.interlock.impl.pipeline;

import dev.interlock.impl.api.Device;
import dev.interlock.impl.api.DeviceBuffer;
import dev.interlock.impl.api.Job;
import dev.interlock.impl.api.Probe;
import dev.interlock.impl.api.Worker;
import dev.interlock.model.design.Sizes;
import java.util.concurrent.locks.Lock;

/** Implements designs/single-lock-late-release.design: like single-lock, but compute_mtx is held through b_g2_msm. */
public final class SingleLockLateReleasePipeline extends HandWrittenPipeline<Lock> {
  /** Staged bytes in designs/single-lock-late-release.design. */
  public static final long DEFAULT_STAGED = 12 * Sizes.GIB;
  /** Scratch bytes in designs/single-lock-late-release.design. */
  public static final long DEFAULT_SCRATCH = 2 * Sizes.GIB;

  /** With the design file's sizes: 12GiB staged, 2GiB scratch. */
  public SingleLockLateReleasePipeline() {
    this(DEFAULT_STAGED, DEFAULT_SCRATCH);
  }

  public SingleLockLateReleasePipeline(long stagedBytes, long scratchBytes) {
    super(stagedBytes, scratchBytes, r -> r.mutex(COMPUTE_MTX));
  }

  @Override
  public Object runJob(Worker w, Job job) {
    Probe probe = w.probe();
    Device device = w.device();
    Lock computeMtx = locks(w);

    probe.interval(SYNTHESIZE, this::synthesize);
    // stage, compute and free under compute_mtx, held through b_g2_msm
    holding(probe, LOCK_COMPUTE, computeMtx, UNLOCK_COMPUTE, () -> {
      DeviceBuffer staged = allocateStaged(w);
      try {
        computeOn(w, staged);
      } finally {
        probe.step(FREE_STAGED, () -> device.free(staged));
      }
      probe.interval(B_G2_MSM, this::bG2Msm);
    });
    probe.interval(EPILOGUE, this::epilogue);
    return null;
  }
}
