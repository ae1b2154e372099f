package dev.interlock.impl.engine;

import dev.interlock.impl.ViolationException;
import dev.interlock.model.state.ViolationKind;

/** An allocation over a buffer handle that is still live: the earlier allocation leaks. */
public final class LeakException extends ViolationException {
  private static final long serialVersionUID = 1L;

  public LeakException(String message) {
    super(message);
  }

  @Override
  public ViolationKind kind() {
    return ViolationKind.LEAK;
  }
}
