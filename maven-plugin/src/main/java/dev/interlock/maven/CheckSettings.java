package dev.interlock.maven;

import dev.interlock.model.design.Sizes;
import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What {@code interlock:check} checks and how: the goal's parameters, validated, without Maven types.
 *
 * @param basedir         the project's directory: file names are shown relative to it
 * @param directory       where the designs are
 * @param includes        patterns of the design files to check, relative to {@code directory}
 * @param excludes        patterns of files left out
 * @param threads         thread counts per role, applied to every design that has the role
 * @param vram            device memory in bytes for every design, or empty for each design's own
 * @param maxStates       distinct states at which a search stops (verdict LIMIT)
 * @param failOnLimit     whether a LIMIT fails the build (otherwise it is a warning)
 * @param outputDirectory where the reports go; the plugin writes nowhere else
 */
public record CheckSettings(Path basedir, Path directory, List<String> includes, List<String> excludes,
    Map<String, Integer> threads, OptionalLong vram, long maxStates, boolean failOnLimit, Path outputDirectory) {
  /** The CLI's default state limit, {@code --max-states}. */
  public static final long DEFAULT_MAX_STATES = 20_000_000;

  /** The default includes: every {@code .design} file at any depth. */
  public static final String DEFAULT_INCLUDES = "**/*.design";

  private static final Pattern ROLE_COUNT = Pattern.compile("([A-Za-z_][A-Za-z0-9_]*):([0-9]+)");

  public CheckSettings {
    Objects.requireNonNull(basedir, "basedir");
    Objects.requireNonNull(directory, "directory");
    Objects.requireNonNull(vram, "vram");
    Objects.requireNonNull(outputDirectory, "outputDirectory");
    includes = List.copyOf(includes);
    excludes = List.copyOf(excludes);
    if (includes.isEmpty()) {
      throw new IllegalArgumentException("includes must name at least one pattern");
    }
    threads = Collections.unmodifiableMap(new LinkedHashMap<>(threads));
    threads.forEach((role, n) -> {
      if (n < 1) {
        throw new IllegalArgumentException("threads of " + role + " must be at least 1, got " + n);
      }
    });
    if (vram.isPresent() && vram.getAsLong() < 1) {
      throw new IllegalArgumentException("vram must be positive, got " + vram.getAsLong());
    }
    if (maxStates < 1) {
      throw new IllegalArgumentException("maxStates must be positive, got " + maxStates);
    }
  }

  /**
   * Settings from the goal's parameters as the user wrote them: {@code threads} as {@code ROLE:N,ROLE:N} (null or
   * blank for none), {@code vram} as a size ({@code 24GiB}; null or blank for each design's own), null or empty
   * {@code includes} for the default.
   */
  public static CheckSettings of(Path basedir, Path directory, List<String> includes, List<String> excludes,
      String threads, String vram, long maxStates, boolean failOnLimit, Path outputDirectory)
      throws PluginInputException {
    List<String> inc = DesignFiles.includes(includes);
    List<String> exc = DesignFiles.excludes(excludes);
    if (maxStates < 1) {
      throw new PluginInputException("interlock: maxStates must be positive, got " + maxStates);
    }
    return new CheckSettings(basedir, directory, inc, exc, threads(threads), vram(vram), maxStates, failOnLimit,
        outputDirectory);
  }

  /** {@code ROLE:N,ROLE:N} as a map in the written order; null or blank is none. */
  static Map<String, Integer> threads(String text) throws PluginInputException {
    Map<String, Integer> out = new LinkedHashMap<>();
    if (text == null || text.isBlank()) {
      return out;
    }
    for (String part : text.split(",", -1)) {
      Matcher m = ROLE_COUNT.matcher(part.trim());
      if (!m.matches()) {
        throw new PluginInputException("interlock: threads: '" + part.trim() + "' is not ROLE:N (e.g. gpu_worker:2)");
      }
      int n;
      try {
        n = Integer.parseInt(m.group(2));
      } catch (NumberFormatException e) {
        n = 0;
      }
      if (n < 1) {
        throw new PluginInputException("interlock: threads: " + m.group(1) + " needs a whole number from 1, got '"
            + m.group(2) + "'");
      }
      if (out.put(m.group(1), n) != null) {
        throw new PluginInputException("interlock: threads: role " + m.group(1) + " named twice");
      }
    }
    return out;
  }

  /** A size as the design language writes it; null or blank is none. */
  static OptionalLong vram(String text) throws PluginInputException {
    if (text == null || text.isBlank()) {
      return OptionalLong.empty();
    }
    Sizes.Parsed p = Sizes.parse(text.trim());
    if (p.bytes().isEmpty()) {
      throw new PluginInputException("interlock: vram: " + p.error());
    }
    if (p.bytes().get() < 1) {
      throw new PluginInputException("interlock: vram must be positive, got " + text.trim());
    }
    return OptionalLong.of(p.bytes().get());
  }
}
