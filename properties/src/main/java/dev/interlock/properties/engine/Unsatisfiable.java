package dev.interlock.properties.engine;

/** Thrown when no valid case can be generated, e.g. a {@link Gen#filter} that rejects everything. */
public final class Unsatisfiable extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** An unsatisfiable generation with an explanation. */
  public Unsatisfiable(String message) {
    super(message);
  }

  /** An unsatisfiable generation with an explanation and the last invalid case's exception. */
  public Unsatisfiable(String message, Throwable cause) {
    super(message, cause);
  }
}
