package dev.interlock.impl.pipeline;

import dev.interlock.impl.api.DeviceBuffer;
import dev.interlock.impl.api.Job;
import dev.interlock.impl.api.Probe;
import dev.interlock.impl.api.Worker;
import dev.interlock.model.design.Sizes;
import java.util.concurrent.locks.Lock;

/** Implements designs/two-lock.design: mem_mtx around staging, compute_mtx around the kernels (it can run out of memory). */
public final class TwoLockPipeline extends HandWrittenPipeline<TwoLockPipeline.Locks> {
  /** Staged bytes in designs/two-lock.design. */
  public static final long DEFAULT_STAGED = 12 * Sizes.GIB;
  /** Scratch bytes in designs/two-lock.design. */
  public static final long DEFAULT_SCRATCH = 2 * Sizes.GIB;

  private static final String MEM_MTX = "mem_mtx";
  private static final String LOCK_MEM = lock(MEM_MTX);
  private static final String UNLOCK_MEM = unlock(MEM_MTX);

  /** The run's mem_mtx and compute_mtx. */
  record Locks(Lock memMtx, Lock computeMtx) {}

  /** With the design file's sizes: 12GiB staged, 2GiB scratch. */
  public TwoLockPipeline() {
    this(DEFAULT_STAGED, DEFAULT_SCRATCH);
  }

  public TwoLockPipeline(long stagedBytes, long scratchBytes) {
    super(stagedBytes, scratchBytes, r -> new Locks(r.mutex(MEM_MTX), r.mutex(COMPUTE_MTX)));
  }

  @Override
  public Object runJob(Worker w, Job job) {
    Probe probe = w.probe();
    Locks l = locks(w);

    probe.interval(SYNTHESIZE, this::synthesize);

    // staging under mem_mtx
    DeviceBuffer buffer = holding(probe, LOCK_MEM, l.memMtx(), UNLOCK_MEM, () -> allocateStaged(w));

    // compute under compute_mtx; staged is freed there, and after it on any way out before that
    StagedFreedUnderCompute staged = new StagedFreedUnderCompute(this, w, buffer);
    try {
      holding(probe, LOCK_COMPUTE, l.computeMtx(), UNLOCK_COMPUTE, staged::computeThenFree);
    } finally {
      staged.freeOnWayOut();
    }

    probe.interval(B_G2_MSM, this::bG2Msm);
    probe.interval(EPILOGUE, this::epilogue);
    return null;
  }
}
