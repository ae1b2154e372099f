package dev.interlock.model.step;

import java.time.Duration;
import java.util.Optional;

/** A unit of work with a begin and an end; the thread is "inside" it between the two transitions. */
public sealed interface Interval extends Step permits Kernel, Cpu {

  /** The interval's name, e.g. {@code ntt_msm}; overlap queries refer to it. */
  String name();

  /** The optional {@code for DURATION}, kept for timing work; the checker ignores it. */
  Optional<Duration> duration();

  /**
   * The name of {@code step} if it is an interval, else empty. Every interval kind implements this sealed interface
   * and so has a name: a new kind needs nothing here.
   */
  static Optional<String> nameOf(Step step) {
    return step instanceof Interval i ? Optional.of(i.name()) : Optional.empty();
  }
}
