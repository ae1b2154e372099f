package dev.interlock.impl.fault;

import java.util.Objects;

/**
 * Thrown where an injected fault strikes: a device call, a kernel's await, or a step's pipeline code.
 *
 * <p>Why not a {@link dev.interlock.impl.ViolationException}: an injected fault is not a verdict of the model, and the
 * engine must tell it from a real failure (a real OOM is the design's), which it retries only when asked.
 */
public final class InjectedFault extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final transient Fault fault;

  public InjectedFault(Fault fault) {
    super(Objects.requireNonNull(fault, "fault").describe());
    this.fault = fault;
  }

  public Fault fault() {
    return fault;
  }
}
