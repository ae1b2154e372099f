package dev.interlock.impl.pipeline;

import dev.interlock.impl.api.Pipeline;
import dev.interlock.model.design.Role;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Supplier;

/** The hand-written pipelines by the shipped design each implements. */
public final class HandWrittenPipelines {
  /** The role every shipped design's pipeline is written for. */
  public static final String ROLE = "gpu_worker";

  private HandWrittenPipelines() {}

  /** The designs that have a hand-written pipeline. */
  public static List<String> designs() {
    return List.of("single-lock", "two-lock", "single-lock-late-release", "reservation");
  }

  /**
   * The factory of the hand-written pipeline for the design called {@code designName} (its
   * {@code design} line), with the design file's sizes; empty when there is none. The factory
   * rejects roles other than {@value #ROLE}, the one role of those designs.
   */
  public static Optional<Function<Role, Pipeline>> forDesign(String designName) {
    switch (designName) {
      case "single-lock":
        return Optional.of(factory(designName, SingleLockPipeline::new));
      case "two-lock":
        return Optional.of(factory(designName, TwoLockPipeline::new));
      case "single-lock-late-release":
        return Optional.of(factory(designName, SingleLockLateReleasePipeline::new));
      case "reservation":
        return Optional.of(factory(designName, ReservationPipeline::new));
      default:
        return Optional.empty();
    }
  }

  private static Function<Role, Pipeline> factory(String designName, Supplier<Pipeline> make) {
    return role -> {
      if (!role.name().equals(ROLE)) {
        throw new IllegalArgumentException("the hand-written " + designName + " pipeline is for role " + ROLE
            + ", not " + role.name());
      }
      return make.get();
    };
  }

  static long positive(String what, long n) {
    if (n < 1) {
      throw new IllegalArgumentException(what + " must be positive, got " + n);
    }
    return n;
  }
}
