package dev.interlock.impl.fault;

import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;

/**
 * A kind of injected fault, as {@code --faults} names it.
 *
 * <p>Why an enum: the spec, the counts and the docs list the same six kinds; the device injects the first four, the
 * engine's step boundary the last two.
 */
public enum FaultKind {
  /** An allocation fails as out of memory (marked injected). */
  ALLOC,
  /** A kernel fails: at its launch, or at its await (its execution), each half of the injections. */
  KERNEL,
  /** A kernel completes late: its completion is delayed by the stall time. */
  STALL,
  /** A device-wide sticky error: every later device call fails until the device is reopened. */
  POISON,
  /** The worker thread is interrupted during a step. */
  INTERRUPT,
  /** The pipeline code of a step throws. */
  EXCEPTION;

  /** The name in a spec: {@code alloc}, {@code kernel}, ... */
  public String specName() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** The kind a spec calls {@code name}, if any. */
  public static Optional<FaultKind> ofSpecName(String name) {
    return Arrays.stream(values()).filter(k -> k.specName().equals(name)).findFirst();
  }

  /** The spec names, for messages: {@code alloc, kernel, stall, poison, interrupt, exception}. */
  public static String specNames() {
    return String.join(", ", Arrays.stream(values()).map(FaultKind::specName).toList());
  }
}
