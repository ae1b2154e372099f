package dev.interlock.cli;

import dev.interlock.impl.api.Device;
import dev.interlock.impl.engine.RunReport;
import dev.interlock.view.timeline.ChromeTrace;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/**
 * The views a command that runs the engine can write ({@code --timeline-json}, {@code --html}, {@code --force}): one
 * declaration for {@code run}, {@code replay} and {@code prove}, and the check, made before the run, that no output
 * would replace a file without {@code --force}, so that no run is wasted.
 */
final class RunOutputs {
  @Option(names = "--timeline-json", paramLabel = "OUT.json", description = "Write the engine's run as a Chrome trace event "
      + "file (open it in ui.perfetto.dev or chrome://tracing): thread, lock, device memory and, on the GPU, kernel tracks.")
  Path timelineJson;

  @Option(names = "--html", paramLabel = "OUT.html", description = "Write a self-contained HTML view there: run and prove, the "
      + "events on their clock; replay, the trace (with --on impl or gpu, beside the engine's run of it).")
  Path html;

  @Option(names = "--force", description = "Let --timeline-json or --html replace an existing file.")
  boolean force;

  /** Fails (exit 2) when an output exists and {@code --force} was not given; call before the run. */
  void checkWritable() {
    TraceFiles.checkWritable(timelineJson, force);
    TraceFiles.checkWritable(html, force);
  }

  /** Writes the timeline of {@code report}, with the kernel timings of {@code device}, when one was asked for. */
  void writeTimeline(RunReport report, Device device) {
    if (timelineJson != null) {
      byte[] json = ChromeTrace.json(report, device.kernelTimings()).getBytes(StandardCharsets.UTF_8);
      TraceFiles.write(json, timelineJson, force, "timeline");
    }
  }
}
