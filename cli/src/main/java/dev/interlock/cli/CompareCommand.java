package dev.interlock.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.interlock.model.check.CheckReport;
import dev.interlock.model.check.Checker;
import dev.interlock.model.check.Verdict;
import dev.interlock.model.design.Design;
import dev.interlock.model.design.DesignException;
import dev.interlock.model.design.DesignParser;
import dev.interlock.model.design.Sizes;
import dev.interlock.model.sim.Machine;
import dev.interlock.model.sim.Simulation;
import dev.interlock.model.sim.StepTimes;
import dev.interlock.view.html.ThroughputPlot;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code interlock compare DESIGN... --workers A..B}: per worker count, each design's verdict ({@code check}) beside
 * its predicted throughput ({@code simulate}), and the fastest safe design. An unsafe design shows its verdict, not a
 * number.
 */
@Command(name = "compare", mixinStandardHelpOptions = true,
    description = {"Per worker count, each design's verdict beside its predicted throughput, and the fastest safe design:"
        + " exit 0; 1 when no design is safe at some count; 2 on bad input."})
final class CompareCommand implements Callable<Integer> {
  @Spec
  CommandSpec spec;

  @Parameters(index = "0..*", arity = "1..*", paramLabel = "DESIGN", description = "The design files.")
  List<Path> files;

  @Option(names = "--workers", paramLabel = "N|A..B", description = "Worker counts of each design's first role (default: 1..4).")
  String workers = "1..4";

  @Mixin
  SimulationOptions sim = new SimulationOptions();

  @Option(names = "--vram", paramLabel = "SIZE", description = "Device memory of every design (default: each design's).")
  String vram;

  @Option(names = "--json", description = "One JSON object on stdout instead of the table.")
  boolean json;

  @Mixin
  PlotOutput plot = new PlotOutput();

  /** One design's answer at one worker count: its verdict (what made it unsafe: detail), its throughput when safe. */
  private record Cell(String verdict, String detail, Optional<Simulation.Point> point) {}

  @Override
  public Integer call() {
    plot.checkWritable();
    List<Integer> counts = SimulateCommand.counts(workers, 1);
    Machine machine = sim.machine();
    List<Design> designs = new ArrayList<>();
    for (Path f : files) {
      designs.add(load(f));
    }
    List<StepTimes> times = sim.times(designs, files); // per design, the --time entries it has a step for
    Map<Integer, List<Cell>> table = new LinkedHashMap<>();
    for (int n : counts) {
      List<Cell> row = new ArrayList<>();
      for (int i = 0; i < designs.size(); i++) {
        row.add(cell(designs.get(i), n, machine, times.get(i)));
      }
      table.put(n, row);
    }
    PrintWriter out = spec.commandLine().getOut();
    if (json) {
      out.println(Json.write(json(designs, table)));
    } else {
      text(out, designs, times, table);
    }
    out.flush();
    plot.write(page(designs, times, table));
    return table.values().stream().allMatch(row -> fastest(row) >= 0) ? 0 : 1;
  }

  private Design load(Path f) {
    try {
      Design d = DesignParser.parse(f);
      return vram == null ? d : d.withVram(Sizes.parseOrThrow(vram));
    } catch (DesignException e) {
      throw new CliError(e.getMessage());
    } catch (IllegalArgumentException e) {
      throw new CliError("--vram " + vram + ": " + e.getMessage());
    }
  }

  private Cell cell(Design d, int n, Machine machine, StepTimes times) {
    String role = d.roles().get(0).name();
    CheckReport r = Checker.check(d.withThreads(role, n), d.name(), Checker.Options.defaults(CheckCommand.DEFAULT_MAX_STATES));
    if (!(r.verdict() instanceof Verdict.Safe)) {
      return new Cell(r.verdict().label(), "check: " + checkDetail(r.verdict()), Optional.empty());
    }
    Simulation.Point p = Simulation.sweep(d, new Simulation.Plan(role, List.of(n), SimulateCommand.JOBS, sim.runs, sim.seed),
        machine, times).get(0);
    ThroughputPlot.Cell c = ThroughputPlot.Cell.of(p);
    return new Cell(c.verdict(), c.detail(), c.point());
  }

  private static String checkDetail(Verdict v) {
    if (v instanceof Verdict.Unsafe u) {
      return u.violation().message();
    }
    if (v instanceof Verdict.LimitReached l) {
      return "a limit (" + l.limit().label() + ") stopped the search: not a proof of safety";
    }
    return v.label();
  }

