package dev.interlock.junit.api;

import dev.interlock.model.check.Verdict;
import dev.interlock.model.design.Design;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** The text of a {@link CheckResult}: what {@code interlock check} prints, traces included, for failure messages. */
final class ReportText {
  private ReportText() {}

  static String of(CheckResult r) {
    StringBuilder b = new StringBuilder();
    Design d = r.model().design();
    line(b, "design", d.name() + " (" + r.source() + ")");
    line(b, "checked", d.parametersLine() + r.any().map(a -> ", threads of " + String.join(", ", a.anyRoles()) + ": any")
        .orElse(""));
    line(b, "verdict", r.verdict());
    Verdict v = r.verdictOf();
    if (v instanceof Verdict.Unsafe u) {
      line(b, "", u.violation().message());
      line(b, "minimal", counts(r.threads()) + " (the fewest threads in total, then transitions, of any violation)");
      if (!r.otherViolations().isEmpty()) {
        line(b, "others", String.join(", ", r.otherViolations().stream().map(Enum::name).toList()));
      }
    } else if (v instanceof Verdict.LimitReached l) {
      line(b, "", "stopped at max states " + l.maxStates() + " before the search was exhaustive: NOT a proof of safety");
    } else if (v instanceof Verdict.Unknown u) {
      line(b, "", "not decided for every number of threads: " + u.reason());
    } else {
      line(b, "", "no reachable state violates (exhaustive search)");
    }
    r.overlap().ifPresent(o -> line(b, "overlap", o.a() + " " + o.b() + ": " + o.reachability()));
    line(b, "search", r.statesSearched() + " states, " + r.model().search().transitions() + " transitions");
    r.model().counterexample().ifPresent(t -> b.append(String.format(Locale.ROOT, "%ncounterexample (%d transitions, %s):%n",
        t.length(), counts(r.threads()))).append(r.counterexample().orElseThrow()));
    r.witness().ifPresent(w -> b.append(String.format(Locale.ROOT, "%nwitness of the overlap (%d transitions):%n",
        r.model().overlap().orElseThrow().witness().orElseThrow().length())).append(w));
    return b.toString().replace(System.lineSeparator(), "\n");
  }

  static String counts(Map<String, Integer> m) {
    List<String> parts = new ArrayList<>();
    m.forEach((k, v) -> parts.add(k + "=" + v));
    return String.join(" ", parts);
  }

  private static void line(StringBuilder b, String key, String value) {
    b.append(String.format(Locale.ROOT, "%-9s %s%n", key, value));
  }
}
