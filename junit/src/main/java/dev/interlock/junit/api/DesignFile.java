package dev.interlock.junit.api;

import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * One file of a {@link DesignTest}, checked: the parameter a {@code @DesignTest} method may take for assertions of
 * its own. The method runs only when the file met its expectation.
 */
public final class DesignFile {
  private final Path path;
  private final String expectation;
  private final boolean hasExpectLine;
  private final CheckResult result;
  private final List<String> mismatches;

  DesignFile(Path path, String expectation, boolean hasExpectLine, CheckResult result, List<String> mismatches) {
    this.path = Objects.requireNonNull(path, "path");
    this.expectation = Objects.requireNonNull(expectation, "expectation");
    this.hasExpectLine = hasExpectLine;
    this.result = Objects.requireNonNull(result, "result");
    this.mismatches = List.copyOf(mismatches);
  }

  /** The file, as the directory of the {@code @DesignTest} and its path below it name it. */
  public Path path() {
    return path;
  }

  /** The expectation as an expect line writes it, without {@code # expect:}: e.g. {@code OOM threads=gpu_worker:2}. */
  public String expectation() {
    return expectation;
  }

  /** Whether the file has an expect line ({@link #expectation()} is SAFE otherwise). */
  public boolean hasExpectLine() {
    return hasExpectLine;
  }

  /** The check's result, with the overlap query of the expect line asked. */
  public CheckResult result() {
    return result;
  }

  /** How the result differs from the expectation, one sentence each; empty when it meets it. */
  public List<String> mismatches() {
    return mismatches;
  }

  /** The path and the expectation. */
  @Override
  public String toString() {
    return path + " (expect: " + expectation + ")";
  }
}
