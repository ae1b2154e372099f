package dev.interlock.model.step;

/** {@code free B}: plain buffers go back to the heap, async ones into the pool's cache. */
public record Free(String buffer) implements Step {
  public Free {
    Names.require("buffer", buffer);
  }

  @Override
  public <R> R accept(Visitor<R> v) {
    return v.free(this);
  }

  @Override
  public String text() {
    return "free " + buffer;
  }
}
