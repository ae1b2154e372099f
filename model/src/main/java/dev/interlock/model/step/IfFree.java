package dev.interlock.model.step;

import dev.interlock.model.design.Sizes;
import java.util.List;

/**
 * {@code if free >= SIZE} or {@code if free < SIZE}, its steps, an optional {@code else} and its
 * steps, and {@code end}: cudaMemGetInfo's check-then-act.
 *
 * <p>The check is one transition that reads {@code free = vram - live - cached}; the branch then
 * runs as ordinary steps, so other threads may allocate between the check and the branch. The
 * text of this step is its first line only; {@link #lines} gives the whole block.
 */
public record IfFree(boolean atLeast, long bytes, List<Step> then, List<Step> otherwise) implements Step {
  public IfFree {
    if (bytes < 0) {
      throw new IllegalArgumentException("if free needs a non-negative size, got " + bytes);
    }
    then = List.copyOf(then);
    otherwise = List.copyOf(otherwise);
  }

  /** This step without its branches: what a trace line holds of it. */
  public IfFree header() {
    return then.isEmpty() && otherwise.isEmpty() ? this : new IfFree(atLeast, bytes, List.of(), List.of());
  }

  /** Whether a read of {@code free} bytes takes the {@code then} branch. */
  public boolean holds(long free) {
    return atLeast ? free >= bytes : free < bytes;
  }

  @Override
  public <R> R accept(Visitor<R> v) {
    return v.ifFree(this);
  }

  @Override
  public String text() {
    return "if free " + (atLeast ? ">=" : "<") + " " + Sizes.format(bytes);
  }

  /** The whole block as design lines, all at the body's indentation as the language writes them. */
  public List<String> lines() {
    List<String> out = new java.util.ArrayList<>();
    out.add(text());
    for (Step s : then) {
      Steps.lines(s).forEach(out::add);
    }
    if (!otherwise.isEmpty()) {
      out.add("else");
      for (Step s : otherwise) {
        Steps.lines(s).forEach(out::add);
      }
    }
    out.add("end");
    return out;
  }
}
