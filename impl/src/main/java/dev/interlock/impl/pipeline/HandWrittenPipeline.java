package dev.interlock.impl.pipeline;

import dev.interlock.impl.api.Device;
import dev.interlock.impl.api.DeviceBuffer;
import dev.interlock.impl.api.KernelRun;
import dev.interlock.impl.api.Pipeline;
import dev.interlock.impl.api.Probe;
import dev.interlock.impl.api.Resources;
import dev.interlock.impl.api.Worker;
import dev.interlock.model.design.Sizes;
import java.util.List;
import java.util.concurrent.locks.Lock;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * What the hand-written pipelines but single-lock share: their steps as design text, sizes, the per-run lookup of
 * their locks, a region held under a mutex, the staged allocation, a kernel step, the compute on a staged buffer, and
 * the empty work. Two-lock and reservation also share a staged buffer freed under compute
 * ({@link StagedFreedUnderCompute}).
 */
abstract class HandWrittenPipeline<L> implements Pipeline {
  static final String COMPUTE_MTX = "compute_mtx";
  static final String SYNTHESIZE = "cpu synthesize";
  static final String LOCK_COMPUTE = lock(COMPUTE_MTX);
  static final String UNLOCK_COMPUTE = unlock(COMPUTE_MTX);
  static final String NTT_MSM = "kernel ntt_msm uses staged scratch";
  static final String FREE_SCRATCH = "free scratch";
  static final String FREE_STAGED = "free staged";
  static final String B_G2_MSM = "cpu b_g2_msm";
  static final String EPILOGUE = "cpu epilogue";

  final long stagedBytes;
  final long scratchBytes;
  final String allocStaged;
  final String allocScratch;

  private final Function<Resources, L> lookUp;

  /** The run's locks, looked up once per engine run (the engine makes a pipeline per run). */
  private volatile PerRun<L> perRun;

  private record PerRun<L>(Resources resources, L locks) {}

  HandWrittenPipeline(long stagedBytes, long scratchBytes, Function<Resources, L> lookUp) {
    this.stagedBytes = HandWrittenPipelines.positive("staged", stagedBytes);
    this.scratchBytes = HandWrittenPipelines.positive("scratch", scratchBytes);
    this.allocStaged = "alloc staged " + Sizes.format(stagedBytes);
    this.allocScratch = "alloc scratch " + Sizes.format(scratchBytes);
    this.lookUp = lookUp;
  }

  /** The step {@code lock MUTEX}. */
  static String lock(String mutex) {
    return "lock " + mutex;
  }

  /** The step {@code unlock MUTEX}. */
  static String unlock(String mutex) {
    return "unlock " + mutex;
  }

  /** The locks of {@code w}'s run, looked up on the run's first job. */
  final L locks(Worker w) {
    PerRun<L> p = perRun;
    if (p == null || p.resources() != w.resources()) {
      p = new PerRun<>(w.resources(), lookUp.apply(w.resources()));
      perRun = p;
    }
    return p.locks();
  }

  /**
   * {@code lockStep}, {@code body}, {@code unlockStep}: {@code body} run holding {@code mutex}, which is unlocked on
   * any way out once locked.
   */
  static void holding(Probe probe, String lockStep, Lock mutex, String unlockStep, Runnable body) {
    holding(probe, lockStep, mutex, unlockStep, () -> {
      body.run();
      return null;
    });
  }

  /** {@link #holding(Probe, String, Lock, String, Runnable)} for a {@code body} that returns a value. */
  static <T> T holding(Probe probe, String lockStep, Lock mutex, String unlockStep, Supplier<T> body) {
    probe.step(lockStep, mutex::lock);
    try {
      return body.get();
    } finally {
      probe.step(unlockStep, mutex::unlock);
    }
  }

  /** {@code alloc staged SIZE}: the job's staged buffer. */
  final DeviceBuffer allocateStaged(Worker w) {
    return w.probe().step(allocStaged, () -> w.device().allocate(w.name(), "staged", stagedBytes, false));
  }

  /**
   * The kernel step {@code step}: launched on {@code uses}, awaited at its end step, and awaited anyway when the run
   * was aborted there (the end step did not run), so that no kernel is left running.
   */
  static void kernel(Worker w, String step, String name, List<DeviceBuffer> uses, Runnable work) {
    Probe probe = w.probe();
    KernelRun k = probe.begin(step, () -> w.device().launch(w.name(), name, uses, work));
    try {
      probe.end(step, k::await);
    } finally {
      if (probe.silent()) {
        k.await();
      }
    }
  }

  /**
   * {@code alloc scratch}, {@code kernel ntt_msm uses staged scratch}, {@code free scratch}: the compute every
   * pipeline runs on its live staged buffer, scratch freed on any way out.
   */
  final void computeOn(Worker w, DeviceBuffer staged) {
    Probe probe = w.probe();
    Device device = w.device();
    DeviceBuffer scratch = probe.step(allocScratch, () -> device.allocate(w.name(), "scratch", scratchBytes, false));
    try {
      kernel(w, NTT_MSM, "ntt_msm", List.of(staged, scratch), this::nttMsm);
    } finally {
      probe.step(FREE_SCRATCH, () -> device.free(scratch));
    }
  }

  final void synthesize() {
    // witness synthesis would run here; the simulated workload has none
  }

  final void nttMsm() {
    // the NTT and MSM kernels would run here
  }

  final void bG2Msm() {
    // the CPU MSM over G2 would run here
  }

  final void epilogue() {
    // proof assembly would run here
  }
}
