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
   */
  static void until(StepGate gate, WaitRegistry waits, String what, BooleanSupplier attempt, Wait wait) {
    if (attempt.getAsBoolean()) {
      return;
    }
    if (gate.controlled()) {
      do {
        gate.blocked();
      } while (!attempt.getAsBoolean());
      return;
    }
    waits.enter(what);
    try {
      wait.run();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new WorkerInterrupted(what);
    } finally {
      waits.exit();
    }
  }
}
