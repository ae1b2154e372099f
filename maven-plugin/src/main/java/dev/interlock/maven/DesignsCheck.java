package dev.interlock.maven;

import dev.interlock.model.check.Checker;
import dev.interlock.model.check.Verdict;
import dev.interlock.model.design.Design;
import dev.interlock.model.design.DesignException;
import dev.interlock.model.design.DesignParser;
import dev.interlock.model.design.Role;
import dev.interlock.model.design.Sizes;
import dev.interlock.model.expect.DesignExpectations;
import dev.interlock.model.expect.ExpectLine;
import dev.interlock.model.trace.Trace;
import dev.interlock.model.trace.TraceFormat;
import dev.interlock.view.json.CheckReportJson;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * The work of {@code interlock:check}: finds the designs, checks each against its expectation
 * ({@link DesignExpectations}), logs a line per design, writes the reports and says what failed.
 */
public final class DesignsCheck {
  private DesignsCheck() {}

  /** Where the lines go: Maven's log in the goal, a list in tests. */
  public interface Log {
    /** A design's line when it met its expectation, and the summary. */
    void info(String line);

    /** A design's line when it did not meet it but does not fail the build (LIMIT with failOnLimit off). */
    void warn(String line);

    /** A design's line when it fails the build. */
    void error(String line);
  }

  /** What became of one design. */
  public enum Status {
    /** The check answered what the file expects. */
    MET,
    /** It did not, and that fails the build. */
    FAILED,
    /** The search limit stopped it and {@code failOnLimit} is off: a warning. */
    LIMIT_WARNING
  }

  /**
   * One design's check.
   *
   * @param file    the path relative to the design directory (with {@code /}); the reports are named after it
   * @param source  the path as shown: relative to the project's directory where it is under it
   * @param result  the check against the expectation
   * @param seconds wall time of the check, minimization included
   * @param status  met, failed or a warning
   */
  public record DesignOutcome(String file, String source, DesignExpectations.Result result, double seconds,
      Status status) {
    public DesignOutcome {
      Objects.requireNonNull(file, "file");
      Objects.requireNonNull(source, "source");
      Objects.requireNonNull(result, "result");
      Objects.requireNonNull(status, "status");
    }
  }

  /** Every design's outcome, in path order. */
  public record Outcome(List<DesignOutcome> designs) {
    public Outcome {
      designs = List.copyOf(designs);
    }

    /** The designs that fail the build. */
    public List<DesignOutcome> failed() {
      return designs.stream().filter(d -> d.status() == Status.FAILED).toList();
    }

    /** How many met their expectation. */
    public long met() {
      return designs.stream().filter(d -> d.status() == Status.MET).count();
    }

    /** How many only warned (LIMIT, failOnLimit off). */
    public long limitWarnings() {
      return designs.stream().filter(d -> d.status() == Status.LIMIT_WARNING).count();
    }

    /** The build failure's message: each failing design with its verdict, mismatches and trace; empty when none. */
    public String failureMessage() {
      List<DesignOutcome> failed = failed();
      if (failed.isEmpty()) {
        return "";
      }
      StringBuilder b = new StringBuilder();
      b.append(String.format(Locale.ROOT, "%d of %d design%s did not meet %s expectation:%n", failed.size(),
          designs.size(), designs.size() == 1 ? "" : "s", designs.size() == 1 ? "its" : "their"));
      for (DesignOutcome d : failed) {
        b.append(System.lineSeparator()).append(describe(d));
      }
      return b.toString();
    }
  }

  /** Checks every design {@code s} selects; writes the reports under {@code s.outputDirectory()}. */
  public static Outcome run(CheckSettings s, Log log) throws PluginInputException, IOException {
    List<DesignFiles.Selected> selected = DesignFiles.select(s.basedir(), s.directory(), s.includes(), s.excludes());
    List<String> files = new ArrayList<>();
    List<String> texts = new ArrayList<>();
    List<String> sources = new ArrayList<>();
    Set<String> roles = new LinkedHashSet<>();
    List<String> errors = new ArrayList<>();
    for (DesignFiles.Selected f : selected) {
      String source = f.source();
      String text = f.text();
      files.add(f.file());
      texts.add(text);
      sources.add(source);
      try {
        Design d = DesignParser.parse(source, text);
        ExpectLine.expectation(source, text, d);
        d.roles().forEach(r -> roles.add(r.name()));
      } catch (DesignException e) {
        errors.add(e.getMessage());
      }
    }
    if (!errors.isEmpty()) {
      throw new PluginInputException(String.join(System.lineSeparator(), errors));
    }
    for (String role : s.threads().keySet()) {
      if (!roles.contains(role)) {
        throw new PluginInputException("interlock: threads: no design has a role '" + role + "' (roles: "
            + String.join(", ", roles) + ")");
      }
    }
    Checker.Options options = Checker.Options.defaults(s.maxStates())
        .withSearch(true, Runtime.getRuntime().availableProcessors(), Long.MAX_VALUE);
    List<DesignOutcome> outcomes = new ArrayList<>();
    for (int i = 0; i < files.size(); i++) {
      DesignOutcome o = checkOne(s, files.get(i), sources.get(i), texts.get(i), options);
      outcomes.add(o);
      String line = line(o);
      switch (o.status()) {
        case MET -> log.info(line);
        case LIMIT_WARNING -> log.warn(line);
        case FAILED -> log.error(line);
        default -> throw new IllegalStateException(o.status().name());
      }
    }
    Outcome outcome = new Outcome(outcomes);
    ReportFiles.write(s.outputDirectory(), outcome, CheckReportJson.Search.of(options));
    log.info(String.format(Locale.ROOT, "%d design%s: %d met, %d failed%s; reports in %s", outcomes.size(),
        outcomes.size() == 1 ? "" : "s", outcome.met(), outcome.failed().size(),
        outcome.limitWarnings() == 0 ? "" : ", " + outcome.limitWarnings() + " stopped at maxStates (warning)",
        shown(s, s.outputDirectory())));
    return outcome;
  }

