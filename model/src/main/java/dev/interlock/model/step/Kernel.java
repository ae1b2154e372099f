package dev.interlock.model.step;

import dev.interlock.model.design.Durations;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/** {@code kernel K [uses B...] [for D]}: GPU work; every used buffer must be live when it begins. */
public record Kernel(String name, List<String> uses, Optional<Duration> duration) implements Interval {
  public Kernel {
    Names.require("kernel", name);
    uses = List.copyOf(uses);
    uses.forEach(b -> Names.require("buffer", b));
    if (uses.stream().distinct().count() != uses.size()) {
      throw new IllegalArgumentException("kernel " + name + " lists a buffer twice: " + uses);
    }
    duration.ifPresent(Durations::requirePositive);
  }

  /** A kernel without a duration. */
  public Kernel(String name, List<String> uses) {
    this(name, uses, Optional.empty());
  }

  @Override
  public <R> R accept(Visitor<R> v) {
    return v.kernel(this);
  }

  @Override
  public String text() {
    StringBuilder sb = new StringBuilder("kernel ").append(name);
    if (!uses.isEmpty()) {
      sb.append(" uses ").append(String.join(" ", uses));
    }
    duration.ifPresent(d -> sb.append(" for ").append(Durations.format(d)));
    return sb.toString();
  }
}
