package dev.interlock.impl.sync;

import dev.interlock.model.state.Phase;
import dev.interlock.model.state.Violation;
import dev.interlock.model.step.Step;
import java.util.Optional;

/**
 * A hook at every step boundary of every engine thread. {@link #FREE} does nothing; a
 * deterministic scheduler implements it to force an exact interleaving on real threads.
 *
 * <p>Threads are named by {@code Thread.currentThread().getName()}, which the engine sets to
 * {@code role#i}, or {@code role#i/TASK@J} for the task threads a job spawns.
 */
public interface StepGate {

  /** Whether a scheduler drives the threads; blocking primitives then use {@link #blocked()}. */
  boolean controlled();

  /**
   * Called before the calling thread takes the transition of {@code step}; returns when it may.
   *
   * @throws RunAborted when the run has ended (another thread failed, or a deadlock)
   */
  void before(Step step, Optional<Phase> phase);

  /**
   * The calling thread's operation cannot proceed now; returns when it should try again.
   *
   * @throws RunAborted when the run has ended
   */
  default void blocked() {
    throw new IllegalStateException("blocked() needs a controlled gate");
  }

  /**
   * Which path the calling thread takes at the {@code choose} step it has just been let through ({@link #before}):
   * {@link Phase#THEN} for the first, {@link Phase#ELSE} for the one after {@code or}. A scheduler decides it with the
   * grant (a replay as its trace says); free runs choose at random, as nothing the design models decides it.
   */
  default Phase path() {
    return java.util.concurrent.ThreadLocalRandom.current().nextBoolean() ? Phase.THEN : Phase.ELSE;
  }

  /** The calling thread's last transition failed with {@code v}. */
  default void failed(Violation v) {}

  /** The calling thread has no more steps to take. */
  default void finished() {}

  /**
   * A new thread called {@code thread} is about to start (a task a job spawns); called by the thread
   * that starts it, inside its own transition, so a scheduler knows the new thread before that
   * transition ends.
   */
  default void starting(String thread) {}

  /** The gate of normal runs: every call returns at once. */
  StepGate FREE = new StepGate() {
    @Override
    public boolean controlled() {
      return false;
    }

    @Override
    public void before(Step step, Optional<Phase> phase) {}
  };
}
