package dev.interlock.impl.api;

import java.util.Objects;

/**
 * When a kernel launch ran on the device, by the device's own clock aligned to the host's: why a timeline can show the
 * GPU's work beside the host threads that launched and awaited it.
 *
 * @param stream     the stream it ran on, named by the launching thread (each thread has its own stream)
 * @param name       the kernel's name, as passed to the launch
 * @param startNanos when it started, as a host {@link System#nanoTime()}
 * @param endNanos   when it ended, as a host {@link System#nanoTime()}
 */
public record KernelTiming(String stream, String name, long startNanos, long endNanos) {
  public KernelTiming {
    Objects.requireNonNull(stream, "stream");
    Objects.requireNonNull(name, "name");
    if (endNanos < startNanos) {
      throw new IllegalArgumentException("kernel " + name + " ends before it starts: " + startNanos + " to " + endNanos);
    }
  }
}
