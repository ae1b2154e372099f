package dev.interlock.model.step;

import dev.interlock.model.design.Sizes;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * {@code alloc B SIZE [async] [keep]}: cudaMalloc (plain) or cudaMallocAsync from the device's one pool, with what
 * the job does when it fails ({@link OnOom}: the {@code on oom} lines after it).
 *
 * <p>Buffer names are per job: two threads allocating {@code staged}, or one thread in two jobs,
 * hold two buffers. A {@code keep} buffer belongs to the role thread instead and outlives its job:
 * while it is live, later executions of the step allocate nothing. The text of this step is its first line only;
 * {@link #lines} gives the whole block with its {@code on oom} lines.
 */
public record Alloc(String buffer, long bytes, boolean async, boolean keep, OnOom onOom) implements Step {
  public Alloc {
    Names.require("buffer", buffer);
    if (bytes < 1) {
      throw new IllegalArgumentException("alloc of " + buffer + " needs a positive size, got " + bytes);
    }
    Objects.requireNonNull(onOom, "onOom");
  }

  /** An alloc whose failure is not handled. */
  public Alloc(String buffer, long bytes, boolean async, boolean keep) {
    this(buffer, bytes, async, keep, OnOom.FAIL);
  }

  /** An alloc that is not kept and whose failure is not handled. */
  public Alloc(String buffer, long bytes, boolean async) {
    this(buffer, bytes, async, false);
  }

  /** This alloc with failure handling {@code o}. */
  public Alloc withOnOom(OnOom o) {
    return new Alloc(buffer, bytes, async, keep, o);
  }

  /** This step without its {@code on oom} lines: what a trace line holds of it. */
  public Alloc header() {
    return onOom instanceof OnOom.Fail ? this : withOnOom(OnOom.FAIL);
  }

  /** Whether a failure of this allocation is handled or ignored rather than fatal. */
  public boolean fallible() {
    return !(onOom instanceof OnOom.Fail);
  }

  @Override
  public <R> R accept(Visitor<R> v) {
    return v.alloc(this);
  }

  @Override
  public String text() {
    return "alloc " + buffer + " " + Sizes.format(bytes) + (async ? " async" : "") + (keep ? " keep" : "");
  }

  /** The whole step as design lines: the alloc line, then {@code on oom ignore} or the handler block (with its else). */
  public List<String> lines() {
    List<String> out = new ArrayList<>();
    out.add(text());
    if (onOom instanceof OnOom.Ignore) {
      out.add("on oom ignore");
    } else if (onOom instanceof OnOom.Handle h) {
      out.add("on oom");
      for (Step s : h.steps()) {
        out.addAll(Steps.lines(s));
      }
      if (!h.success().isEmpty()) {
        out.add("else");
        for (Step s : h.success()) {
          out.addAll(Steps.lines(s));
        }
      }
      out.add("end");
    }
    return out;
  }
}
