package dev.interlock.cli;

/**
 * Ctrl-C (SIGINT, or SIGTERM) during a check: a shutdown hook prints the statistics so far, never a verdict, and the JVM
 * exits as the signal says (130 for SIGINT). Once the check has begun to print its report, the report is finished and
 * the check exits with the report's status instead, so an interruption never cuts a verdict short nor changes it.
 */
final class Interruption implements AutoCloseable {
  /** How long the hook waits for a report being printed (a blocked stdout must not hang the exit). */
  private static final long REPORT_WAIT_MILLIS = 10_000;

  private enum State { SEARCHING, INTERRUPTED, REPORTING, DONE }

  private final Runnable printStatistics;
  private final Thread hook;
  private State state = State.SEARCHING;
  private boolean printed;
  private int status;

  /** Installs the hook; {@code printStatistics} runs on it when the check is interrupted while it searches. */
  Interruption(Runnable printStatistics) {
    this.printStatistics = printStatistics;
    this.hook = new Thread(this::onSignal, "interlock-interrupt");
    Runtime.getRuntime().addShutdownHook(hook);
  }

  private void onSignal() {
    synchronized (this) {
      if (state == State.SEARCHING) {
        state = State.INTERRUPTED;
      } else {
        awaitReport();
        return;
      }
    }
    try {
      printStatistics.run();
    } finally {
      synchronized (this) {
        printed = true;
        notifyAll();
      }
    }
  }

  /** The report is being printed or is printed: let it finish, then exit with its status. */
  private synchronized void awaitReport() {
    long end = System.currentTimeMillis() + REPORT_WAIT_MILLIS;
    while (state == State.REPORTING && System.currentTimeMillis() < end) {
      try {
        wait(Math.max(1, end - System.currentTimeMillis()));
      } catch (InterruptedException e) {
        return;
      }
    }
    if (state == State.DONE) {
      Runtime.getRuntime().halt(status);
    }
  }

  /**
   * Claims the output for the report. False when the check was interrupted: then the statistics have been printed
   * (this waits for them) and the caller must print nothing; the JVM is exiting.
   */
  synchronized boolean report() {
    if (state == State.INTERRUPTED) {
      while (!printed) {
        try {
          wait();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          break;
        }
      }
      return false;
    }
    state = State.REPORTING;
    return true;
  }

  /** The report is printed and flushed; an interruption from now on exits with {@code exitStatus}. */
  synchronized void done(int exitStatus) {
    status = exitStatus;
    state = State.DONE;
    notifyAll();
  }

  /** Removes the hook: the check is over (a no-op once the JVM is shutting down). */
  @Override
  public void close() {
    try {
      Runtime.getRuntime().removeShutdownHook(hook);
    } catch (IllegalStateException shuttingDown) {
      // the hook runs or has run; it decides the exit
    }
  }
}
