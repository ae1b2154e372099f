package dev.interlock.cli;

import dev.interlock.model.design.Design;
import dev.interlock.model.design.Durations;
import dev.interlock.model.design.Sizes;
import dev.interlock.model.sim.DurationsFile;
import dev.interlock.model.sim.StepTimes;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import dev.interlock.model.sim.Machine;
import dev.interlock.model.sim.Timing;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine.Option;

/** The options {@code simulate} and {@code compare} share: runs, seed, the machine, and the intervals' times. */
final class SimulationOptions {
  @Option(names = "--runs", paramLabel = "R", description = "Simulated runs per worker count, seeds S, S+1, ... (default 5).")
  int runs = 5;

  @Option(names = "--seed", paramLabel = "S", description = "The first run's seed (default 1).")
  long seed = 1;

  @Option(names = "--cores", paramLabel = "C", description = "Host cores for cpu steps (default 16).")
  int cores = 16;

  @Option(names = "--gpu-concurrent", paramLabel = "K", description = "Kernels the GPU runs at once (default 1: one at a time, FIFO).")
  int gpuConcurrent = 1;

  @Option(names = "--gpu-slowdown", paramLabel = "X", description = "How much longer a kernel takes beside another (default 1).")
  double gpuSlowdown = 1.0;

  @Option(names = "--time", paramLabel = "NAME=DURATION", description = "An interval's time, e.g. ntt_msm=690ms (repeatable; replaces its 'for' and the durations file's).")
  Map<String, String> time = new LinkedHashMap<>();

  @Option(names = "--durations", paramLabel = "FILE", description = "Measured times and cores of the intervals (a durations file, "
      + "as run, prove and capture write with --durations-out): they replace the 'for' clauses of the intervals the design has.")
  Path durations;

  @Option(names = "--step-cores", paramLabel = "NAME=K", description = "The host cores a cpu step keeps busy when it runs alone, "
      + "e.g. synthesize=12 (repeatable; default 1, or the durations file's).")
  Map<String, Double> stepCores = new LinkedHashMap<>();

  @Option(names = "--copy", paramLabel = "NAME=BANDWIDTH", description = "The kernel NAME is a host-to-device copy of the "
      + "buffers it uses at BANDWIDTH, e.g. h2d=25GiB/s: on the copy engine, one at a time beside the kernels (repeatable).")
  Map<String, String> copy = new LinkedHashMap<>();

  private List<DurationsFile.Measured> measured;

  /** The machine of {@code --cores} and {@code --gpu-*}; a bad value is bad input. */
  Machine machine() {
    try {
      return new Machine(cores, gpuConcurrent, gpuSlowdown);
    } catch (IllegalArgumentException e) {
      throw new CliError(e.getMessage());
    }
  }

  /** The times of {@code --time NAME=DURATION}; a bad duration is bad input. */
  Map<String, Timing> times() {
    Map<String, Timing> out = new LinkedHashMap<>();
    time.forEach((name, text) -> {
      Durations.Parsed p = Durations.parse(text);
      if (p.duration().isEmpty()) {
        throw new CliError("--time " + name + "=" + text + ": " + p.error());
      }
      out.put(name, new Timing.Fixed(p.duration().get().toNanos() / 1e9));
    });
    return out;
  }

  /** The durations file's intervals (read once), or none without --durations; an unreadable file is bad input. */
  List<DurationsFile.Measured> measured() {
    if (measured == null) {
      if (durations == null) {
        measured = List.of();
      } else {
        try {
          measured = DurationsFile.read(durations);
        } catch (java.io.IOException e) {
          throw new CliError("--durations " + durations + ": cannot read it: " + e.getMessage());
        } catch (DurationsFile.FormatException e) {
          throw new CliError(e.getMessage());
        }
      }
    }
    return measured;
  }

