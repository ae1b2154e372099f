package dev.interlock.cli;

import dev.interlock.impl.device.Device;
import dev.interlock.impl.engine.RunReport;
import dev.interlock.view.timeline.ChromeTrace;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** {@code --timeline-json}: a run's Chrome trace event file; and the check, before a run, that its outputs can be written. */
final class Timelines {
  private Timelines() {}

  /** Fails (exit 2) before a run whose timeline could not be written to {@code path} without {@code force}. */
  static void checkWritable(Path path, boolean force) {
    if (path != null && !force && Files.exists(path)) {
      throw new CliError(path + ": exists; not overwritten (pass --force to replace it)");
    }
  }

  /** Writes the timeline of {@code report}, with the kernel timings of {@code device}, to {@code path} (null: none). */
  static void write(RunReport report, Device device, Path path, boolean force) {
    if (path != null) {
      byte[] json = ChromeTrace.json(report, device.kernelTimings()).getBytes(StandardCharsets.UTF_8);
      TraceFiles.write(json, path, force, "timeline");
    }
  }
}
