package dev.interlock.model.export;

/** A design the Promela export cannot express (too many threads, sizes without a small common unit). */
public final class ExportException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public ExportException(String message) {
    super(message);
  }
}
