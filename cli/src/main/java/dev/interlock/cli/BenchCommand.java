package dev.interlock.cli;

import dev.interlock.model.check.Exploration;
import dev.interlock.model.check.Explorer;
import dev.interlock.model.design.Design;
import dev.interlock.model.state.Model;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code interlock bench FILE}: exhaustive search at growing thread counts of one role, with states/s. */
@Command(name = "bench", mixinStandardHelpOptions = true,
    description = "Benchmark the exhaustive checker: one full search per thread count of ROLE, printing states, transitions, wall time and states/s.")
final class BenchCommand implements Callable<Integer> {
  @Spec
  CommandSpec spec;

  @Parameters(index = "0", paramLabel = "FILE", description = "The .design file.")
  Path file;

  @Mixin
  DesignOptions design = new DesignOptions();

  @Option(names = "--role", paramLabel = "ROLE", description = "Role whose thread count grows (default: the first).")
  String role;

  @Option(names = "--from", paramLabel = "N", description = "First thread count (default: ${DEFAULT-VALUE}).")
  int from = 2;

  @Option(names = "--to", paramLabel = "N", description = "Last thread count (default: ${DEFAULT-VALUE}).")
  int to = 8;

  @Option(names = "--max-states", paramLabel = "N", description = "State limit of each search (default: ${DEFAULT-VALUE}).")
  long maxStates = 100_000_000;

  @Option(names = "--no-symmetry", description = "Turn symmetry reduction off.")
  boolean noSymmetry;

  @Option(names = "--step", paramLabel = "K", description = "Grow the thread count by K (default: ${DEFAULT-VALUE}).")
  int step = 1;

  @Option(names = "--no-por", description = "Turn partial-order reduction off.")
  boolean noPor;

  @Option(names = "--search-threads", paramLabel = "N", description = "Threads of each search (default: the available processors).")
  Integer searchThreads;

  @Option(names = "--max-memory", paramLabel = "SIZE", description = "State store limit of each search, e.g. 4GiB (default: none).")
  String maxMemory;

  @Override
  public Integer call() {
    Design base = design.load(file);
    String r = role != null ? role : base.roles().get(0).name();
    if (base.role(r).isEmpty()) {
      throw new CliError("--role: no role '" + r + "' in design " + base.name());
    }
    if (from < 1 || to < from || step < 1) {
      throw new CliError("need 1 <= --from <= --to and --step >= 1, got " + from + ".." + to + " step " + step);
    }
    int threads = searchThreads != null ? searchThreads : Runtime.getRuntime().availableProcessors();
    if (threads < 1 || threads > 1024) {
      throw new CliError("--search-threads must be in 1..1024, got " + threads);
    }
    long memory = Long.MAX_VALUE;
    if (maxMemory != null) {
      dev.interlock.model.design.Sizes.Parsed p = dev.interlock.model.design.Sizes.parse(maxMemory);
      memory = p.bytes().orElseThrow(() -> new CliError("--max-memory: " + p.error()));
    }
    PrintWriter out = spec.commandLine().getOut();
    out.printf(Locale.ROOT, "# interlock bench %s, role %s, %s, %s, %s, %d search threads, Java %s, %d cores%n", file, r,
        noSymmetry ? "no symmetry reduction" : "symmetry reduction", noPor ? "no partial-order reduction" : "partial-order reduction",
        "first-violation BFS", threads, System.getProperty("java.version"), Runtime.getRuntime().availableProcessors());
    out.printf(Locale.ROOT, "%-8s %-6s %12s %14s %9s %12s %10s  %s%n", "threads", "jobs", "states", "transitions", "seconds",
        "states/s", "store_MiB", "verdict");
    out.flush();
    int status = 0;
    for (int n = from; n <= to; n += step) {
      Design d = base.withThreads(r, n);
      System.gc();
      Exploration e = Explorer.explore(new Model(d), file.toString(),
          new Explorer.Options(maxStates, !noSymmetry, false, java.util.Optional.empty()).withSearch(!noPor, threads, memory));
      String verdict = !e.findings().isEmpty() ? e.findings().get(0).violation().kind().name()
          : e.memoryLimit() ? "LIMIT(memory)" : e.limitReached() ? "LIMIT" : "SAFE";
      out.printf(Locale.ROOT, "%-8d %-6d %12d %14d %9.3f %12.0f %10.1f  %s%n", n, d.role(r).orElseThrow().jobs(), e.states(),
          e.transitions(), e.seconds(), e.statesPerSecond(), e.peakBytes() / 1048576.0, verdict);
      out.flush();
      if (e.limitReached()) {
        status = 2;
        break;
      }
    }
    return status;
  }
}
