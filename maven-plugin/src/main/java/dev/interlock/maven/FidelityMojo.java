package dev.interlock.maven;

import dev.interlock.fidelity.FidelityOptions;
import java.io.File;
import java.io.IOException;
import java.util.List;
import org.apache.maven.plugin.AbstractMojo;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugins.annotations.LifecyclePhase;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.Parameter;

/**
 * {@code interlock:fidelity}: compares the model's verdict of every design file under {@code directory} with what the
 * engine does on the simulated device, and fails the build when one disagrees. The work is {@link DesignsFidelity}'s.
 */
@Mojo(name = "fidelity", defaultPhase = LifecyclePhase.VERIFY, threadSafe = true)
public class FidelityMojo extends AbstractMojo {
  /** The directory of the design files. */
  @Parameter(property = "interlock.directory", defaultValue = "${project.basedir}/src/main/designs")
  File directory;

  /** Patterns of the design files to compare, relative to {@code directory} (default: every {@code .design} file). */
  @Parameter(property = "interlock.includes")
  List<String> includes;

  /** Patterns of files under {@code directory} not to compare. */
  @Parameter(property = "interlock.excludes")
  List<String> excludes;

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

  /** Skips the comparison. */
  @Parameter(property = "interlock.skip", defaultValue = "false")
  boolean skip;

  /** The project's directory: file names are shown relative to it. */
  @Parameter(defaultValue = "${project.basedir}", readonly = true, required = true)
  File basedir;

  /** Where the report goes; the goal writes nowhere else. */
  @Parameter(defaultValue = "${project.build.directory}/interlock-fidelity", readonly = true, required = true)
  File outputDirectory;

  @Override
  public void execute() throws MojoExecutionException, MojoFailureException {
    if (skip) {
      getLog().info("interlock: skipped (interlock.skip)");
      return;
    }
    DesignsFidelity.Outcome outcome;
    try {
      FidelitySettings s = FidelitySettings.of(basedir.toPath(), directory.toPath(), includes, excludes, runs, seed,
          jitterMicros, maxStates, outputDirectory.toPath());
      outcome = DesignsFidelity.run(s, new DesignsCheck.Log() {
        @Override
        public void info(String line) {
          getLog().info(line);
        }

        @Override
        public void warn(String line) {
          getLog().warn(line);
        }

        @Override
        public void error(String line) {
          getLog().error(line);
        }
      });
    } catch (PluginInputException e) {
      throw new MojoFailureException(e.getMessage());
    } catch (IOException e) {
      throw new MojoExecutionException("interlock: " + e.getMessage(), e);
    }
    if (!outcome.disagreeing().isEmpty()) {
      throw new MojoFailureException(outcome.failureMessage());
    }
  }
}
