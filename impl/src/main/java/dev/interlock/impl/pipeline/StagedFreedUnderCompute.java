package dev.interlock.impl.pipeline;

import dev.interlock.impl.api.DeviceBuffer;
import dev.interlock.impl.api.Worker;

/**
 * A job's staged buffer that is allocated outside compute_mtx and freed under it, after the compute on it (two-lock,
 * reservation): {@link #computeThenFree} is the body of the pipeline's compute_mtx region; {@link #freeOnWayOut}, in a
 * finally block around the steps from the allocation on, frees it on any way out before that free (a failed step, an
 * aborted run), after compute_mtx is unlocked where it was locked.
 */
final class StagedFreedUnderCompute {
  private final HandWrittenPipeline<?> pipeline;
  private final Worker w;
  private final DeviceBuffer staged;
  /** Whether {@code free staged} was reached under compute_mtx (set before the step: it is not run twice). */
  private boolean freed;

  StagedFreedUnderCompute(HandWrittenPipeline<?> pipeline, Worker w, DeviceBuffer staged) {
    this.pipeline = pipeline;
    this.w = w;
    this.staged = staged;
  }

  DeviceBuffer buffer() {
    return staged;
  }

  /**
   * {@code alloc scratch}, {@code kernel ntt_msm uses staged scratch}, {@code free scratch} (the compute on staged),
   * then {@code free staged}.
   */
  void computeThenFree() {
    pipeline.computeOn(w, staged);
    freed = true;
    free();
  }

  /** {@code free staged}, unless {@link #computeThenFree} got to it: the cleanup on any way out before that. */
  void freeOnWayOut() {
    if (!freed) {
      free();
    }
  }

  private void free() {
    w.probe().step(HandWrittenPipeline.FREE_STAGED, () -> w.device().free(staged));
  }
}
