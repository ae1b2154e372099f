package dev.interlock.cli;

import dev.interlock.view.html.ThroughputPlot;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/**
 * The {@code --html OUT.html} and {@code --force} of {@code simulate} and {@code compare}: the throughput plot, and the
 * check, made before the simulation, that it would replace no file without {@code --force}.
 */
final class PlotOutput {
  @Option(names = "--html", paramLabel = "OUT.html", description = "Also write a self-contained HTML page there: jobs per"
      + " minute against workers (one curve per design, 95% CI error bars, unsafe counts marked with their verdict) and the"
      + " same numbers as a table.")
  Path html;

  @Option(names = "--force", description = "Let --html replace an existing file.")
  boolean force;

  /** Fails (exit 2) when {@code --html} names an existing file and {@code --force} was not given; call before the runs. */
  void checkWritable() {
    TraceFiles.checkWritable(html, force);
  }

  /** Writes the page of {@code plot} when {@code --html} was given. */
  void write(ThroughputPlot.Plot plot) {
    if (html != null) {
      TraceFiles.write(ThroughputPlot.render(plot), html, force, "HTML plot");
    }
  }
}
