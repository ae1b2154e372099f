package dev.interlock.cli;

import dev.interlock.impl.engine.IntervalDurations;
import dev.interlock.impl.engine.ProcessCpuClock;
import dev.interlock.impl.engine.RunReport;
import dev.interlock.model.sim.DurationsFile;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import picocli.CommandLine.Option;

/**
 * {@code --durations-out FILE} of the commands that run the engine ({@code run}, {@code prove}): every interval's
 * measured times and cores, as a durations file for {@code simulate --durations}.
 */
final class DurationsOut {
  @Option(names = "--durations-out", paramLabel = "FILE", description = "Write every cpu and kernel step's measured times, and "
      + "the host cores the process kept busy meanwhile, as a durations file for simulate --durations (docs/simulate.md). "
      + "Measure with one worker: cores are the whole process's. --force lets it replace a file.")
  Path file;

  private ProcessCpuClock clock;

  /** Fails (exit 2) when the file exists and {@code force} is not set; call before the run. */
  void checkWritable(boolean force) {
    TraceFiles.checkWritable(file, force);
  }

  /** Starts the CPU clock when a file was asked for; call just before the run. */
  void start() {
    if (file != null) {
      clock = ProcessCpuClock.start();
    }
  }

  /** Stops the clock and writes the file, when one was asked for; {@code command} goes into its header. */
  void write(RunReport report, boolean force, String command) {
    if (file == null) {
      return;
    }
    clock.close();
    List<DurationsFile.Measured> measured = IntervalDurations.of(report, Optional.of(clock));
    if (measured.isEmpty()) {
      throw new CliError("--durations-out " + file + ": the run took no cpu or kernel step to its end");
    }
    TraceFiles.write(DurationsFile.write(measured, List.of("from: " + command, "written: " + java.time.Instant.now())), file,
        force, "durations");
  }
}