  /**
   * The times of {@code d}'s intervals: its 'for' clauses, the durations file's, then {@code --time} and
   * {@code --step-cores} (each must name an interval of the design); a bad value is bad input naming {@code file}.
   */
  StepTimes times(Design d, Path file) {
    try {
      return copies(d, StepTimes.of(d, measured(), times()).withCores(cores(d, file)), true);
    } catch (IllegalArgumentException e) {
      throw new CliError(file + ": " + e.getMessage());
    }
  }

  /** {@code t} with the --copy kernels {@code d} has as copies; with {@code strict}, one it has not is an error. */
  private StepTimes copies(Design d, StepTimes t, boolean strict) {
    for (Map.Entry<String, String> e : copy.entrySet()) {
      if (strict || StepTimes.hasKernel(d, e.getKey())) {
        t = t.withCopy(d, e.getKey(), bandwidth(e.getKey(), e.getValue()));
      }
    }
    return t;
  }

  /** Bytes per second of SIZE/s. */
  private static double bandwidth(String name, String text) {
    if (!text.endsWith("/s")) {
      throw new CliError("--copy " + name + "=" + text + ": a bandwidth is a size per second, e.g. 25GiB/s");
    }
    Sizes.Parsed p = Sizes.parse(text.substring(0, text.length() - 2));
    if (p.bytes().isEmpty() || p.bytes().get() == 0) {
      throw new CliError("--copy " + name + "=" + text + ": "
          + (p.bytes().isEmpty() ? p.error() : "a bandwidth is more than 0 bytes per second"));
    }
    return p.bytes().get();
  }

  /**
   * Per design, its times, with only the {@code --time} and {@code --step-cores} entries it has an interval for; an
   * entry that no design has is bad input.
   */
  List<StepTimes> times(List<Design> designs, List<Path> files) {
    Map<String, Timing> given = times();
    List<StepTimes> out = new ArrayList<>();
    for (int i = 0; i < designs.size(); i++) {
      Design d = designs.get(i);
      Map<String, Timing> mine = new LinkedHashMap<>(given);
      mine.keySet().removeIf(k -> !StepTimes.hasInterval(d, k));
      Map<String, Double> widths = new LinkedHashMap<>(stepCores);
      widths.keySet().removeIf(k -> !StepTimes.hasInterval(d, k));
      try {
        out.add(copies(d, StepTimes.of(d, measured(), mine).withCores(widths), false));
      } catch (IllegalArgumentException e) {
        throw new CliError(files.get(i) + ": " + e.getMessage());
      }
    }
    for (String name : given.keySet()) {
      if (out.stream().noneMatch(t -> t.has(name))) {
        throw new CliError("--time " + name + ": no design has a cpu or kernel step of that name");
      }
    }
    for (String name : copy.keySet()) {
      if (out.stream().noneMatch(t -> t.isCopy(name))) {
        throw new CliError("--copy " + name + ": no design has a kernel step of that name");
      }
    }
    for (String name : stepCores.keySet()) {
      if (out.stream().noneMatch(t -> t.has(name))) {
        throw new CliError("--step-cores " + name + ": no design has a cpu or kernel step of that name");
      }
    }
    return out;
  }

  /** The widths of --step-cores for {@code d}; a name it has no interval of is bad input. */
  private Map<String, Double> cores(Design d, Path file) {
    for (String name : stepCores.keySet()) {
      if (!StepTimes.hasInterval(d, name)) {
        throw new CliError("--step-cores " + name + ": no cpu or kernel step of that name in " + file);
      }
    }
    return stepCores;
  }

  /** The durations file's intervals that {@code d} has none of (by name and kind), for the report. */
  List<String> unmatched(Design d) {
    return StepTimes.unmatched(d, measured());
  }

  /** The machine in words, for a report's header. */
  String machineText() {
    return cores + " cores, GPU " + (gpuConcurrent == 1 ? "one kernel at a time"
        : gpuConcurrent + " kernels at once, each " + gpuSlowdown + "x beside another");
  }
}
