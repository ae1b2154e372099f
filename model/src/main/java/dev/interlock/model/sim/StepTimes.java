package dev.interlock.model.sim;

import dev.interlock.model.design.Design;
import dev.interlock.model.step.Alloc;
import dev.interlock.model.step.Interval;
import dev.interlock.model.step.Kernel;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The time of each interval ({@code cpu} and {@code kernel} steps, by name): the design's {@code for} clauses, then
 * what the caller gives on top (measured samples, a what-if). Every other step takes no time. A {@code cpu} step also
 * has a width: the host cores it keeps busy when it runs alone (1 unless measured or given; a step that runs a
 * parallel loop over 16 cores has width near 16), which is what it asks of the machine's cores beside other steps.
 */
public final class StepTimes {
  private final Map<String, Timing> times;
  private final List<String> untimed;
  private final Map<String, Double> cores;
  private final List<String> copies;

  private StepTimes(Map<String, Timing> times, List<String> untimed, Map<String, Double> cores, List<String> copies) {
    this.times = Collections.unmodifiableMap(new LinkedHashMap<>(times));
    this.untimed = List.copyOf(untimed);
    this.cores = Collections.unmodifiableMap(new LinkedHashMap<>(cores));
    this.copies = List.copyOf(copies);
  }

  /**
   * The design's {@code for} clauses, replaced or completed by {@code given} (interval name to time). An interval with
   * neither takes no time and is listed in {@link #untimed()}. Two steps of one name with different {@code for}
   * clauses are refused: the name is what a time belongs to.
   */
  public static StepTimes of(Design design, Map<String, Timing> given) {
    Map<String, Timing> out = new LinkedHashMap<>();
    List<String> untimed = new ArrayList<>();
    List<Interval> intervals = intervals(design);
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
    return new StepTimes(out, untimed, Map.of(), List.of());
  }

  /**
   * The design's times with {@code measured} on top (each interval the design has by that name and kind; a file
   * measured on another design may name more, see {@link #unmatched}) and their cores as widths, then {@code given} on
   * top of those.
   */
  public static StepTimes of(Design design, List<DurationsFile.Measured> measured, Map<String, Timing> given) {
    Map<String, Timing> out = new LinkedHashMap<>();
    Map<String, Double> widths = new LinkedHashMap<>();
    List<String> unmatched = unmatched(design, measured);
    for (DurationsFile.Measured m : measured) {
      if (!unmatched.contains(m.name())) {
        out.put(m.name(), m.timing());
        m.cores().ifPresent(c -> widths.put(m.name(), Math.max(0.01, c)));
      }
    }
    out.putAll(given);
    return of(design, out).withCores(widths);
  }

  /** The names in {@code measured} that {@code design} has no interval of, by name and kind. */
  public static List<String> unmatched(Design design, List<DurationsFile.Measured> measured) {
    List<Interval> intervals = intervals(design);
    return measured.stream().filter(m -> intervals.stream().noneMatch(i -> i.name().equals(m.name())
        && DurationsFile.Kind.of(i) == m.kind())).map(DurationsFile.Measured::name).toList();
  }

  /** The design's intervals (cpu and kernel steps), in the order of its steps. */
  private static List<Interval> intervals(Design design) {
    return design.steps().stream().filter(Interval.class::isInstance).map(Interval.class::cast).toList();
  }

  /** Whether {@code design} has an interval (cpu or kernel step) named {@code name}. */
  public static boolean hasInterval(Design design, String name) {
    return intervals(design).stream().anyMatch(i -> i.name().equals(name));
  }

  /** Whether {@code design} has a kernel step named {@code name} (what {@link #withCopy} can make a copy). */
  public static boolean hasKernel(Design design, String name) {
    return kernels(design, name).findAny().isPresent();
  }

  private static Stream<Kernel> kernels(Design design, String name) {
    return design.steps().stream().filter(s -> s instanceof Kernel k && k.name().equals(name)).map(Kernel.class::cast);
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
    return new StepTimes(out, untimed, cores, copies);
  }

  /**
   * This with the widths of {@code widths} (interval name to the cores it keeps busy alone, at least 1 core's
   * hundredth): for the names this design has; the others are left out, as a durations file of another design has them.
   */
  public StepTimes withCores(Map<String, Double> widths) {
    Map<String, Double> out = new LinkedHashMap<>(cores);
    widths.forEach((name, w) -> {
      if (!(w >= 0.01) || Double.isInfinite(w)) {
        throw new IllegalArgumentException("interval '" + name + "': its cores are a finite number of at least 0.01, got " + w);
      }
      if (has(name)) {
        out.put(name, w);
      }
    });
    return new StepTimes(times, untimed, out, copies);
  }

  /** The host cores interval {@code name} keeps busy when it runs alone: 1 unless given. */
  public double cores(String name) {
    return cores.getOrDefault(name, 1.0);
  }

  /**
   * This with the kernel {@code name} as a host-to-device copy at {@code bytesPerSecond}: it takes the bytes of the
   * buffers it uses (each as the design allocates it; the largest where it allocates a name twice) over the bandwidth,
   * on the GPU's copy engine, one copy at a time beside the kernels, instead of the GPU's compute.
   */
  public StepTimes withCopy(Design design, String name, double bytesPerSecond) {
    if (!(bytesPerSecond > 0) || Double.isInfinite(bytesPerSecond)) {
      throw new IllegalArgumentException("a copy's bandwidth is a positive number of bytes per second, got " + bytesPerSecond);
    }
    List<Kernel> kernels = kernels(design, name).toList();
    if (kernels.isEmpty()) {
      throw new IllegalArgumentException("no kernel step named '" + name + "' to copy with in design " + design.name());
    }
    long bytes = 0;
    for (String buffer : kernels.get(0).uses()) {
      bytes += design.steps().stream().filter(s -> s instanceof Alloc a && a.buffer().equals(buffer))
          .mapToLong(s -> ((Alloc) s).bytes()).max().orElse(0);
    }
    if (bytes == 0) {
      throw new IllegalArgumentException("kernel '" + name + "' uses no allocated buffer: a copy of nothing");
    }
    Map<String, Timing> out = new LinkedHashMap<>(times);
    out.put(name, new Timing.Fixed(bytes / bytesPerSecond));
    List<String> un = new ArrayList<>(untimed);
    un.remove(name);
    List<String> cs = new ArrayList<>(copies);
    if (!cs.contains(name)) {
      cs.add(name);
    }
    return new StepTimes(out, un, cores, cs);
  }

  /** Whether the kernel {@code name} is a copy on the copy engine ({@link #withCopy}). */
  public boolean isCopy(String name) {
    return copies.contains(name);
  }

  /** The widths given, by interval name. */
  public Map<String, Double> widths() {
    return cores;
  }
}
