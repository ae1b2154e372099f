package dev.interlock.impl.pipeline;

import dev.interlock.impl.engine.Pipeline;
import dev.interlock.impl.engine.Resources;
import dev.interlock.impl.engine.Worker;
import dev.interlock.model.step.Alloc;
import dev.interlock.model.step.Cpu;
import dev.interlock.model.step.Free;
import dev.interlock.model.step.Kernel;
import dev.interlock.model.step.Lock;
import dev.interlock.model.step.Step;
import dev.interlock.model.step.Unlock;
import java.util.List;
import java.util.function.Function;

/** What the hand-written pipelines share: their steps, sizes, the per-run lookup of their locks, and the empty work. */
abstract class HandWrittenPipeline<L> implements Pipeline {
  static final String COMPUTE_MTX = "compute_mtx";
  static final Cpu SYNTHESIZE = new Cpu("synthesize");
  static final Step LOCK_COMPUTE = lock(COMPUTE_MTX);
  static final Step UNLOCK_COMPUTE = unlock(COMPUTE_MTX);
  static final Kernel NTT_MSM = new Kernel("ntt_msm", List.of("staged", "scratch"));
  static final Step FREE_SCRATCH = new Free("scratch");
  static final Step FREE_STAGED = new Free("staged");
  static final Cpu B_G2_MSM = new Cpu("b_g2_msm");
  static final Cpu EPILOGUE = new Cpu("epilogue");

  final long stagedBytes;
  final long scratchBytes;
  final Step allocStaged;
  final Step allocScratch;

  private final Function<Resources, L> lookUp;

  /** The run's locks, looked up once per engine run (the engine makes a pipeline per run). */
  private volatile PerRun<L> perRun;

  private record PerRun<L>(Resources resources, L locks) {}

  HandWrittenPipeline(long stagedBytes, long scratchBytes, Function<Resources, L> lookUp) {
    this.stagedBytes = HandWrittenPipelines.positive("staged", stagedBytes);
    this.scratchBytes = HandWrittenPipelines.positive("scratch", scratchBytes);
    this.allocStaged = new Alloc("staged", stagedBytes, false);
    this.allocScratch = new Alloc("scratch", scratchBytes, false);
    this.lookUp = lookUp;
  }

  /** The step {@code lock MUTEX}. */
  static Step lock(String mutex) {
    return new Lock(mutex);
  }

  /** The step {@code unlock MUTEX}. */
  static Step unlock(String mutex) {
    return new Unlock(mutex);
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
