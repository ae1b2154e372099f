package dev.interlock.model.step;

/** {@code unlock M}: release a mutex this thread holds. */
public record Unlock(String mutex) implements Step {
  public Unlock {
    Names.require("mutex", mutex);
  }

  @Override
  public <R> R accept(Visitor<R> v) {
    return v.unlock(this);
  }

  @Override
  public String text() {
    return "unlock " + mutex;
  }
}
