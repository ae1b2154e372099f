package dev.interlock.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.interlock.model.design.Design;
import dev.interlock.model.design.Sizes;
import dev.interlock.model.sim.Machine;
import dev.interlock.model.sim.SimRun;
import dev.interlock.model.sim.Simulation;
import dev.interlock.model.sim.StepTimes;
import dev.interlock.view.html.ThroughputPlot;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code interlock simulate DESIGN}: the design's throughput on a timed machine, per worker count, by simulated runs
 * whose steps the model decides (docs/simulate.md).
 */
@Command(name = "simulate", mixinStandardHelpOptions = true,
    description = {"Predict a design's throughput: simulated runs on a machine with a GPU and host cores, the steps' times"
        + " from their 'for' clauses or --time, per worker count. Exit 0; 1 when a run stopped at a violation or a"
        + " deadlock (no throughput is reported past it); 2 on bad input."})
final class SimulateCommand implements Callable<Integer> {
  /** Jobs per thread of every role when {@code --jobs} is not given: enough that start and drain weigh little. */
  static final int JOBS = 8;

  @Spec
  CommandSpec spec;

  @Parameters(index = "0", paramLabel = "DESIGN", description = "The design file.")
  Path file;

  @Mixin
  DesignOptions design = new DesignOptions();

  @Option(names = "--role", paramLabel = "ROLE", description = "The role whose threads --workers counts (default: the first).")
  String role;

  @Option(names = "--workers", paramLabel = "N|A..B", description = "Worker counts to simulate: one, or a range (default: the design's count).")
  String workers;

  @Mixin
  SimulationOptions sim = new SimulationOptions();

  @Option(names = "--scale", paramLabel = "NAME=FACTOR", description = "Multiply an interval's time, e.g. synthesize=0.5 (repeatable; a what-if).")
  Map<String, String> scale = new LinkedHashMap<>();

  @Option(names = "--json", description = "One JSON object on stdout instead of the text.")
  boolean json;

  @Mixin
  PlotOutput plot = new PlotOutput();

  @Override
  public Integer call() {
    plot.checkWritable();
    Design d = design.load(file);
    String r = role != null ? role : d.roles().get(0).name();
    if (d.role(r).isEmpty()) {
      throw new CliError("no role " + r + " in " + file);
    }
    List<Integer> counts = counts(workers, d.role(r).get().threads());
    Machine machine;
    StepTimes times;
    Simulation.Plan plan;
    try {
      machine = sim.machine();
      times = sim.times(d, file);
      for (Map.Entry<String, String> e : scale.entrySet()) {
        times = times.scaled(e.getKey(), factor(e.getKey(), e.getValue()));
      }
      // 8 jobs per thread of every role, unless --jobs ROLE=N says otherwise: then the design's jobs with those
      plan = new Simulation.Plan(r, counts, design.jobs.isEmpty() ? JOBS : 0, sim.runs, sim.seed);
    } catch (IllegalArgumentException e) {
      throw new CliError(file + ": " + e.getMessage());
    }
    List<Simulation.Point> points = Simulation.sweep(d, plan, machine, times);
    PrintWriter out = spec.commandLine().getOut();
    if (json) {
      out.println(Json.write(json(d, plan, machine, times, points)));
    } else {
      text(out, d, plan, machine, times, points);
    }
    out.flush();
    plot.write(page(d, plan, times, points));
    return points.stream().anyMatch(p -> p.stop().isPresent()) ? 1 : 0;
  }

  private static double factor(String name, String text) {
    try {
      double f = Double.parseDouble(text);
      if (!(f > 0) || Double.isInfinite(f)) {
        throw new NumberFormatException();
      }
      return f;
    } catch (NumberFormatException e) {
      throw new CliError("--scale " + name + "=" + text + ": the factor is a positive number, e.g. 0.5");
    }
  }

  /** The worker counts of {@code --workers}: N, or A..B. */
  static List<Integer> counts(String text, int fallback) {
    if (text == null) {
      return List.of(fallback);
    }
    try {
      String[] parts = text.split("\\.\\.", -1);
      int from = Integer.parseInt(parts[0].trim());
      int to = parts.length == 2 ? Integer.parseInt(parts[1].trim()) : from;
      if (parts.length > 2 || from < 1 || to < from || to > 1024) {
        throw new NumberFormatException();
      }
      List<Integer> out = new ArrayList<>();
      for (int n = from; n <= to; n++) {
        out.add(n);
      }
      return out;
    } catch (NumberFormatException e) {
      throw new CliError("--workers " + text + ": expected N or A..B with 1 <= A <= B <= 1024");
    }
  }

