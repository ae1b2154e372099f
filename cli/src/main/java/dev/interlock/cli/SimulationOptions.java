package dev.interlock.cli;

import dev.interlock.model.design.Durations;
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

  @Option(names = "--time", paramLabel = "NAME=DURATION", description = "An interval's time, e.g. ntt_msm=690ms (repeatable; replaces its 'for').")
  Map<String, String> time = new LinkedHashMap<>();

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

  /** The machine in words, for a report's header. */
  String machineText() {
    return cores + " cores, GPU " + (gpuConcurrent == 1 ? "one kernel at a time"
        : gpuConcurrent + " kernels at once, each " + gpuSlowdown + "x beside another");
  }
}
