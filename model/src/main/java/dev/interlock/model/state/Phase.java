package dev.interlock.model.state;

/** Which half of an interval step a transition is; steps that are not intervals have none. */
public enum Phase {
  BEGIN,
  END;

  /** Lower-case name as written in traces and JSON. */
  public String label() {
    return name().toLowerCase(java.util.Locale.ROOT);
  }
}
