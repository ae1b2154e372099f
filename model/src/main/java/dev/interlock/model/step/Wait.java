package dev.interlock.model.step;

/** {@code wait E}: blocks until a thread of the same job (its thread or one of its tasks) has signalled E. */
public record Wait(String event) implements Step {
  public Wait {
    Names.require("event", event);
  }

  @Override
  public <R> R accept(Visitor<R> v) {
    return v.await(this);
  }

  @Override
  public String text() {
    return "wait " + event;
  }
}