  private static DesignOutcome checkOne(CheckSettings s, String file, String source, String text,
      Checker.Options options) throws PluginInputException {
    long start = System.nanoTime();
    DesignExpectations.Result r;
    try {
      r = DesignExpectations.check(source, text, overrides(s), options);
    } catch (DesignException e) {
      throw new PluginInputException(e.getMessage());
    } catch (IllegalArgumentException e) {
      throw new PluginInputException(source + ": " + e.getMessage());
    } catch (OutOfMemoryError e) {
      throw new PluginInputException(source + ": out of Java heap: lower maxStates (-Dinterlock.maxStates), or give"
          + " Maven more memory (MAVEN_OPTS=-Xmx8g)");
    }
    double seconds = (System.nanoTime() - start) / 1e9;
    Status status = r.met() ? Status.MET : r.limited() && !s.failOnLimit() ? Status.LIMIT_WARNING : Status.FAILED;
    return new DesignOutcome(file, source, r, seconds, status);
  }

  /** The parameters' changes to a design: vram, and the thread counts of the roles it has (others are skipped). */
  private static UnaryOperator<Design> overrides(CheckSettings s) {
    return d -> {
      Design out = s.vram().isPresent() ? d.withVram(s.vram().getAsLong()) : d;
      for (Map.Entry<String, Integer> e : s.threads().entrySet()) {
        if (out.role(e.getKey()).isPresent()) {
          out = out.withThreads(e.getKey(), e.getValue());
        }
      }
      return out;
    };
  }

  /** The design's log line: path, verdict, met or NOT MET, seconds. */
  static String line(DesignOutcome o) {
    DesignExpectations.Result r = o.result();
    String met = r.met() ? "met" : "NOT MET (expected " + r.expectation().text() + ")";
    return String.format(Locale.ROOT, "%s: %s, %s, %.3f s", o.source(), r.report().verdict().label(), met,
        o.seconds());
  }

  /** A failing design's paragraph: verdict, expectation, mismatches, the checked parameters and the trace. */
  static String describe(DesignOutcome o) {
    DesignExpectations.Result r = o.result();
    String nl = System.lineSeparator();
    StringBuilder b = new StringBuilder();
    Verdict v = r.report().verdict();
    b.append(o.source()).append(": ").append(v.label()).append(", expected ").append(r.expectation().text())
        .append(r.expectation().written() ? " (line " + r.expectation().line() + ")" : " (no expect line)").append(nl);
    for (String m : r.mismatches()) {
      b.append("  - ").append(m).append(nl);
    }
    String message = CheckReportJson.message(v);
    if (message != null) {
      b.append("  ").append(message).append(nl);
    }
    b.append("  checked ").append(parameters(r.design())).append(nl);
    Optional<Trace> shown = CheckReportJson.shown(r.report());
    shown.ifPresent(t -> {
      b.append(String.format(Locale.ROOT, "  %s (%d transitions, threads %s):%n",
          r.report().counterexample().isPresent() ? "counterexample" : "overlap witness", t.length(),
          r.report().threads()));
      TraceFormat.print(t).lines().forEach(l -> b.append("    ").append(l).append(nl));
    });
    return b.toString();
  }

  private static String parameters(Design d) {
    List<String> parts = new ArrayList<>();
    parts.add("vram " + Sizes.format(d.vram()));
    for (Role r : d.roles()) {
      parts.add(r.name() + " x" + r.threads());
    }
    return String.join(", ", parts);
  }

  /** {@code p} relative to the project's directory where it is under it, else absolute; {@code /} between names. */
  static String shown(CheckSettings s, Path p) {
    return DesignFiles.shown(s.basedir(), p);
  }
}
