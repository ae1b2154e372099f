package dev.interlock.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.interlock.model.check.Verdict;
import dev.interlock.model.param.AnyReport;
import dev.interlock.model.param.ParamAnswer;
import dev.interlock.model.state.ViolationKind;
import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;

/** The parts of check's output that {@code --threads ROLE=any} adds: its verdict line, its text lines, its JSON fields. */
final class AnyOutput {
  private AnyOutput() {}

  /** The verdict line's text: SAFE or UNKNOWN for every number of the any roles' threads, else the violation. */
  static String verdict(AnyReport a) {
    String roles = String.join(" and ", a.anyRoles());
    String kinds = String.join(", ", a.safeForAllN().stream().map(ViolationKind::name).toList());
    String bounded = "no DEADLOCK or LEAK up to " + a.boundedUpTo();
    if (a.verdict() instanceof Verdict.Safe) {
      return "SAFE for every number of " + roles + " threads (" + kinds + "); " + bounded;
    }
    if (a.verdict() instanceof Verdict.Unknown u) {
      return "UNKNOWN for every number of " + roles + " threads: " + u.reason() + "; no violation up to "
          + a.boundedUpTo();
    }
    return a.verdict().label();
  }

  /** The lines after the verdict: what the parameterized analysis (coverability or isolation) and the bounded search did. */
  static void text(PrintWriter out, AnyReport a) {
    if (a.answer() instanceof ParamAnswer.Decided d) {
      out.printf(Locale.ROOT, "coverage  %d local states of one worker, %d shared states; backward search: %d basis"
          + " elements, %d expanded, %.3f s%n", d.localStates(), d.sharedStates(), d.basisElements(), d.iterations(),
          d.seconds());
    } else if (a.answer() instanceof ParamAnswer.Isolated i) {
      out.printf(Locale.ROOT, "isolated  %s isolates every worker's device memory; %d states of one worker alone, %.3f s%n",
          i.mutex(), i.states(), i.seconds());
    } else {
      out.printf(Locale.ROOT, "coverage  not decided: %s%n", ((ParamAnswer.Unknown) a.answer()).reason());
    }
    if (a.answer() instanceof ParamAnswer.Proved && !(a.verdict() instanceof Verdict.Safe)) {
      out.printf(Locale.ROOT, "          safe for every number: %s%n",
          a.safeForAllN().isEmpty() ? "none proved" : String.join(", ", a.safeForAllN().stream().map(Enum::name).toList()));
    }
    out.printf(Locale.ROOT, "bounded   %d configurations up to %d %s threads, in order of total threads, %.3f s%n",
        a.boundedConfigs(), a.boundedUpTo(), String.join(" and ", a.anyRoles()), a.boundedSeconds());
  }

  /** Adds the fields of the parameterized answer to check's JSON object. */
  static void json(ObjectNode m, AnyReport a) {
    m.put("verdict", a.verdict().label());
    m.put("parameterized", true);
    ArrayNode roles = m.putArray("any_roles");
    a.anyRoles().forEach(roles::add);
    ArrayNode safe = m.putArray("safe_for_all_n");
    a.safeForAllN().forEach(k -> safe.add(k.name()));
    m.put("bounded_up_to", a.boundedUpTo());
    m.put("bounded_configurations", a.boundedConfigs());
    m.put("bounded_seconds", Json.seconds(a.boundedSeconds()));
    m.put("unknown_reason", a.answer() instanceof ParamAnswer.Unknown u ? u.reason() : null);
    ParamAnswer.Decided d = a.answer() instanceof ParamAnswer.Decided x ? x : null;
    m.put("coverability_local_states", d == null ? null : d.localStates());
    m.put("coverability_shared_states", d == null ? null : d.sharedStates());
    m.put("coverability_basis_elements", d == null ? null : d.basisElements());
    m.put("coverability_expanded_elements", d == null ? null : d.iterations());
    m.put("coverability_seconds", d == null ? null : Json.seconds(d.seconds()));
    ParamAnswer.Isolated i = a.answer() instanceof ParamAnswer.Isolated x ? x : null;
    m.put("parameterized_method", d != null ? "coverability" : i != null ? "isolation" : null);
    m.put("isolation_mutex", i == null ? null : i.mutex());
    m.put("isolation_states", i == null ? null : i.states());
    m.put("isolation_seconds", i == null ? null : Json.seconds(i.seconds()));
  }

  /** The check's parameters with each any role's count written {@code any}. */
  static String parameters(String checked, List<String> anyRoles) {
    String out = checked;
    for (String r : anyRoles) {
      out = out.replaceFirst("(^|, )" + java.util.regex.Pattern.quote(r) + " x\\d+ ", "$1" + r + " x any ");
    }
    return out;
  }
}
