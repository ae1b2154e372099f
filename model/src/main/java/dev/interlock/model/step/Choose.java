package dev.interlock.model.step;

import java.util.ArrayList;
import java.util.List;

/**
 * {@code choose}, its steps, {@code or}, its steps, and {@code end}: a job takes one of two paths, and nothing the
 * design says decides which (the engine decides by something the design does not model, e.g. the job's number).
 *
 * <p>The checker explores both: the step is one transition with two successors, the first path's (phase
 * {@code then}) and the second's (phase {@code else}). {@code infer} writes it where the jobs of a captured run took
 * different paths that no memory reading and no failed allocation explains. The text of this step is its first line
 * only; {@link #lines} gives the whole block.
 */
public record Choose(List<Step> first, List<Step> second) implements Step {
  public Choose {
    first = List.copyOf(first);
    second = List.copyOf(second);
  }

  /** This step without its paths: what a trace line holds of it. */
  public Choose header() {
    return first.isEmpty() && second.isEmpty() ? this : new Choose(List.of(), List.of());
  }

  @Override
  public <R> R accept(Visitor<R> v) {
    return v.choose(this);
  }

  @Override
  public String text() {
    return "choose";
  }

  /** The whole block as design lines, all at the body's indentation as the language writes them. */
  public List<String> lines() {
    List<String> out = new ArrayList<>();
    out.add(text());
    for (Step s : first) {
      out.addAll(Steps.lines(s));
    }
    out.add("or");
    for (Step s : second) {
      out.addAll(Steps.lines(s));
    }
    out.add("end");
    return out;
  }
}
