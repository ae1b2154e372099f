package dev.interlock.model.sim;

import dev.interlock.model.design.Design;
import dev.interlock.model.step.Interval;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The time of each interval ({@code cpu} and {@code kernel} steps, by name): the design's {@code for} clauses, then
 * what the caller gives on top (measured samples, a what-if). Every other step takes no time.
 */
public final class StepTimes {
  private final Map<String, Timing> times;
  private final List<String> untimed;

  private StepTimes(Map<String, Timing> times, List<String> untimed) {
    this.times = Collections.unmodifiableMap(new LinkedHashMap<>(times));
    this.untimed = List.copyOf(untimed);
  }

  /**
   * The design's {@code for} clauses, replaced or completed by {@code given} (interval name to time). An interval with
   * neither takes no time and is listed in {@link #untimed()}. Two steps of one name with different {@code for}
   * clauses are refused: the name is what a time belongs to.
   */
  public static StepTimes of(Design design, Map<String, Timing> given) {
    Map<String, Timing> out = new LinkedHashMap<>();
    List<String> untimed = new ArrayList<>();
    List<Interval> intervals = design.steps().stream().filter(Interval.class::isInstance).map(Interval.class::cast)
        .toList();
    for (Interval i : intervals) {
      if (given.containsKey(i.name())) {
        out.put(i.name(), given.get(i.name()));
        continue;
      }
      Optional<Timing> declared = i.duration().map(d -> new Timing.Fixed(d.toNanos() / 1e9));
      Timing known = out.get(i.name());
      if (declared.isPresent() && known != null && !known.equals(declared.get())) {
        throw new IllegalArgumentException("interval '" + i.name() + "' is given two durations: " + known.mean() + " s and "
            + declared.get().mean() + " s");
      }
      declared.ifPresent(t -> out.put(i.name(), t));
    }
    for (Interval i : intervals) {
      if (!out.containsKey(i.name()) && !untimed.contains(i.name())) {
        untimed.add(i.name());
      }
    }
    for (String name : given.keySet()) {
      if (intervals.stream().noneMatch(i -> i.name().equals(name))) {
        throw new IllegalArgumentException("no cpu or kernel step named '" + name + "' in design " + design.name());
      }
    }
    return new StepTimes(out, untimed);
  }

  /** Whether the design has an interval (cpu or kernel step) named {@code name}, timed or not. */
  public boolean has(String name) {
    return times.containsKey(name) || untimed.contains(name);
  }

  /** The time of the interval {@code name}, or nothing (it takes no time). */
  public Optional<Timing> of(String name) {
    return Optional.ofNullable(times.get(name));
  }

  /** The intervals that take no time because nothing gave them one, in design order. */
  public List<String> untimed() {
    return untimed;
  }

  /** This with interval {@code name}'s time multiplied by {@code factor} (a what-if: {@code --scale}). */
  public StepTimes scaled(String name, double factor) {
    Timing t = times.get(name);
    if (t == null) {
      throw new IllegalArgumentException("interval '" + name + "' has no time to scale");
    }
    Map<String, Timing> out = new LinkedHashMap<>(times);
    out.put(name, t instanceof Timing.Samples s
        ? new Timing.Samples(java.util.Arrays.stream(s.values()).map(v -> v * factor).toArray())
        : new Timing.Fixed(t.mean() * factor));
    return new StepTimes(out, untimed);
  }
}
