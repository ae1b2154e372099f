package dev.interlock.model.step;

/** {@code lock M}: take a non-reentrant mutex, blocking while another thread holds it. */
public record Lock(String mutex) implements Step {
  public Lock {
    Names.require("mutex", mutex);
  }

  @Override
  public <R> R accept(Visitor<R> v) {
    return v.lock(this);
  }

  @Override
  public String text() {
    return "lock " + mutex;
  }
}
