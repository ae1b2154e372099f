package dev.interlock.maven;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.stream.Stream;

/** Finds the design files under a directory that an include matches and no exclude does, in path order. */
final class DesignFiles {
  private DesignFiles() {}

  /**
   * A design file a goal works on.
   *
   * @param file   the path relative to the design directory ({@code /} between names); reports are named after it
   * @param source the path as shown: relative to the project's directory where it is under it
   * @param text   the file's text
   */
  record Selected(String file, String source, String text) {
    Selected {
      Objects.requireNonNull(file, "file");
      Objects.requireNonNull(source, "source");
      Objects.requireNonNull(text, "text");
    }
  }

  /**
   * The files under {@code directory} that an include selects and no exclude does, read, in path order; a missing
   * directory or no file at all is bad input, so that a wrong directory or pattern cannot pass.
   */
  static List<Selected> select(Path basedir, Path directory, List<String> includes, List<String> excludes)
      throws PluginInputException, IOException {
    if (!Files.isDirectory(directory)) {
      throw new PluginInputException("interlock: no design directory " + shown(basedir, directory)
          + " (set <directory> or -Dinterlock.directory)");
    }
    List<String> files = find(directory, patterns("includes", includes), patterns("excludes", excludes));
    if (files.isEmpty()) {
      throw new PluginInputException("interlock: no design files in " + shown(basedir, directory) + " match includes "
          + includes + (excludes.isEmpty() ? "" : " minus excludes " + excludes)
          + ": nothing to check (a wrong directory or pattern must not pass)");
    }
    List<Selected> out = new ArrayList<>();
    for (String f : files) {
      Path p = directory.resolve(f);
      out.add(new Selected(f, shown(basedir, p), Files.readString(p, StandardCharsets.UTF_8)));
    }
    return out;
  }

  /** The includes as written, trimmed; null or none is the default, every {@code .design} file. */
  static List<String> includes(List<String> written) throws PluginInputException {
    return written == null || written.isEmpty() ? List.of(CheckSettings.DEFAULT_INCLUDES) : trimmed(written);
  }

  /** The excludes as written, trimmed; null is none. */
  static List<String> excludes(List<String> written) throws PluginInputException {
    return written == null ? List.of() : trimmed(written);
  }

  private static List<String> trimmed(List<String> l) throws PluginInputException {
    List<String> out = l.stream().map(s -> s == null ? "" : s.trim()).toList();
    if (out.contains("")) {
      throw new PluginInputException("interlock: includes and excludes must not hold an empty pattern");
    }
    return out;
  }

  /** {@code p} relative to {@code basedir} where it is under it, else absolute; {@code /} between names. */
  static String shown(Path basedir, Path p) {
    Path base = basedir.toAbsolutePath().normalize();
    Path abs = p.toAbsolutePath().normalize();
    return abs.startsWith(base) && !abs.equals(base) ? relative(base, abs) : abs.toString();
  }

  private static List<AntPattern> patterns(String what, List<String> texts) throws PluginInputException {
    List<AntPattern> out = new ArrayList<>();
    for (String t : texts) {
      try {
        out.add(AntPattern.of(t));
      } catch (IllegalArgumentException e) {
        throw new PluginInputException("interlock: " + what + ": " + e.getMessage());
      }
    }
    return out;
  }

  /** The relative paths ({@code /} between names), sorted; the directory must exist. */
  static List<String> find(Path directory, List<AntPattern> includes, List<AntPattern> excludes) throws IOException {
    try (Stream<Path> walk = Files.walk(directory)) {
      return walk.filter(Files::isRegularFile)
          .map(p -> relative(directory, p))
          .filter(rel -> includes.stream().anyMatch(i -> i.matches(rel)))
          .filter(rel -> excludes.stream().noneMatch(e -> e.matches(rel)))
          .sorted()
          .toList();
    } catch (UncheckedIOException e) {
      throw e.getCause();
    }
  }

  /** {@code file} relative to {@code directory}, with {@code /} between names on every platform. */
  static String relative(Path directory, Path file) {
    return directory.relativize(file).toString().replace(file.getFileSystem().getSeparator(), "/");
  }
}
