package dev.interlock.maven;

import dev.interlock.fidelity.FidelityOptions;
import java.io.File;
import java.io.IOException;
import java.util.Optional;
import org.apache.maven.plugins.annotations.LifecyclePhase;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.Parameter;

/**
 * {@code interlock:fidelity}: compares the model's verdict of every design file under {@code directory} with what the
 * engine does on the simulated device, and fails the build when one disagrees. The work is {@link DesignsFidelity}'s.
 */
@Mojo(name = "fidelity", defaultPhase = LifecyclePhase.VERIFY, threadSafe = true)
public class FidelityMojo extends DesignsMojo {
  /** Free runs of each SAFE design. */
  @Parameter(property = "interlock.fidelity.runs", defaultValue = "" + FidelityOptions.DEFAULT_RUNS)
  int runs;

  /** The first free run's jitter seed; run i uses seed + i. */
  @Parameter(property = "interlock.fidelity.seed", defaultValue = "" + FidelityOptions.DEFAULT_SEED)
  long seed;

  /** The most microseconds a free run's thread pauses before a step. */
  @Parameter(property = "interlock.fidelity.jitterMicros", defaultValue = "" + FidelityOptions.DEFAULT_JITTER_MICROS)
  int jitterMicros;

  /** Distinct states at which the model's search stops with the verdict LIMIT, which is not compared and disagrees. */
  @Parameter(property = "interlock.maxStates", defaultValue = "" + FidelityOptions.DEFAULT_MAX_STATES)
  long maxStates;

  /** Where the report goes; the goal writes nowhere else. */
  @Parameter(defaultValue = "${project.build.directory}/interlock-fidelity", readonly = true, required = true)
  File outputDirectory;

  @Override
  Optional<String> run(DesignsCheck.Log log) throws PluginInputException, IOException {
    FidelitySettings s = FidelitySettings.of(basedir.toPath(), directory.toPath(), includes, excludes, runs, seed,
        jitterMicros, maxStates, outputDirectory.toPath());
    DesignsFidelity.Outcome outcome = DesignsFidelity.run(s, log);
    return outcome.disagreeing().isEmpty() ? Optional.empty() : Optional.of(outcome.failureMessage());
  }
}
