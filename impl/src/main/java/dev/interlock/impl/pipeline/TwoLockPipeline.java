package dev.interlock.impl.pipeline;

import dev.interlock.impl.api.Device;
import dev.interlock.impl.api.DeviceBuffer;
import dev.interlock.impl.api.Job;
import dev.interlock.impl.api.Probe;
import dev.interlock.impl.api.Resources;
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
  static final class Locks {
    final Lock memMtx;
    final Lock computeMtx;

    Locks(Resources resources) {
      this.memMtx = resources.mutex(MEM_MTX);
      this.computeMtx = resources.mutex(COMPUTE_MTX);
    }
  }

  /** With the design file's sizes: 12GiB staged, 2GiB scratch. */
  public TwoLockPipeline() {
    this(DEFAULT_STAGED, DEFAULT_SCRATCH);
  }

  public TwoLockPipeline(long stagedBytes, long scratchBytes) {
    super(stagedBytes, scratchBytes, Locks::new);
  }

  @Override
  public Object runJob(Worker w, Job job) {
    Probe probe = w.probe();
    Device device = w.device();
    Locks l = locks(w);
    Lock memMtx = l.memMtx;
    Lock computeMtx = l.computeMtx;

    probe.interval(SYNTHESIZE, this::synthesize);

    // staging under mem_mtx
    DeviceBuffer staged;
    probe.step(LOCK_MEM, memMtx::lock);
    try {
      staged = probe.step(allocStaged, () -> device.allocate(w.name(), "staged", stagedBytes, false));
    } finally {
      probe.step(UNLOCK_MEM, memMtx::unlock);
    }

    // compute under compute_mtx; staged is freed there, and by the outer finally on any way out before that
    boolean stagedFreed = false;
    try {
      probe.step(LOCK_COMPUTE, computeMtx::lock);
      try {
        computeOn(w, staged);
        stagedFreed = true;
        probe.step(FREE_STAGED, () -> device.free(staged));
      } finally {
        probe.step(UNLOCK_COMPUTE, computeMtx::unlock);
      }
    } finally {
      if (!stagedFreed) {
        probe.step(FREE_STAGED, () -> device.free(staged));
      }
    }

    probe.interval(B_G2_MSM, this::bG2Msm);
    probe.interval(EPILOGUE, this::epilogue);
    return null;
  }
}
