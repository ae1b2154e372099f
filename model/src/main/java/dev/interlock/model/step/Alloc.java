package dev.interlock.model.step;

import dev.interlock.model.design.Sizes;

/**
 * {@code alloc B SIZE [async] [keep]}: cudaMalloc (plain) or cudaMallocAsync from the device's one pool.
 *
 * <p>Buffer names are per job: two threads allocating {@code staged}, or one thread in two jobs,
 * hold two buffers. A {@code keep} buffer belongs to the role thread instead and outlives its job:
 * while it is live, later executions of the step allocate nothing.
 */
public record Alloc(String buffer, long bytes, boolean async, boolean keep) implements Step {
  public Alloc {
    Names.require("buffer", buffer);
    if (bytes < 1) {
      throw new IllegalArgumentException("alloc of " + buffer + " needs a positive size, got " + bytes);
    }
  }

  /** An alloc that is not kept. */
  public Alloc(String buffer, long bytes, boolean async) {
    this(buffer, bytes, async, false);
  }

  @Override
  public <R> R accept(Visitor<R> v) {
    return v.alloc(this);
  }

  @Override
  public String text() {
    return "alloc " + buffer + " " + Sizes.format(bytes) + (async ? " async" : "") + (keep ? " keep" : "");
  }
}
