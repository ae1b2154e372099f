package dev.interlock.model.sim;

import dev.interlock.model.design.Design;
import dev.interlock.model.state.Model;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.IntStream;

/** Simulated runs of a design at several worker counts, summarized per count: {@code interlock simulate}. */
public final class Simulation {
  private Simulation() {}

  /**
   * What to simulate.
   *
   * @param role    the role whose thread count is swept
   * @param workers the counts, in order
   * @param jobs    jobs per thread of every role (more jobs: less start and drain in the throughput); 0 keeps the
   *                design's
   * @param runs    runs per count, with seeds seed, seed + 1, ...
   * @param seed    the first run's seed
   */
  public record Plan(String role, List<Integer> workers, int jobs, int runs, long seed) {
    public Plan {
      Objects.requireNonNull(role, "role");
      workers = List.copyOf(workers);
      if (workers.isEmpty() || workers.stream().anyMatch(w -> w < 1)) {
        throw new IllegalArgumentException("worker counts are at least 1, got " + workers);
      }
      if (jobs < 0 || runs < 1) {
        throw new IllegalArgumentException("jobs are at least 0 (0: the design's) and runs at least 1, got " + jobs
            + " and " + runs);
      }
    }
  }

  /**
   * The summary of one worker count's runs.
   *
   * @param workers             threads of the swept role
   * @param runs                the runs, in seed order
   * @param jobsPerMinute       mean throughput over the runs (0 when a run stopped)
   * @param jobsPerMinuteCi95   half the width of its 95% confidence interval (Student's t over the runs; 0 for one run)
   * @param latencyMedian       median job latency in seconds, over all runs' jobs
   * @param latencyP95          95th percentile job latency
   * @param gpuBusyFraction     time with a kernel running, over the runs' total time
   * @param holdMedian          per mutex, the median hold in seconds (empty when never held)
   * @param waitMedian          per mutex, the median wait for it
   * @param peakUsedBytes       the most device bytes in use in any run
   * @param stop                the first run's stop (a violation or deadlock), if any run stopped: then no throughput
   */
  public record Point(int workers, List<SimRun> runs, double jobsPerMinute, double jobsPerMinuteCi95,
      double latencyMedian, double latencyP95, double gpuBusyFraction, Map<String, Optional<Double>> holdMedian,
      Map<String, Optional<Double>> waitMedian, long peakUsedBytes, Optional<SimRun.Stop> stop) {
    public Point {
      runs = List.copyOf(runs);
      holdMedian = Map.copyOf(holdMedian);
      waitMedian = Map.copyOf(waitMedian);
    }
  }

  /** Runs {@code plan} on {@code design} (its other roles as they are). */
  public static List<Point> sweep(Design design, Plan plan, Machine machine, StepTimes times) {
    design.role(plan.role()).orElseThrow(() -> new IllegalArgumentException("no role " + plan.role() + " in design "
        + design.name()));
    Design withJobs = design;
    for (var r : design.roles()) {
      withJobs = plan.jobs() == 0 ? withJobs : withJobs.withJobs(r.name(), plan.jobs());
    }
    // every run has its own seed and simulator, so the runs go in parallel and the result is the same in any order
    List<Model> models = new ArrayList<>();
    for (int w : plan.workers()) {
      models.add(new Model(withJobs.withThreads(plan.role(), w)));
    }
    int r = plan.runs();
    List<SimRun> all = IntStream.range(0, models.size() * r).parallel()
        .mapToObj(k -> Simulator.run(models.get(k / r), machine, times, plan.seed() + k % r)).toList();
    List<Point> out = new ArrayList<>();
    for (int i = 0; i < models.size(); i++) {
      out.add(summary(plan.workers().get(i), all.subList(i * r, (i + 1) * r), design.mutexes()));
    }
    return out;
  }

  static Point summary(int workers, List<SimRun> runs, List<String> mutexes) {
    Optional<SimRun.Stop> stop = runs.stream().flatMap(r -> r.stop().stream()).findFirst();
    double[] rates = runs.stream().mapToDouble(SimRun::jobsPerMinute).toArray();
    double mean = stop.isPresent() ? 0 : Arrays.stream(rates).average().orElse(0);
    double ci = stop.isPresent() ? 0 : ci95(rates);
    double[] lat = runs.stream().flatMap(r -> r.jobSeconds().stream()).mapToDouble(Double::doubleValue).sorted().toArray();
    double total = runs.stream().mapToDouble(SimRun::seconds).sum();
    double busy = runs.stream().mapToDouble(SimRun::gpuBusySeconds).sum();
    Map<String, Optional<Double>> hold = new LinkedHashMap<>();
    Map<String, Optional<Double>> wait = new LinkedHashMap<>();
    for (String m : mutexes) {
      hold.put(m, median(runs.stream().flatMap(r -> r.holdSeconds().getOrDefault(m, List.of()).stream())
          .mapToDouble(Double::doubleValue).sorted().toArray()));
      wait.put(m, median(runs.stream().flatMap(r -> r.waitSeconds().getOrDefault(m, List.of()).stream())
          .mapToDouble(Double::doubleValue).sorted().toArray()));
    }
    long peak = runs.stream().mapToLong(SimRun::peakUsedBytes).max().orElse(0);
    return new Point(workers, runs, mean, ci, quantile(lat, 0.5), quantile(lat, 0.95), total == 0 ? 0 : busy / total,
        hold, wait, peak, stop);
  }

  private static Optional<Double> median(double[] sorted) {
    return sorted.length == 0 ? Optional.empty() : Optional.of(quantile(sorted, 0.5));
  }

  /** The q-quantile of sorted values (nearest rank); 0 for none. */
  static double quantile(double[] sorted, double q) {
    if (sorted.length == 0) {
      return 0;
    }
    int rank = (int) Math.ceil(q * sorted.length);
    return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))];
  }

  /** Half the width of the 95% confidence interval of the mean: Student's t with n - 1 degrees of freedom. */
  static double ci95(double[] x) {
    int n = x.length;
    if (n < 2) {
      return 0;
    }
    double mean = Arrays.stream(x).average().orElseThrow();
    double var = Arrays.stream(x).map(v -> (v - mean) * (v - mean)).sum() / (n - 1);
    return T95[Math.min(n - 1, T95.length - 1)] * Math.sqrt(var / n);
  }

  /** Two-sided 95% quantiles of Student's t by degrees of freedom (index 0 unused; the last stands for 30 and more). */
  private static final double[] T95 = {0, 12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201,
      2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052,
      2.048, 2.045, 2.042};
}
