package dev.interlock.cli;

import java.io.PrintWriter;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Prints a check's progress line on stderr once it has run for {@link #AFTER_MILLIS} ms, then every interval, so that a
 * long search is not silent; on its own daemon thread, stopped by {@link #close}.
 */
final class ProgressPrinter implements AutoCloseable {
  /** A search shorter than this prints no progress. */
  static final long AFTER_MILLIS = 2000;

  private final ScheduledExecutorService timer;

  private ProgressPrinter(ScheduledExecutorService timer) {
    this.timer = timer;
  }

  /** Starts printing {@code status}'s progress line to {@code err} every {@code intervalSeconds}. */
  static ProgressPrinter start(SearchStatus status, PrintWriter err, double intervalSeconds) {
    ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "interlock-progress");
      t.setDaemon(true);
      // when the heap runs out the search reports it (verdict LIMIT); this thread dies without a word, since the
      // default handler, printing the error, would fail for want of heap too and the JVM would print that
      t.setUncaughtExceptionHandler((thread, e) -> { });
      return t;
    });
    long period = Math.max(1, Math.round(intervalSeconds * 1000));
    timer.scheduleAtFixedRate(() -> {
      err.println(status.progressLine()); // an error here ends the schedule, kept in its future, unprinted
      err.flush();
    }, AFTER_MILLIS, period, TimeUnit.MILLISECONDS);
    return new ProgressPrinter(timer);
  }

  /** Prints nothing: for checks without progress. */
  static ProgressPrinter none() {
    return new ProgressPrinter(null);
  }

  /** Stops printing; a line being printed is finished first. */
  @Override
  public void close() {
    if (timer == null) {
      return;
    }
    timer.shutdown();
    try {
      timer.awaitTermination(1, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
