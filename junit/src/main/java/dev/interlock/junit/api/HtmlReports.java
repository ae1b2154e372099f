package dev.interlock.junit.api;

import dev.interlock.model.trace.Trace;
import dev.interlock.view.html.HtmlPage;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;

/**
 * Writes the HTML view of a failed assertion's trace into the reports directory, and only there: the system property
 * {@value #PROPERTY}, else {@code target/surefire-reports/interlock/} of the module under test (surefire's
 * {@code basedir}, else the working directory).
 */
final class HtmlReports {
  /** The system property that names the reports directory. */
  static final String PROPERTY = "interlock.reports.dir";

  /** Names written by this JVM: a second failure on the same design gets its own file, never the first one's. */
  private static final Set<String> WRITTEN = new HashSet<>();

  private HtmlReports() {}

  /** The reports directory. */
  static Path directory() {
    String dir = System.getProperty(PROPERTY);
    if (dir != null && !dir.isBlank()) {
      return Path.of(dir);
    }
    String base = System.getProperty("basedir");
    return (base == null || base.isBlank() ? Path.of("") : Path.of(base)).resolve("target").resolve("surefire-reports")
        .resolve("interlock");
  }

  /**
   * Writes the view of the trace {@code r} shows (its counterexample, else its overlap witness) and says where, as a
   * line for a failure message; empty when there is no trace to show.
   */
  static Optional<String> write(CheckResult r) {
    Optional<Trace> shown = r.shown();
    if (shown.isEmpty()) {
      return Optional.empty();
    }
    boolean counterexample = r.model().counterexample().isPresent();
    Path dir = directory().toAbsolutePath().normalize();
    try {
      String page = HtmlPage.ofTrace(counterexample ? "counterexample" : "overlap witness", shown.get(),
          r.check().parsed());
      Files.createDirectories(dir);
      Path file = dir.resolve(name(r.design() + "-" + r.verdict() + (counterexample ? "" : "-witness")));
      Files.writeString(file, page, StandardCharsets.UTF_8);
      return Optional.of("HTML view of the " + (counterexample ? "counterexample" : "witness") + ": " + file);
    } catch (IOException | RuntimeException e) {
      return Optional.of("HTML view not written to " + dir + ": " + e);
    }
  }

  /** A file name of {@code stem} (letters, digits, dot, dash and underscore only) not yet written by this JVM. */
  private static synchronized String name(String stem) {
    String clean = stem.replaceAll("[^A-Za-z0-9._-]", "_").replaceAll("^[.]+", "_");
    String name = clean + ".html";
    for (int i = 2; !WRITTEN.add(name); i++) {
      name = clean + "-" + i + ".html";
    }
    return name;
  }
}
