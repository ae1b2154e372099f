package dev.interlock.impl.sync;

import dev.interlock.impl.ViolationException;
import dev.interlock.model.state.ViolationKind;

/** Misuse of a mutex or semaphore that the model names as a violation. */
public final class SyncException extends ViolationException {
  private static final long serialVersionUID = 1L;

  private final ViolationKind kind;

  public SyncException(ViolationKind kind, String message) {
    super(message);
    if (kind != ViolationKind.DEADLOCK && kind != ViolationKind.UNLOCK_NOT_HELD && kind != ViolationKind.RELEASE_EXCESS) {
      throw new IllegalArgumentException("not a synchronization violation: " + kind);
    }
    this.kind = kind;
  }

  @Override
  public ViolationKind kind() {
    return kind;
  }
}
