package dev.interlock.model.step;

/** {@code trim}: cudaMemPoolTrimTo(0), device-global; returns all pool-cached bytes to the heap, never live ones. */
public record Trim() implements Step {
  @Override
  public <R> R accept(Visitor<R> v) {
    return v.trim(this);
  }

  @Override
  public String text() {
    return "trim";
  }
}
