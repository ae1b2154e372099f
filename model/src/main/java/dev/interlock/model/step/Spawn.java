package dev.interlock.model.step;

/** {@code spawn T}: starts a helper thread that runs task T's body once, in the scope of the current job. */
public record Spawn(String task) implements Step {
  public Spawn {
    Names.require("task", task);
  }

  @Override
  public <R> R accept(Visitor<R> v) {
    return v.spawn(this);
  }

  @Override
  public String text() {
    return "spawn " + task;
  }
}
