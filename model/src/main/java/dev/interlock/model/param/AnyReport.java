package dev.interlock.model.param;

import dev.interlock.model.check.CheckReport;
import dev.interlock.model.check.Verdict;
import dev.interlock.model.state.ViolationKind;
import java.util.List;
import java.util.Objects;

/**
 * The answer of {@code check --threads ROLE=any}.
 *
 * @param report         the report shown: at the fewest threads that violate, else of the largest bounded configuration
 * @param verdict        SAFE (every number for the upward-closed kinds, and the bounded search), the violation,
 *                       UNKNOWN (the parameterized part undecided, nothing found up to the bound) or LIMIT
 * @param answer         what the counter abstraction decided
 * @param anyRoles       the roles whose every number of threads the answer is about
 * @param safeForAllN    the upward-closed kinds no number of threads reaches
 * @param boundedUpTo    threads per {@code any} role up to which the bounded search went: K, or more when the
 *                       analysis was undecided and it went on past K (AnyChecker#EXTENSION_STATES)
 * @param boundedConfigs configurations the bounded search went through
 * @param boundedSeconds its wall time
 */
public record AnyReport(CheckReport report, Verdict verdict, ParamAnswer answer, List<String> anyRoles,
    List<ViolationKind> safeForAllN, int boundedUpTo, int boundedConfigs, double boundedSeconds) {
  public AnyReport {
    Objects.requireNonNull(report, "report");
    Objects.requireNonNull(verdict, "verdict");
    Objects.requireNonNull(answer, "answer");
    anyRoles = List.copyOf(anyRoles);
    safeForAllN = List.copyOf(safeForAllN);
    if (verdict instanceof Verdict.Unsafe != report.verdict() instanceof Verdict.Unsafe) {
      throw new IllegalArgumentException("a violation is the report's: " + verdict.label() + " vs " + report.verdict().label());
    }
  }
}
