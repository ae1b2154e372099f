package dev.interlock.impl.pipeline;

import dev.interlock.impl.api.Device;
import dev.interlock.impl.api.DeviceBuffer;
import dev.interlock.impl.api.Job;
import dev.interlock.impl.api.Probe;
import dev.interlock.impl.api.Resources;
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
  static final class Shared {
    final Lock computeMtx;
    final Semaphore vramUnits;

    Shared(Resources resources) {
      this.computeMtx = resources.mutex(COMPUTE_MTX);
      this.vramUnits = resources.semaphore(VRAM_UNITS);
    }
  }

  /** With the design file's sizes: 12GiB staged, 2GiB scratch, 14 units. */
  public ReservationPipeline() {
    this(DEFAULT_STAGED, DEFAULT_SCRATCH, DEFAULT_UNITS);
  }

  public ReservationPipeline(long stagedBytes, long scratchBytes, int units) {
    super(stagedBytes, scratchBytes, Shared::new);
    this.units = (int) HandWrittenPipelines.positive("units", units);
    this.acquireUnits = "acquire " + VRAM_UNITS + " " + this.units;
    this.releaseUnits = "release " + VRAM_UNITS + " " + this.units;
  }

  @Override
  public Object runJob(Worker w, Job job) {
    Probe probe = w.probe();
    Device device = w.device();
    Shared s = locks(w);
    Lock computeMtx = s.computeMtx;
    Semaphore vramUnits = s.vramUnits;

    probe.interval(SYNTHESIZE, this::synthesize);
    probe.step(acquireUnits, () -> vramUnits.acquire(units));
    try {
      DeviceBuffer staged = probe.step(allocStaged, () -> device.allocate(w.name(), "staged", stagedBytes, false));
      // staged is freed under compute_mtx, and by the finally below on any way out before that
      boolean stagedFreed = false;
      try {
        kernel(w, H2D, "h2d", List.of(staged), this::upload);
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
