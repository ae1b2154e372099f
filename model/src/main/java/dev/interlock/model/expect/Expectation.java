package dev.interlock.model.expect;

import dev.interlock.model.check.CheckReport;
import dev.interlock.model.check.OverlapAnswer;
import dev.interlock.model.check.Verdict;
import dev.interlock.model.state.ViolationKind;
import dev.interlock.model.trace.Trace;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * What a design's check is expected to answer: its {@code # expect:} line, or SAFE where the file has none.
 *
 * <p>The grammar is in {@link ExpectLine}; {@link #mismatches} is the one place that says whether a check report
 * meets an expectation, for the JUnit API, {@code @DesignTest} and the Maven plugin alike.
 *
 * @param verdict the expected verdict label: {@code SAFE} or a violation kind ({@code OOM}, {@code DEADLOCK}, ...)
 * @param threads per-role thread counts of the primary counterexample (the fewest that show it); roles left out are
 *                not checked; empty for SAFE
 * @param length  transitions of the trace the check shows: the counterexample, or else the overlap witness
 * @param overlap the expected answer to an overlap query, which the check then asks
 * @param line    the 1-based line of the expect line in its file, 0 for the SAFE of a file without one
 */
public record Expectation(String verdict, Map<String, Integer> threads, OptionalInt length,
    Optional<ExpectedOverlap> overlap, int line) {
  /** The verdict labels an expect line may name. */
  public static final Set<String> VERDICTS = verdicts();

  public Expectation {
    Objects.requireNonNull(verdict, "verdict");
    Objects.requireNonNull(length, "length");
    Objects.requireNonNull(overlap, "overlap");
    if (!VERDICTS.contains(verdict)) {
      throw new IllegalArgumentException("unknown verdict " + verdict + " (one of " + String.join(", ", VERDICTS) + ")");
    }
    threads = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(threads));
    threads.forEach((role, n) -> {
      if (n < 1) {
        throw new IllegalArgumentException("threads of " + role + " must be at least 1, got " + n);
      }
    });
    boolean safe = verdict.equals("SAFE"); // the fields are assigned after this constructor's body
    if (safe && !threads.isEmpty()) {
      throw new IllegalArgumentException("threads= names a counterexample's threads; SAFE has no counterexample");
    }
    if (length.isPresent() && length.getAsInt() < 0) {
      throw new IllegalArgumentException("length must be 0 or more, got " + length.getAsInt());
    }
    if (length.isPresent() && safe
        && overlap.map(o -> o.reachability() != OverlapAnswer.Reachability.REACHABLE).orElse(true)) {
      throw new IllegalArgumentException("length= needs a violation or a REACHABLE overlap: a SAFE check shows no trace");
    }
    if (line < 0) {
      throw new IllegalArgumentException("line must be 0 or more, got " + line);
    }
  }

  /** SAFE, as expected of a design file without an expect line. */
  public static Expectation safeByDefault() {
    return new Expectation("SAFE", Map.of(), OptionalInt.empty(), Optional.empty(), 0);
  }

  /** Whether SAFE is expected. */
  public boolean isSafe() {
    return verdict.equals("SAFE");
  }

  /** Whether this came from an expect line rather than the default. */
  public boolean written() {
    return line > 0;
  }

  /** The expectation as an expect line would write it (without {@code # expect: }). */
  public String text() {
    List<String> parts = new ArrayList<>();
    parts.add(verdict);
    if (!threads.isEmpty()) {
      parts.add("threads=" + threads.entrySet().stream().map(e -> e.getKey() + ":" + e.getValue())
          .collect(Collectors.joining(",")));
    }
    length.ifPresent(n -> parts.add("length=" + n));
    overlap.ifPresent(o -> parts.add(o.text()));
    return String.join(" ", parts);
  }

  /**
   * How {@code report} differs from this expectation, one sentence each; empty when it meets it. A report that the
   * search limit stopped (LIMIT) or that could not decide (UNKNOWN) never meets an expectation.
   */
  public List<String> mismatches(CheckReport report) {
    List<String> out = new ArrayList<>();
    Verdict v = report.verdict();
    if (!v.label().equals(verdict)) {
      out.add("expected verdict " + verdict + ", got " + v.label()
          + (v instanceof Verdict.LimitReached ? " (the search stopped before it was exhaustive)" : ""));
    }
    Map<String, Integer> actual = report.threads();
    if (v instanceof Verdict.Unsafe) {
      threads.forEach((role, n) -> {
        Integer got = actual.get(role);
        if (!n.equals(got)) {
          out.add("expected the counterexample at " + role + ":" + n + ", got "
              + (got == null ? "no role " + role : role + ":" + got));
        }
      });
    }
    Optional<Trace> shown = report.counterexample().or(() -> report.overlap().flatMap(OverlapAnswer::witness));
    length.ifPresent(n -> {
      if (shown.isEmpty()) {
        out.add("expected a trace of " + n + " transitions, got none");
      } else if (shown.get().length() != n) {
        out.add("expected a " + (report.counterexample().isPresent() ? "counterexample" : "witness") + " of " + n
            + " transitions, got " + shown.get().length());
      }
    });
    overlap.ifPresent(o -> {
      Optional<OverlapAnswer> answer = report.overlap().filter(a -> a.query().equals(o.query()));
      String got = answer.map(a -> a.reachability().name()).orElse("no answer");
      if (!got.equals(o.reachability().name())) {
        out.add("expected overlap(" + o.a() + "," + o.b() + ") " + o.reachability() + ", got " + got);
      }
    });
    return List.copyOf(out);
  }

  private static Set<String> verdicts() {
    Set<String> s = new java.util.LinkedHashSet<>();
    s.add("SAFE");
    Arrays.stream(ViolationKind.values()).forEach(k -> s.add(k.name()));
    return java.util.Collections.unmodifiableSet(s);
  }
}
