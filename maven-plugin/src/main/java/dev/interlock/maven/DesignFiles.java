package dev.interlock.maven;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/** Finds the design files under a directory that an include matches and no exclude does, in path order. */
final class DesignFiles {
  private DesignFiles() {}

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
