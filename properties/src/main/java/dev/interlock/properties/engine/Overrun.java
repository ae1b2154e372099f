package dev.interlock.properties.engine;

/** Thrown by a {@link Source} when a generator makes more choices than allowed (it never stops). */
public final class Overrun extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** An overrun after {@code limit} choices. */
  public Overrun(int limit) {
    super("generator made more than " + limit + " choices; does it ever stop?");
  }
}
