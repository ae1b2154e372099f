package dev.interlock.maven;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** A temporary project's design files, for the tests of the goals' work. */
final class TestProject {
  private TestProject() {}

  /** The default directory of the design files under {@code project}. */
  static Path designs(Path project) {
    return project.resolve("src/main/designs");
  }

  /** Writes {@code text} as the design file {@code relative} under {@code project}'s designs, making its folders. */
  static void design(Path project, String relative, String text) throws IOException {
    Path p = designs(project).resolve(relative);
    Files.createDirectories(p.getParent());
    Files.writeString(p, text);
  }
}
