package dev.interlock.maven;

import java.io.File;
import java.io.IOException;
import java.util.List;
import java.util.Optional;
import org.apache.maven.plugin.AbstractMojo;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugins.annotations.Parameter;

/**
 * What the goals over a directory of design files share: which files, the skip switch, the project's directory, and
 * how a goal's outcome becomes the build's (bad input and a failed design fail it, an unreadable file is an error).
 */
abstract class DesignsMojo extends AbstractMojo {
  /** The directory of the design files. */
  @Parameter(property = "interlock.directory", defaultValue = "${project.basedir}/src/main/designs")
  File directory;

  /** Patterns of the design files to take, relative to {@code directory} (default: every {@code .design} file). */
  @Parameter(property = "interlock.includes")
  List<String> includes;

  /** Patterns of files under {@code directory} not to take. */
  @Parameter(property = "interlock.excludes")
  List<String> excludes;

  /** Skips the goal. */
  @Parameter(property = "interlock.skip", defaultValue = "false")
  boolean skip;

  /** The project's directory: file names are shown relative to it. */
  @Parameter(defaultValue = "${project.basedir}", readonly = true, required = true)
  File basedir;

  /** Runs the goal over the designs, logging to {@code log}; the build's failure message if a design failed. */
  abstract Optional<String> run(DesignsCheck.Log log) throws PluginInputException, IOException;

  @Override
  public final void execute() throws MojoExecutionException, MojoFailureException {
    if (skip) {
      getLog().info("interlock: skipped (interlock.skip)");
      return;
    }
    Optional<String> failure;
    try {
      failure = run(new DesignsCheck.Log() {
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
    if (failure.isPresent()) {
      throw new MojoFailureException(failure.get());
    }
  }
}
