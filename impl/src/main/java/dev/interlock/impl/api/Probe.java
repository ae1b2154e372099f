package dev.interlock.impl.api;

import java.util.function.Supplier;

/**
 * The step boundary of one worker thread: each step of a job passes through it, named by its design-language text.
 *
 * <p>Naming the design's step ({@code alloc staged 12GiB}, {@code lock compute_mtx},
 * {@code kernel ntt_msm uses staged scratch}, {@code cpu b_g2_msm}) is what ties real code to the
 * model: the engine lets the step run when its scheduler says so and records it as a trace step the
 * model replays. The text is a step as a design's role body writes it, parsed by the design
 * language's own parser; a text that is not one is an {@link IllegalArgumentException} naming it. A
 * step that fails (a violation the model names) or a run that is aborted makes the probe throw; from
 * then on it is {@link #silent()}: cleanup code still calls it, and the operations run unrecorded.
 */
public interface Probe {
  /** Runs {@code op} as the step {@code step}, e.g. {@code probe.step("unlock compute_mtx", mutex::unlock)}. */
  void step(String step, Runnable op);

  /** Runs {@code op} as the step {@code step} and returns its value, e.g. the buffer of {@code alloc staged 12GiB}. */
  <T> T step(String step, Supplier<T> op);

  /**
   * Runs {@code op} as the begin of the interval step {@code step} (a {@code kernel} or {@code cpu} step), e.g. a
   * kernel launch; the thread is inside the step until {@link #end}.
   */
  <T> T begin(String step, Supplier<T> op);

  /** Runs {@code op} as the end of the interval step {@code step}, e.g. waiting for the kernel begun before. */
  void end(String step, Runnable op);

  /** Runs {@code work} as a whole {@code cpu} step: its begin, the work, its end. */
  void interval(String step, Runnable work);

  /**
   * Whether a step of this job failed or the run was aborted: the job is unwinding, and probe calls run their
   * operations unrecorded. Cleanup that must happen even when a step did not run (awaiting a launched kernel) asks it.
   */
  boolean silent();

  /** The thread's name, {@code role#i}. */
  String thread();
}
