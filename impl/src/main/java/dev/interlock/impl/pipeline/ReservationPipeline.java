package dev.interlock.impl.pipeline;

import dev.interlock.impl.api.Job;
import dev.interlock.impl.api.Probe;
import dev.interlock.impl.api.Semaphore;
import dev.interlock.impl.api.Worker;
import dev.interlock.model.design.Sizes;
import java.util.List;
import java.util.concurrent.locks.Lock;

/** Implements designs/reservation.design: vram_units reserved before staging, the h2d upload outside compute_mtx. */
public final class ReservationPipeline extends HandWrittenPipeline<ReservationPipeline.Shared> {
  /** Staged bytes in designs/reservation.design. */
  public static final long DEFAULT_STAGED = 12 * Sizes.GIB;
  /** Scratch bytes in designs/reservation.design. */
  public static final long DEFAULT_SCRATCH = 2 * Sizes.GIB;
  /** vram_units taken per partition in designs/reservation.design (one per GiB of staged + scratch). */
  public static final int DEFAULT_UNITS = 14;

  private static final String VRAM_UNITS = "vram_units";
  private static final String H2D = "kernel h2d uses staged";

  private final int units;
  private final String acquireUnits;
  private final String releaseUnits;

  /** The run's compute_mtx and vram_units. */
  record Shared(Lock computeMtx, Semaphore vramUnits) {}

  /** With the design file's sizes: 12GiB staged, 2GiB scratch, 14 units. */
  public ReservationPipeline() {
    this(DEFAULT_STAGED, DEFAULT_SCRATCH, DEFAULT_UNITS);
  }

  public ReservationPipeline(long stagedBytes, long scratchBytes, int units) {
    super(stagedBytes, scratchBytes, r -> new Shared(r.mutex(COMPUTE_MTX), r.semaphore(VRAM_UNITS)));
    this.units = (int) HandWrittenPipelines.positive("units", units);
    this.acquireUnits = "acquire " + VRAM_UNITS + " " + this.units;
    this.releaseUnits = "release " + VRAM_UNITS + " " + this.units;
  }

  @Override
  public Object runJob(Worker w, Job job) {
    Probe probe = w.probe();
    Shared shared = locks(w);
    Semaphore vramUnits = shared.vramUnits();

    probe.interval(SYNTHESIZE, this::synthesize);
    probe.step(acquireUnits, () -> vramUnits.acquire(units));
    try {
      // alloc staged, the h2d upload outside compute_mtx, the compute under it; staged is freed there, and after it
      // on any way out before that
      StagedFreedUnderCompute staged = new StagedFreedUnderCompute(this, w, allocateStaged(w));
      try {
        kernel(w, H2D, "h2d", List.of(staged.buffer()), this::upload);
        holding(probe, LOCK_COMPUTE, shared.computeMtx(), UNLOCK_COMPUTE, staged::computeThenFree);
      } finally {
        staged.freeOnWayOut();
      }
    } finally {
      probe.step(releaseUnits, () -> vramUnits.release(units));
    }
    probe.interval(B_G2_MSM, this::bG2Msm);
    probe.interval(EPILOGUE, this::epilogue);
    return null;
  }

  private void upload() {
    // the host-to-device copy of the staged inputs would run here
  }
}
