package dev.interlock.model.step;

/**
 * {@code join T}: waits until the most recent instance of task T spawned in this job has finished.
 *
 * <p>When the job has spawned no T, the step is a transition that does nothing.
 */
public record Join(String task) implements Step {
  public Join {
    Names.require("task", task);
  }

  @Override
  public <R> R accept(Visitor<R> v) {
    return v.join(this);
  }

  @Override
  public String text() {
    return "join " + task;
  }
}