  private void text(PrintWriter out, Design d, Simulation.Plan plan, Machine machine, StepTimes times,
      List<Simulation.Point> points) {
    out.printf(Locale.ROOT, "design    %s (%s)%n", d.name(), file);
    out.printf(Locale.ROOT, "machine   %s%n", sim.machineText());
    out.printf(Locale.ROOT, "plan      %s%n", planText(plan));
    if (sim.durations != null) {
      List<String> unmatched = sim.unmatched(d);
      out.printf(Locale.ROOT, "durations %s%s%n", sim.durations, unmatched.isEmpty() ? ""
          : " (not in this design, left out: " + String.join(", ", unmatched) + ")");
    }
    if (!times.untimed().isEmpty()) {
      out.printf(Locale.ROOT, "untimed   %s%n", untimedText(times));
    }
    if (!times.widths().isEmpty()) {
      List<String> w = new ArrayList<>();
      times.widths().forEach((k, v) -> w.add(String.format(Locale.ROOT, "%s %.2f", k, v)));
      out.printf(Locale.ROOT, "cores     %s (host cores each keeps busy alone; the others 1)%n", String.join(", ", w));
    }
    out.printf(Locale.ROOT, "%-8s %18s %10s %10s %8s %12s%s%n", "workers", "jobs/min (95% CI)", "lat_med_s", "lat_p95_s",
        "gpu_busy", "peak_used", holdHeader(d));
    for (Simulation.Point p : points) {
      if (p.stop().isPresent()) {
        SimRun.Stop s = p.stop().get();
        out.printf(Locale.ROOT, "%-8d %s at %.3f s (%s): %s%n", p.workers(), s.kind(), s.seconds(), s.thread(), s.message());
        continue;
      }
      StringBuilder holds = new StringBuilder();
      for (String m : d.mutexes()) {
        holds.append(String.format(Locale.ROOT, " %9s/%-9s", seconds(p.holdMedian().get(m)), seconds(p.waitMedian().get(m))));
      }
      out.printf(Locale.ROOT, "%-8d %9.2f +- %-5.2f %10.3f %10.3f %7.1f%% %12s%s%n", p.workers(), p.jobsPerMinute(),
          p.jobsPerMinuteCi95(), p.latencyMedian(), p.latencyP95(), 100 * p.gpuBusyFraction(), Sizes.format(p.peakUsedBytes()),
          holds);
    }
  }

  /** The page of {@code --html}: the same points as the text, one curve; a stopped count drawn with its verdict. */
  private ThroughputPlot.Plot page(Design d, Simulation.Plan plan, StepTimes times, List<Simulation.Point> points) {
    List<String> notes = new ArrayList<>(List.of("design " + d.name() + " (" + file + ")", "machine: " + sim.machineText(),
        "plan: " + planText(plan)));
    if (sim.durations != null) {
      notes.add("durations: " + sim.durations);
    }
    if (!times.untimed().isEmpty()) {
      notes.add("untimed: " + untimedText(times));
    }
    return new ThroughputPlot.Plot("throughput: " + d.name(), notes, "workers (" + plan.role() + " threads)",
        List.of(new ThroughputPlot.Series(d.name(), file.toString(), d.mutexes(),
            points.stream().map(ThroughputPlot.Cell::of).toList())), false);
  }

  private static String planText(Simulation.Plan plan) {
    return String.format(Locale.ROOT, "%s x %s, %s, %d runs each, seeds %d..%d", plan.role(),
        plan.workers().size() == 1 ? plan.workers().get(0) : plan.workers().get(0) + ".." + plan.workers().get(plan.workers().size() - 1),
        plan.jobs() == 0 ? "the design's jobs" : plan.jobs() + " jobs per thread", plan.runs(), plan.seed(),
        plan.seed() + plan.runs() - 1);
  }

  private static String untimedText(StepTimes times) {
    return String.join(", ", times.untimed()) + " (no 'for' and no --time: they take no time)";
  }

  private static String holdHeader(Design d) {
    StringBuilder out = new StringBuilder();
    for (String m : d.mutexes()) {
      out.append(String.format(Locale.ROOT, " %19s", m + " hold/wait_s"));
    }
    return out.toString();
  }

  private static String seconds(Optional<Double> s) {
    return s.map(x -> String.format(Locale.ROOT, "%.3f", x)).orElse("-");
  }

  private ObjectNode json(Design d, Simulation.Plan plan, Machine machine, StepTimes times, List<Simulation.Point> points) {
    ObjectNode m = Json.object();
    m.put("design", file.toString());
    m.put("role", plan.role());
    m.put("jobs_per_thread", plan.jobs() == 0 ? null : plan.jobs());
    m.put("runs", plan.runs());
    m.put("seed", plan.seed());
    m.put("cores", machine.cores());
    m.put("gpu_concurrent", machine.gpuConcurrent());
    m.put("gpu_slowdown", machine.gpuSlowdown());
    ArrayNode untimed = m.putArray("untimed");
    times.untimed().forEach(untimed::add);
    ArrayNode ps = m.putArray("points");
    for (Simulation.Point p : points) {
      ObjectNode o = ps.addObject();
      o.put("workers", p.workers());
      o.put("jobs_per_minute", p.stop().isPresent() ? null : p.jobsPerMinute());
      o.put("jobs_per_minute_ci95", p.stop().isPresent() ? null : p.jobsPerMinuteCi95());
      o.put("job_latency_median_seconds", Json.seconds(p.latencyMedian()));
      o.put("job_latency_p95_seconds", Json.seconds(p.latencyP95()));
      o.put("gpu_busy_fraction", p.gpuBusyFraction());
      o.put("peak_used_bytes", p.peakUsedBytes());
      ObjectNode locks = o.putObject("locks");
      for (String mu : d.mutexes()) {
        ObjectNode l = locks.putObject(mu);
        l.put("hold_median_seconds", p.holdMedian().get(mu).map(Json::seconds).orElse(null));
        l.put("wait_median_seconds", p.waitMedian().get(mu).map(Json::seconds).orElse(null));
      }
      if (p.stop().isPresent()) {
        SimRun.Stop s = p.stop().get();
        ObjectNode st = o.putObject("stop");
        st.put("kind", s.kind().name());
        st.put("seconds", Json.seconds(s.seconds()));
        st.put("thread", s.thread());
        st.put("message", s.message());
      } else {
        o.putNull("stop");
      }
    }
    return m;
  }
}
