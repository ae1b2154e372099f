package dev.interlock.maven;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.interlock.model.expect.DesignExpectations;
import dev.interlock.model.trace.Trace;
import dev.interlock.view.html.HtmlPage;
import dev.interlock.view.json.CheckReportJson;
import dev.interlock.view.json.JsonTrees;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The reports under the output directory ({@code target/interlock}): {@code FILE.json} per design (the shared check
 * report plus the expectation), {@code FILE.html} per counterexample or witness, and {@code summary.json}.
 */
final class ReportFiles {
  private ReportFiles() {}

  /** The summary's file name. */
  static final String SUMMARY = "summary.json";

  /** Replaces the reports of an earlier run with those of {@code outcome}. */
  static void write(Path outputDirectory, DesignsCheck.Outcome outcome, CheckReportJson.Search search)
      throws IOException {
    Path out = outputDirectory.toAbsolutePath().normalize();
    clear(out);
    Files.createDirectories(out);
    ObjectNode summary = JsonTrees.object();
    summary.put("designs", outcome.designs().size());
    summary.put("met", outcome.met());
    summary.put("failed", outcome.failed().size());
    summary.put("limit_warnings", outcome.limitWarnings());
    ArrayNode results = summary.putArray("results");
    for (DesignsCheck.DesignOutcome d : outcome.designs()) {
      DesignExpectations.Result r = d.result();
      write(inside(out, d.file() + ".json"), JsonTrees.write(designJson(d, search)));
      Optional<Trace> shown = CheckReportJson.shown(r.report());
      String html = null;
      if (shown.isPresent()) {
        String title = r.report().counterexample().isPresent() ? "counterexample" : "overlap witness";
        html = d.file() + ".html";
        write(inside(out, html), HtmlPage.ofTrace(title, shown.get(), r.design()));
      }
      ObjectNode o = results.addObject();
      o.put("file", d.source());
      o.put("verdict", r.report().verdict().label());
      o.put("expected", r.expectation().text());
      o.put("met", r.met());
      o.put("status", d.status().name().toLowerCase(java.util.Locale.ROOT));
      o.put("report", d.file() + ".json");
      o.put("html", html);
    }
    write(out.resolve(SUMMARY), JsonTrees.write(summary));
  }

  /** A design's report: the shared check report's fields, then the file and its expectation. */
  static ObjectNode designJson(DesignsCheck.DesignOutcome d, CheckReportJson.Search search) {
    DesignExpectations.Result r = d.result();
    ObjectNode m = CheckReportJson.of(r.report(), search);
    m.put("file", d.source());
    m.put("expected", r.expectation().text());
    m.put("expect_line", r.expectation().line());
    m.put("met", r.met());
    ArrayNode mismatches = m.putArray("mismatches");
    r.mismatches().forEach(mismatches::add);
    m.put("check_seconds", JsonTrees.seconds(d.seconds()));
    return m;
  }

  /** {@code relative} under {@code out}; a path that would leave it is a bug, never written. */
  private static Path inside(Path out, String relative) {
    Path p = out.resolve(relative).normalize();
    if (!p.startsWith(out) || p.equals(out)) {
      throw new IllegalStateException("report path " + relative + " leaves " + out);
    }
    return p;
  }

  private static void write(Path p, String text) throws IOException {
    Files.createDirectories(p.getParent());
    Files.writeString(p, text + (text.endsWith("\n") ? "" : "\n"), StandardCharsets.UTF_8);
  }

  /** Deletes the {@code .json} and {@code .html} files an earlier run left, so that no stale report remains. */
  private static void clear(Path out) throws IOException {
    if (!Files.isDirectory(out)) {
      return;
    }
    try (Stream<Path> walk = Files.walk(out)) {
      for (Path p : walk.filter(Files::isRegularFile).toList()) {
        String name = p.getFileName().toString();
        if (name.endsWith(".json") || name.endsWith(".html")) {
          Files.delete(p);
        }
      }
    } catch (UncheckedIOException e) {
      throw e.getCause();
    }
  }
}
