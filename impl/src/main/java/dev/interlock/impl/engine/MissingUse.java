package dev.interlock.impl.engine;

import java.util.List;
import java.util.Objects;

/**
 * A kernel that ran without some of its buffers: their allocation had failed and the design ignored it
 * ({@code on oom ignore}), so the buffer is missing and the kernel got no pointer for it.
 *
 * <p>Why recorded: these are the steps whose results are wrong after a swallowed out-of-memory, what the model's
 * {@code Model.missingUses} names at the same transition.
 *
 * @param seq     the kernel begin's event number in the run's log
 * @param thread  the thread that launched it
 * @param job     the job's id
 * @param step    the kernel step's text
 * @param buffers the missing buffers it uses, in the step's order
 */
public record MissingUse(long seq, String thread, int job, String step, List<String> buffers) {
  public MissingUse {
    Objects.requireNonNull(thread, "thread");
    Objects.requireNonNull(step, "step");
    buffers = List.copyOf(buffers);
    if (buffers.isEmpty()) {
      throw new IllegalArgumentException("a missing use names at least one buffer");
    }
  }

  /** One line: {@code gpu_worker#0 kernel k uses d_temp: ran without d_temp}. */
  public String describe() {
    return thread + " " + step + ": ran without " + String.join(", ", buffers);
  }
}
