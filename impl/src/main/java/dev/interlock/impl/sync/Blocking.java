package dev.interlock.impl.sync;

import java.util.function.BooleanSupplier;

/** Waits for an operation to succeed, the way the gate in force wants it. */
final class Blocking {
  private Blocking() {}

  /** An operation that blocks until it succeeds. */
  @FunctionalInterface
  interface Wait {
    void run() throws InterruptedException;
  }

  /**
   * Runs {@code attempt} until it succeeds: under a controlled gate by reporting blocked() between
   * tries, otherwise by the blocking form {@code wait}, visible to the watchdog as waiting on {@code what}.
   *
   * @throws WorkerInterrupted when the thread is interrupted while parked in {@code wait}, or its waits are cancelled
   *     ({@link WaitRegistry#cancel}) and it has to wait
   */
  static void until(StepGate gate, WaitRegistry waits, String what, BooleanSupplier attempt, Wait wait) {
    until(gate, waits, what, null, 0, attempt, wait);
  }

  /** As {@link #until}, for {@code units} of lock {@code on}: the registry knows which lock the thread waits for. */
  static void until(StepGate gate, WaitRegistry waits, String what, Holdable on, int units, BooleanSupplier attempt,
      Wait wait) {
    try {
      run(gate, waits, what, on, units, attempt, wait, false);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new WorkerInterrupted(what);
    }
  }

  /**
   * As {@link #until}, but an interrupt, whether pending on entry or arriving while the thread waits
   * (parked, or between its tries under a controlled gate), ends the wait with InterruptedException.
   */
  static void untilInterruptibly(StepGate gate, WaitRegistry waits, String what, Holdable on, int units,
      BooleanSupplier attempt, Wait wait) throws InterruptedException {
    if (Thread.interrupted()) {
      throw new InterruptedException("interrupted before waiting: " + what);
    }
    run(gate, waits, what, on, units, attempt, wait, true);
  }

  private static void run(StepGate gate, WaitRegistry waits, String what, Holdable on, int units,
      BooleanSupplier attempt, Wait wait, boolean interruptible) throws InterruptedException {
    if (attempt.getAsBoolean()) {
      return;
    }
    if (gate.controlled()) {
      do {
        if (interruptible && Thread.interrupted()) {
          throw new InterruptedException("interrupted while waiting: " + what);
        }
        gate.blocked();
        if (waits.cancelled(Thread.currentThread())) {
          throw new InterruptedException("cancelled while waiting: " + what); // its job failed on another thread
        }
      } while (!attempt.getAsBoolean());
      return;
    }
    waits.enter(what, on, units);
    try {
      wait.run();
    } finally {
      waits.exit();
    }
  }
}
