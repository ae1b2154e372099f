package dev.interlock.model.state;

/**
 * Which half of an interval step a transition is, which branch an {@code if free} step took, or that an allocation
 * failed into its {@code on oom}; other steps have none.
 */
public enum Phase {
  BEGIN,
  END,
  /** The {@code if free} condition held: the then branch runs next. */
  THEN,
  /** The {@code if free} condition did not hold: the else branch (or the step after the block) runs next. */
  ELSE,
  /**
   * The allocation failed and its {@code on oom} took over: the handler runs next, or (ignored) the step after the
   * allocation, without the buffer. An allocation that succeeds, or whose failure is not handled, has no phase.
   */
  OOM;

  /** Lower-case name as written in traces and JSON. */
  public String label() {
    return name().toLowerCase(java.util.Locale.ROOT);
  }
}
