package dev.interlock.maven;

import dev.interlock.fidelity.FidelityDevice;
import dev.interlock.fidelity.FidelityOptions;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * What {@code interlock:fidelity} compares and how: the goal's parameters, validated, without Maven types.
 *
 * @param basedir         the project's directory: file names are shown relative to it
 * @param directory       where the designs are
 * @param includes        patterns of the design files to compare, relative to {@code directory}
 * @param excludes        patterns of files left out
 * @param options         the comparison's runs, seed, jitter and state limit, on the simulated device
 * @param outputDirectory where the report goes; the goal writes nowhere else
 */
public record FidelitySettings(Path basedir, Path directory, List<String> includes, List<String> excludes,
    FidelityOptions options, Path outputDirectory) {
  public FidelitySettings {
    Objects.requireNonNull(basedir, "basedir");
    Objects.requireNonNull(directory, "directory");
    Objects.requireNonNull(options, "options");
    Objects.requireNonNull(outputDirectory, "outputDirectory");
    includes = List.copyOf(includes);
    excludes = List.copyOf(excludes);
    if (includes.isEmpty()) {
      throw new IllegalArgumentException("includes must name at least one pattern");
    }
  }

  /**
   * Settings from the goal's parameters as the user wrote them: null or empty {@code includes} for the default; the
   * counts are checked by {@link FidelityOptions}, whose message a bad one gets.
   */
  public static FidelitySettings of(Path basedir, Path directory, List<String> includes, List<String> excludes,
      int runs, long seed, int jitterMicros, long maxStates, Path outputDirectory) throws PluginInputException {
    List<String> inc = DesignFiles.includes(includes);
    List<String> exc = DesignFiles.excludes(excludes);
    FidelityOptions options;
    try {
      options = new FidelityOptions(FidelityDevice.SIMULATED, runs, seed, jitterMicros, maxStates);
    } catch (IllegalArgumentException e) {
      throw new PluginInputException("interlock: " + e.getMessage());
    }
    return new FidelitySettings(basedir, directory, inc, exc, options, outputDirectory);
  }
}
