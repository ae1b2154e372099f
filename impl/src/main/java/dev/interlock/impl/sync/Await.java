package dev.interlock.impl.sync;

import java.util.function.BooleanSupplier;

/**
 * Waits until a condition over state that other threads change holds, the way the step gate in
 * force wants it: the engine's {@code wait E} and {@code join T}, which wait for another thread of
 * the same job.
 *
 * <p>Threads that change the state call {@link #changed()} afterwards. In a normal run a waiting
 * thread parks on this object's monitor, visible to the deadlock watchdog; under a controlled gate
 * it reports {@code blocked()} and retries when the scheduler says so.
 */
public final class Await {
  private final StepGate gate;
  private final WaitRegistry waits;

  public Await(StepGate gate, WaitRegistry waits) {
    this.gate = gate;
    this.waits = waits;
  }

  /**
   * Returns once {@code holds} is true; {@code what} says what the thread waits for, in deadlock reports.
   *
   * @throws WorkerInterrupted when the thread is interrupted while parked
   * @throws RunAborted when a controlled run ends while the thread waits
   */
  public void until(String what, BooleanSupplier holds) {
    Blocking.until(gate, waits, what, holds, () -> {
      synchronized (this) {
        while (!holds.getAsBoolean()) {
          wait();
        }
      }
    });
  }

  /** The state changed: parked threads check their conditions again. */
  public synchronized void changed() {
    notifyAll();
  }
}
