package dev.interlock.model.step;

/** {@code sync}: cudaDeviceSynchronize, device-global; waits until no thread of any role is inside a kernel. */
public record Sync() implements Step {
  @Override
  public <R> R accept(Visitor<R> v) {
    return v.sync(this);
  }

  @Override
  public String text() {
    return "sync";
  }
}
