package dev.interlock.maven;

import java.io.File;
import java.io.IOException;
import java.util.Optional;
import org.apache.maven.plugins.annotations.LifecyclePhase;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.Parameter;

/**
 * {@code interlock:check}: checks every design file under {@code directory} against its {@code # expect:} line (SAFE
 * where there is none) and fails the build when one does not meet it. The work is {@link DesignsCheck}'s.
 */
@Mojo(name = "check", defaultPhase = LifecyclePhase.VERIFY, threadSafe = true)
public class CheckMojo extends DesignsMojo {
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

  /** Where the reports go; the goal writes nowhere else. */
  @Parameter(defaultValue = "${project.build.directory}/interlock", readonly = true, required = true)
  File outputDirectory;

  @Override
  Optional<String> run(DesignsCheck.Log log) throws PluginInputException, IOException {
    CheckSettings s = CheckSettings.of(basedir.toPath(), directory.toPath(), includes, excludes, threads, vram, maxStates,
        failOnLimit, outputDirectory.toPath());
    DesignsCheck.Outcome outcome = DesignsCheck.run(s, log);
    return outcome.failed().isEmpty() ? Optional.empty() : Optional.of(outcome.failureMessage());
  }
}
