package dev.interlock.model.step;

/** {@code release S N}: give back N permits this thread holds. */
public record Release(String semaphore, int permits) implements Step {
  public Release {
    Names.require("semaphore", semaphore);
    if (permits < 1) {
      throw new IllegalArgumentException("release needs at least 1 permit, got " + permits);
    }
  }

  @Override
  public <R> R accept(Visitor<R> v) {
    return v.release(this);
  }

  @Override
  public String text() {
    return permits == 1 ? "release " + semaphore : "release " + semaphore + " " + permits;
  }
}
