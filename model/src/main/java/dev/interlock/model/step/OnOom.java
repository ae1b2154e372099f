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
   * On failure the job runs {@code steps} (the buffer not live), on success {@code success}; either way it then goes
   * on after the alloc block. With an empty {@code success} (no {@code else} line) the allocation is simply checked:
   * after the handler, the job goes on as after a success.
   *
   * @param steps   the handler, any steps (possibly none: the failure is checked and nothing else is done)
   * @param success the steps after {@code else}, run only when the allocation succeeded (e.g. the pre-staged path,
   *                whose handler is the fallback path)
   */
  record Handle(List<Step> steps, List<Step> success) implements OnOom {
    public Handle {
      steps = List.copyOf(steps);
      success = List.copyOf(success);
    }

    /** A handler without an {@code else}: the job goes on after the block whether the allocation failed or not. */
    public Handle(List<Step> steps) {
      this(steps, List.of());
    }
  }
}
