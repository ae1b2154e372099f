package dev.interlock.impl.engine;

import dev.interlock.model.sim.DurationsFile;
import dev.interlock.model.state.Phase;
import dev.interlock.model.step.Interval;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * The measured time of every interval a run took, by name (what {@code --durations-out} writes): from each begin event
 * to its thread's end event, with the host cores the process kept busy meanwhile.
 *
 * <p>A failed begin enters nothing. A begin whose thread records something else before its end was abandoned (its
 * job failed on another thread, or the run was aborted): it is left out, as KernelBusy leaves it out. Cores are the
 * CPU time of the whole process over the intervals' wall time, so they are a step's own only while nothing else runs:
 * measure with one worker.
 */
public final class IntervalDurations {
  private IntervalDurations() {}

  /** The intervals of {@code report}, in the order their names first began; cores from {@code cpu} when given. */
  public static List<DurationsFile.Measured> of(RunReport report, Optional<ProcessCpuClock> cpu) {
    Map<String, Event> open = new HashMap<>();
    Map<String, List<Double>> seconds = new LinkedHashMap<>();
    Map<String, long[]> cpuAndWall = new HashMap<>();
    Map<String, DurationsFile.Kind> kinds = new HashMap<>();
    for (Event e : report.events()) {
      Event begun = open.remove(e.thread());
      if (!(e.step() instanceof Interval i) || e.phase().isEmpty()) {
        continue;
      }
      if (e.phase().get() == Phase.BEGIN) {
        if (e.failure().isEmpty()) {
          open.put(e.thread(), e);
        }
      } else if (e.phase().get() == Phase.END && begun != null && begun.step().equals(e.step())) {
        long wall = e.nanos() - begun.nanos();
        seconds.computeIfAbsent(i.name(), k -> new ArrayList<>()).add(wall / 1e9);
        kinds.put(i.name(), DurationsFile.Kind.of(i));
        if (cpu.isPresent()) {
          long used = cpu.get().cpuAt(report.clockOrigin() + e.nanos()) - cpu.get().cpuAt(report.clockOrigin() + begun.nanos());
          long[] sum = cpuAndWall.computeIfAbsent(i.name(), k -> new long[2]);
          sum[0] += used;
          sum[1] += wall;
        }
      }
    }
    List<DurationsFile.Measured> out = new ArrayList<>();
    seconds.forEach((name, s) -> {
      long[] sum = cpuAndWall.get(name);
      OptionalDouble cores = sum == null || sum[1] == 0 ? OptionalDouble.empty() : OptionalDouble.of((double) sum[0] / sum[1]);
      out.add(new DurationsFile.Measured(name, kinds.get(name), cores, s));
    });
    return out;
  }
}
