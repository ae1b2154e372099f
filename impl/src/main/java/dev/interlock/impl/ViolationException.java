package dev.interlock.impl;

import dev.interlock.model.state.Violation;
import dev.interlock.model.state.ViolationKind;

/** A failure of an engine operation that the model names: it carries the model's verdict. */
public abstract class ViolationException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  protected ViolationException(String message) {
    super(message);
  }

  /** The model's name for this failure. */
  public abstract ViolationKind kind();

  /** As the model's violation record (message on one line). */
  public Violation violation() {
    return new Violation(kind(), getMessage().replace('\n', ' '));
  }
}
