package dev.interlock.model.step;

/** {@code acquire S N}: take N permits of a counting semaphore at once, blocking until all are free. */
public record Acquire(String semaphore, int permits) implements Step {
  public Acquire {
    Names.require("semaphore", semaphore);
    if (permits < 1) {
      throw new IllegalArgumentException("acquire needs at least 1 permit, got " + permits);
    }
  }

  @Override
  public <R> R accept(Visitor<R> v) {
    return v.acquire(this);
  }

  @Override
  public String text() {
    return permits == 1 ? "acquire " + semaphore : "acquire " + semaphore + " " + permits;
  }
}
