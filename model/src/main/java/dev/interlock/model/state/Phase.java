package dev.interlock.model.state;

/**
 * Which half of an interval step a transition is, or which branch an {@code if free} step took; other
 * steps have none.
 */
public enum Phase {
  BEGIN,
  END,
  /** The {@code if free} condition held: the then branch runs next. */
  THEN,
  /** The {@code if free} condition did not hold: the else branch (or the step after the block) runs next. */
  ELSE;

  /** Lower-case name as written in traces and JSON. */
  public String label() {
    return name().toLowerCase(java.util.Locale.ROOT);
  }
}