  /** The index of the safe design with the highest throughput in a row, or -1 when none is safe. */
  private static int fastest(List<Cell> row) {
    int best = -1;
    for (int i = 0; i < row.size(); i++) {
      Optional<Simulation.Point> p = row.get(i).point();
      if (p.isPresent() && (best < 0 || p.get().jobsPerMinute() > row.get(best).point().get().jobsPerMinute())) {
        best = i;
      }
    }
    return best;
  }

  private void text(PrintWriter out, List<Design> designs, List<StepTimes> times, Map<Integer, List<Cell>> table) {
    out.printf(Locale.ROOT, "compare   jobs per minute (95%% CI) of safe designs, else the verdict; %d runs of %d jobs"
        + " per thread, seeds %d..%d; %s%n", sim.runs, SimulateCommand.JOBS, sim.seed, sim.seed + sim.runs - 1,
        sim.machineText());
    StringBuilder head = new StringBuilder(String.format(Locale.ROOT, "%-8s", "workers"));
    designs.forEach(d -> head.append(String.format(Locale.ROOT, " %22s", d.name())));
    out.println(head.append("  fastest safe"));
    table.forEach((n, row) -> {
      StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "%-8d", n));
      for (Cell c : row) {
        line.append(String.format(Locale.ROOT, " %22s", c.point().map(p -> String.format(Locale.ROOT, "%.2f +- %.2f",
            p.jobsPerMinute(), p.jobsPerMinuteCi95())).orElse(c.verdict())));
      }
      int best = fastest(row);
      out.println(line.append("  ").append(best < 0 ? "none" : designs.get(best).name()));
    });
    for (int i = 0; i < designs.size(); i++) {
      List<String> untimed = times.get(i).untimed();
      if (!untimed.isEmpty()) {
        out.printf(Locale.ROOT, "untimed   %s: %s%n", designs.get(i).name(), String.join(", ", untimed));
      }
    }
  }

  /** The page of {@code --html}: a curve per design from the same cells as the table, the fastest safe marked. */
  private ThroughputPlot.Plot page(List<Design> designs, List<StepTimes> times, Map<Integer, List<Cell>> table) {
    List<String> notes = new ArrayList<>(List.of(String.format(Locale.ROOT, "%d runs of %d jobs per thread per count, seeds"
        + " %d..%d; %s", sim.runs, SimulateCommand.JOBS, sim.seed, sim.seed + sim.runs - 1, sim.machineText())));
    if (sim.durations != null) {
      notes.add("durations: " + sim.durations);
    }
    List<ThroughputPlot.Series> series = new ArrayList<>();
    for (int i = 0; i < designs.size(); i++) {
      Design d = designs.get(i);
      int at = i;
      List<ThroughputPlot.Cell> cells = new ArrayList<>();
      table.forEach((n, row) -> cells.add(new ThroughputPlot.Cell(n, row.get(at).verdict(), row.get(at).detail(),
          row.get(at).point())));
      series.add(new ThroughputPlot.Series(d.name(), files.get(i).toString(), d.mutexes(), cells));
      if (!times.get(i).untimed().isEmpty()) {
        notes.add("untimed in " + d.name() + ": " + String.join(", ", times.get(i).untimed()));
      }
    }
    Set<String> roles = new LinkedHashSet<>();
    designs.forEach(d -> roles.add(d.roles().get(0).name()));
    return new ThroughputPlot.Plot("throughput: " + designs.stream().map(Design::name).collect(Collectors.joining(", ")),
        notes, roles.size() == 1 ? "workers (" + roles.iterator().next() + " threads)"
            : "workers (threads of each design's first role)", series, true);
  }

  private ObjectNode json(List<Design> designs, Map<Integer, List<Cell>> table) {
    ObjectNode m = Json.object();
    ArrayNode ds = m.putArray("designs");
    for (int i = 0; i < designs.size(); i++) {
      ObjectNode d = ds.addObject();
      d.put("file", files.get(i).toString());
      d.put("name", designs.get(i).name());
      d.put("role", designs.get(i).roles().get(0).name());
    }
    m.put("runs", sim.runs);
    m.put("jobs_per_thread", SimulateCommand.JOBS);
    m.put("seed", sim.seed);
    ArrayNode rows = m.putArray("rows");
    table.forEach((n, row) -> {
      ObjectNode r = rows.addObject();
      r.put("workers", n);
      ArrayNode cells = r.putArray("designs");
      for (Cell c : row) {
        ObjectNode o = cells.addObject();
        o.put("verdict", c.verdict());
        o.put("jobs_per_minute", c.point().map(Simulation.Point::jobsPerMinute).orElse(null));
        o.put("jobs_per_minute_ci95", c.point().map(Simulation.Point::jobsPerMinuteCi95).orElse(null));
      }
      int best = fastest(row);
      r.put("fastest_safe", best < 0 ? null : designs.get(best).name());
    });
    return m;
  }
}
