package dev.interlock.maven;

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
 * {@code interlock:check}: checks every design file under {@code directory} against its {@code # expect:} line (SAFE
 * where there is none) and fails the build when one does not meet it. The work is {@link DesignsCheck}'s.
 */
@Mojo(name = "check", defaultPhase = LifecyclePhase.VERIFY, threadSafe = true)
public class CheckMojo extends AbstractMojo {
  /** The directory of the design files. */
  @Parameter(property = "interlock.directory", defaultValue = "${project.basedir}/src/main/designs")
  File directory;

  /** Patterns of the design files to check, relative to {@code directory} (default: every {@code .design} file). */
  @Parameter(property = "interlock.includes")
  List<String> includes;

  /** Patterns of files under {@code directory} not to check. */
  @Parameter(property = "interlock.excludes")
  List<String> excludes;

  /**
   * Thread counts {@code ROLE:N,ROLE:N} for every design that has the role; a role no design has is an error.
   */
  @Parameter(property = "interlock.threads")
  String threads;

  /** Device memory for every design (e.g. {@code 24GiB}); by default each design's own {@code vram}. */
  @Parameter(property = "interlock.vram")
  String vram;

  /** Distinct states at which a search stops with the verdict LIMIT (never SAFE). */
  @Parameter(property = "interlock.maxStates", defaultValue = "20000000")
  long maxStates;

  /** Whether a LIMIT fails the build; otherwise it is a warning. */
  @Parameter(property = "interlock.failOnLimit", defaultValue = "true")
  boolean failOnLimit;

  /** Skips the check. */
  @Parameter(property = "interlock.skip", defaultValue = "false")
  boolean skip;

  /** The project's directory: file names are shown relative to it. */
  @Parameter(defaultValue = "${project.basedir}", readonly = true, required = true)
  File basedir;

  /** Where the reports go; the goal writes nowhere else. */
  @Parameter(defaultValue = "${project.build.directory}/interlock", readonly = true, required = true)
  File outputDirectory;

  @Override
  public void execute() throws MojoExecutionException, MojoFailureException {
    if (skip) {
      getLog().info("interlock: skipped (interlock.skip)");
      return;
    }
    DesignsCheck.Outcome outcome;
    try {
      CheckSettings s = CheckSettings.of(basedir.toPath(), directory.toPath(), includes, excludes, threads, vram,
          maxStates, failOnLimit, outputDirectory.toPath());
      outcome = DesignsCheck.run(s, new DesignsCheck.Log() {
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
    if (!outcome.failed().isEmpty()) {
      throw new MojoFailureException(outcome.failureMessage());
    }
  }
}
