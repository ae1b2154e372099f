package dev.interlock.model.step;

import dev.interlock.model.design.Durations;
import java.time.Duration;
import java.util.Optional;

/** {@code cpu C [for D]}: host work such as synthesis, b_g2_msm or the epilogue. */
public record Cpu(String name, Optional<Duration> duration) implements Interval {
  public Cpu {
    Names.require("cpu interval", name);
    duration.ifPresent(Durations::requirePositive);
  }

  /** A cpu interval without a duration. */
  public Cpu(String name) {
    this(name, Optional.empty());
  }

  @Override
  public <R> R accept(Visitor<R> v) {
    return v.cpu(this);
  }

  @Override
  public String text() {
    return "cpu " + name + duration.map(d -> " for " + Durations.format(d)).orElse("");
  }
}
