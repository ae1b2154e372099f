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

  @Override
  public Integer call() {
    Design base = design.load(file);
    String r = role != null ? role : base.roles().get(0).name();
    if (base.role(r).isEmpty()) {
      throw new CliError("--role: no role '" + r + "' in design " + base.name());
    }
    if (from < 1 || to < from) {
      throw new CliError("need 1 <= --from <= --to, got " + from + ".." + to);
    }
    PrintWriter out = spec.commandLine().getOut();
    out.printf(Locale.ROOT, "# interlock bench %s, role %s, %s, %s, Java %s, %d cores%n", file, r,
        noSymmetry ? "no symmetry reduction" : "symmetry reduction", "first-violation BFS",
        System.getProperty("java.version"), Runtime.getRuntime().availableProcessors());
    out.printf(Locale.ROOT, "%-8s %-6s %12s %14s %9s %12s  %s%n", "threads", "jobs", "states", "transitions", "seconds", "states/s", "verdict");
    out.flush();
    int status = 0;
    for (int n = from; n <= to; n++) {
      Design d = base.withThreads(r, n);
      System.gc();
      Exploration e = Explorer.explore(new Model(d), file.toString(),
          new Explorer.Options(maxStates, !noSymmetry, false, java.util.Optional.empty()));
      String verdict = !e.findings().isEmpty() ? e.findings().get(0).violation().kind().name() : e.limitReached() ? "LIMIT" : "SAFE";
      out.printf(Locale.ROOT, "%-8d %-6d %12d %14d %9.3f %12.0f  %s%n", n, d.role(r).orElseThrow().jobs(), e.states(), e.transitions(),
          e.seconds(), e.statesPerSecond(), verdict);
      out.flush();
      if (e.limitReached()) {
        status = 2;
        break;
      }
    }
    return status;
  }
}
