package dev.interlock.model;

import dev.interlock.model.design.Design;
import dev.interlock.model.design.DesignException;
import dev.interlock.model.design.DesignParser;
import dev.interlock.model.step.Step;
import java.nio.file.Files;
import java.nio.file.Path;

/** Designs for tests: inline text, or the shipped files under designs/. */
public final class TestDesigns {
  private TestDesigns() {}

  /** The repository root: tests run there (surefire's workingDirectory), else interlock.root. */
  public static Path root() {
    if (Files.isDirectory(Path.of("designs"))) {
      return Path.of("");
    }
    String r = System.getProperty("interlock.root");
    return r == null || r.isBlank() ? Path.of("..") : Path.of(r);
  }

  /** Parses inline design text; fails the test on a design error. */
  public static Design parse(String text) {
    try {
      return DesignParser.parse("<test>", text);
    } catch (DesignException e) {
      throw new AssertionError(e.getMessage(), e);
    }
  }

  /** Parses one step's text, e.g. {@code alloc staged 12GiB}; fails the test on a bad step. */
  public static Step step(String text) {
    try {
      return DesignParser.step(text);
    } catch (DesignException e) {
      throw new AssertionError(e.getMessage(), e);
    }
  }

  /** The shipped design designs/NAME.design. */
  public static Design shipped(String name) {
    try {
      return DesignParser.parse(path(name));
    } catch (DesignException e) {
      throw new AssertionError(e.getMessage(), e);
    }
  }

  /** Path of a shipped design as a user types it from the repository root. */
  public static Path path(String name) {
    return root().resolve("designs").resolve(name + ".design");
  }
}
