package dev.interlock.impl.device;

import dev.interlock.model.state.ViolationKind;

/** A free of a buffer that is not live (BAD_FREE), or a kernel using one (USE_AFTER_FREE). */
public final class BufferNotLiveException extends DeviceException {
  private static final long serialVersionUID = 1L;

  private final ViolationKind kind;

  public BufferNotLiveException(ViolationKind kind, String message) {
    super(message);
    if (kind != ViolationKind.BAD_FREE && kind != ViolationKind.USE_AFTER_FREE) {
      throw new IllegalArgumentException("not a buffer violation: " + kind);
    }
    this.kind = kind;
  }

  @Override
  public ViolationKind kind() {
    return kind;
  }
}
