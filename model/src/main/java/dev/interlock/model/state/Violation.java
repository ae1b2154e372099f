package dev.interlock.model.state;

import java.util.Objects;

/** A violation found in the model: its kind and a one-line explanation naming thread, step and numbers. */
public record Violation(ViolationKind kind, String message) {
  public Violation {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(message, "message");
    if (message.isBlank() || message.contains("\n")) {
      throw new IllegalArgumentException("violation message must be one non-blank line: '" + message + "'");
    }
  }
}
