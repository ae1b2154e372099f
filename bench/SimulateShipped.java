import dev.interlock.model.design.Design;
import dev.interlock.model.design.DesignParser;
import dev.interlock.model.sim.Machine;
import dev.interlock.model.sim.Simulation;
import dev.interlock.model.sim.StepTimes;
import dev.interlock.model.sim.Timing;
import dev.interlock.model.step.Cpu;
import dev.interlock.model.step.Interval;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Simulates every shipped design at 1-8 workers of its first role (5 runs of 8 jobs per thread each, 16 cores, one
 * kernel at a time) in one JVM and prints the time each took and the total: issue 37's target is under 5 s in all.
 * Intervals without a {@code for} clause take 200 ms ({@code cpu}) or 100 ms ({@code kernel}). Run with the CLI jar:
 * {@code bash bench/simulate-shipped.sh}.
 */
public final class SimulateShipped {
  public static void main(String[] args) throws Exception {
    List<Path> files;
    try (Stream<Path> a = Files.list(Path.of("designs")); Stream<Path> b = Files.list(Path.of("designs", "cuzk"))) {
      files = Stream.concat(a, b).filter(p -> p.toString().endsWith(".design")).sorted().toList();
    }
    Machine machine = Machine.withCores(16);
    long all = System.nanoTime();
    int runs = 0;
    System.out.printf(Locale.ROOT, "%-36s %8s %8s  %s%n", "design", "ms", "runs", "jobs/min at 1..8 workers (a violation: its kind)");
    for (Path f : files) {
      Design d = DesignParser.parse(f);
      Map<String, Timing> given = new LinkedHashMap<>();
      for (var s : d.steps()) {
        if (s instanceof Interval i && i.duration().isEmpty()) {
          given.put(i.name(), new Timing.Fixed(i instanceof Cpu ? 0.2 : 0.1));
        }
      }
      long t0 = System.nanoTime();
      List<Simulation.Point> points = Simulation.sweep(d, new Simulation.Plan(d.roles().get(0).name(),
          List.of(1, 2, 3, 4, 5, 6, 7, 8), 8, 5, 1), machine, StepTimes.of(d, given));
      double ms = (System.nanoTime() - t0) / 1e6;
      StringBuilder row = new StringBuilder();
      for (Simulation.Point p : points) {
        runs += p.runs().size();
        row.append(' ').append(p.stop().map(s -> s.kind().name()).orElse(String.format(Locale.ROOT, "%.0f", p.jobsPerMinute())));
      }
      System.out.printf(Locale.ROOT, "%-36s %8.0f %8d %s%n", f, ms, points.size() * 5, row);
    }
    System.out.printf(Locale.ROOT, "total %d designs, %d simulated runs: %.2f s%n", files.size(), runs, (System.nanoTime() - all) / 1e9);
  }
}
