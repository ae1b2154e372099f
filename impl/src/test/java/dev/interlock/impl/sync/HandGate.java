package dev.interlock.impl.sync;

import static org.assertj.core.api.Assertions.assertThat;

import dev.interlock.model.state.Phase;
import dev.interlock.model.step.Step;
import java.util.Optional;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A controlled gate cranked by hand: blocked() reports itself and waits, uninterruptibly like the
 * engine's ControlledScheduler, until the test lets the thread retry.
 */
final class HandGate implements StepGate {
  private final Semaphore reported = new Semaphore(0);
  private final Semaphore retries = new Semaphore(0);
  private final AtomicInteger blockedCalls = new AtomicInteger();

  @Override
  public boolean controlled() {
    return true;
  }

  @Override
  public void before(Step step, Optional<Phase> phase) {}

  @Override
  public void blocked() {
    blockedCalls.incrementAndGet();
    reported.release();
    retries.acquireUninterruptibly();
  }

  /** Waits until some thread has reported blocked() once more. */
  void awaitBlocked() throws InterruptedException {
    assertThat(reported.tryAcquire(10, TimeUnit.SECONDS)).as("a thread reports blocked()").isTrue();
  }

  /** Lets one blocked thread try again. */
  void retry() {
    retries.release();
  }

  int blockedCalls() {
    return blockedCalls.get();
  }
}
