package dev.interlock.model.step;

import dev.interlock.model.design.Sizes;

/**
 * {@code alloc B SIZE [async]}: cudaMalloc (plain) or cudaMallocAsync from the device's one pool.
 *
 * <p>Buffer names are per thread: two threads allocating {@code staged} hold two buffers.
 */
public record Alloc(String buffer, long bytes, boolean async) implements Step {
  public Alloc {
    Names.require("buffer", buffer);
    if (bytes < 1) {
      throw new IllegalArgumentException("alloc of " + buffer + " needs a positive size, got " + bytes);
    }
  }

  @Override
  public <R> R accept(Visitor<R> v) {
    return v.alloc(this);
  }

  @Override
  public String text() {
    return "alloc " + buffer + " " + Sizes.format(bytes) + (async ? " async" : "");
  }
}
