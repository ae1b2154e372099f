package dev.interlock.impl.sync;

import dev.interlock.model.state.Phase;
import dev.interlock.model.step.Step;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.concurrent.locks.LockSupport;

/**
 * A free-running gate that perturbs timing: before each step a thread pauses for a random 0 to {@code maxMicros}
 * microseconds, drawn from a generator seeded by the run's seed and the thread's name, so repeated runs explore other
 * interleavings (jcstress-style perturbation). It never orders threads: the locks and semaphores still do.
 */
public final class JitterGate implements StepGate {
  private final long seed;
  private final int maxMicros;
  private final ThreadLocal<SplittableRandom> rng;

  /** A gate pausing up to maxMicros before each step, seeded by seed. */
  public JitterGate(long seed, int maxMicros) {
    if (maxMicros < 0) {
      throw new IllegalArgumentException("maxMicros must not be negative, got " + maxMicros);
    }
    this.seed = seed;
    this.maxMicros = maxMicros;
    this.rng = ThreadLocal.withInitial(() -> new SplittableRandom(this.seed ^ Thread.currentThread().getName().hashCode()));
  }

  @Override
  public boolean controlled() {
    return false;
  }

  @Override
  public void before(Step step, Optional<Phase> phase) {
    if (maxMicros > 0) {
      LockSupport.parkNanos(rng.get().nextLong((long) maxMicros * 1000 + 1));
    }
  }

  @Override
  public String toString() {
    return "JitterGate(seed " + seed + ", up to " + maxMicros + " us)";
  }
}
