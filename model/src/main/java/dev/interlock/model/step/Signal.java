package dev.interlock.model.step;

/** {@code signal E}: sets the one-shot event E of the current job; a thread of the job waiting for E goes on. */
public record Signal(String event) implements Step {
  public Signal {
    Names.require("event", event);
  }

  @Override
  public <R> R accept(Visitor<R> v) {
    return v.signal(this);
  }

  @Override
  public String text() {
    return "signal " + event;
  }
}
