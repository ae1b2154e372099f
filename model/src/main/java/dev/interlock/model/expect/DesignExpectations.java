package dev.interlock.model.expect;

import dev.interlock.model.check.CheckReport;
import dev.interlock.model.check.Checker;
import dev.interlock.model.check.Verdict;
import dev.interlock.model.design.Design;
import dev.interlock.model.design.DesignException;
import dev.interlock.model.design.DesignParser;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.function.UnaryOperator;

/**
 * Checks a design file against its expectation: parse, apply the caller's parameters, read the expect line, run the
 * check it asks for (its overlap query included) and compare.
 */
public final class DesignExpectations {
  private DesignExpectations() {}

  /**
   * One design file's check against its expectation.
   *
   * @param source      the file as the caller named it
   * @param design      the design as checked (parameters applied)
   * @param expectation the file's expect line, or SAFE where there is none
   * @param report      the check's report
   * @param mismatches  how the report differs from the expectation ({@link Expectation#mismatches}); empty when met
   */
  public record Result(String source, Design design, Expectation expectation, CheckReport report,
      List<String> mismatches) {
    public Result {
      Objects.requireNonNull(source, "source");
      Objects.requireNonNull(design, "design");
      Objects.requireNonNull(expectation, "expectation");
      Objects.requireNonNull(report, "report");
      mismatches = List.copyOf(mismatches);
    }

    /** Whether the check answered what the file expects. */
    public boolean met() {
      return mismatches.isEmpty();
    }

    /** Whether a state or memory limit stopped the search: the check answered nothing either way. */
    public boolean limited() {
      return report.verdict() instanceof Verdict.LimitReached;
    }
  }

  /** Checks the file {@code file}; {@code parameters} changes the parsed design (vram, threads, ...) before the check. */
  public static Result check(Path file, UnaryOperator<Design> parameters, Checker.Options options)
      throws IOException, DesignException {
    return check(file.toString(), Files.readString(file, StandardCharsets.UTF_8), parameters, options);
  }

  /**
   * Checks the design text {@code text} of the file {@code source}. The expect line's overlap query, if any, replaces
   * one in {@code options}.
   */
  public static Result check(String source, String text, UnaryOperator<Design> parameters, Checker.Options options)
      throws DesignException {
    Design design = DesignParser.parse(source, text);
    Expectation expectation = ExpectLine.expectation(source, text, design);
    Design checked = parameters.apply(design);
    Checker.Options opts = expectation.overlap().map(o -> options.withOverlap(o.query())).orElse(options);
    CheckReport report = Checker.check(checked, source, opts);
    return new Result(source, checked, expectation, report, expectation.mismatches(report));
  }
}
