package dev.interlock.model.step;

import java.util.List;

/**
 * What a job does when its allocation fails for want of device memory: crash ({@link Fail}, the default), go on
 * without the buffer ({@link Ignore}: {@code on oom ignore}), or run a handler ({@link Handle}: {@code on oom}, its
 * steps, {@code end}).
 *
 * <p>Real engines do all three. A handled failure is a branch like any other; an ignored one is the verdict
 * {@code SWALLOWED_OOM}, since the job computes its result without the buffer and nothing fails; an unhandled one is
 * {@code OOM}.
 */
public sealed interface OnOom permits OnOom.Fail, OnOom.Ignore, OnOom.Handle {
  /** The failure is not handled: the job fails, the verdict {@code OOM}. */
  Fail FAIL = new Fail();
  /** The failure is ignored: {@code on oom ignore}. */
  Ignore IGNORE = new Ignore();

  /** The handler's steps; empty for {@link Fail} and {@link Ignore}. */
  default List<Step> steps() {
    return List.of();
  }

  /** The failure is not handled. */
  record Fail() implements OnOom {}

  /** The job goes on without the buffer, at the step after the allocation. */
  record Ignore() implements OnOom {}

  /**
   * The job runs {@code steps} instead of the allocation and then goes on after it; the buffer is not live.
   *
   * @param steps the handler, any steps (possibly none: the failure is checked and nothing else is done)
   */
  record Handle(List<Step> steps) implements OnOom {
    public Handle {
      steps = List.copyOf(steps);
    }
  }
}
