package dev.interlock.model.trace;

/** What replaying a trace on the model showed. */
public sealed interface ReplayResult permits ReplayResult.Confirmed, ReplayResult.Diverged {

  /** Every transition matched and the trace ends in its recorded outcome. */
  record Confirmed(int transitions, Outcome outcome) implements ReplayResult {}

  /** The model disagrees with the trace at transition {@code index} (0: before the first, or at the end: length + 1). */
  record Diverged(int index, String reason) implements ReplayResult {}
}
