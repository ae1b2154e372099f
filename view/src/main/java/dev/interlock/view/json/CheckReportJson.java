package dev.interlock.view.json;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.interlock.model.check.CheckReport;
import dev.interlock.model.check.Checker;
import dev.interlock.model.check.Counterexample;
import dev.interlock.model.check.OverlapAnswer;
import dev.interlock.model.check.Verdict;
import dev.interlock.model.trace.Trace;
import dev.interlock.model.trace.TraceStep;
import java.util.List;
import java.util.Optional;

/**
 * The JSON object of an exhaustive check's report ({@code interlock check --json}, the Maven plugin's report files):
 * one writer, so that both print the same fields in the same order.
 */
public final class CheckReportJson {
  private CheckReportJson() {}

  /**
   * How the search ran, which the report does not record.
   *
   * @param partialOrderReduction whether partial-order reduction was on
   * @param searchThreads         threads of each search
   * @param otherTraces           whether each other violation kind carries its trace (all violations were searched)
   */
  public record Search(boolean partialOrderReduction, int searchThreads, boolean otherTraces) {
    public Search {
      if (searchThreads < 1) {
        throw new IllegalArgumentException("search threads must be positive, got " + searchThreads);
      }
    }

    /** The settings of a check run with {@code options}. */
    public static Search of(Checker.Options options) {
      return new Search(options.por(), options.searchThreads(), options.allViolations());
    }
  }

  /** The report's object; callers may add keys after the last one. */
  public static ObjectNode of(CheckReport r, Search search) {
    ObjectNode m = JsonTrees.object();
    m.put("design", r.design().name());
    m.put("verdict", r.verdict().label());
    m.put("searched_transitions", r.search().transitions());
    m.set("threads", JsonTrees.counts(r.threads()));
    m.put("searched_states", r.search().states());
    m.put("seconds", JsonTrees.seconds(r.search().seconds()));
    m.put("overlap", r.overlap().map(o -> o.reachability().name()).orElse(null));
    m.put("message", message(r.verdict()));
    Optional<Trace> shown = shown(r);
    m.put("length", shown.map(Trace::length).orElse(0));
    m.set("trace", shown.map(CheckReportJson::steps).orElseGet(JsonTrees::array));
    if (r.counterexample().isPresent() && r.overlap().flatMap(OverlapAnswer::witness).isPresent()) {
      m.set("witness", steps(r.overlap().get().witness().get()));
    }
    ArrayNode others = m.putArray("others");
    for (Counterexample c : r.others()) {
      ObjectNode o = others.addObject();
      o.put("verdict", c.violation().kind().name());
      o.set("threads", JsonTrees.counts(c.threads()));
      o.put("length", c.length());
      if (search.otherTraces()) {
        o.set("trace", steps(c.trace()));
      }
    }
    m.put("others_complete", othersComplete(r));
    m.put("partial_order_reduction", search.partialOrderReduction());
    m.put("reduced_search", r.search().reduced());
    m.put("search_threads", search.searchThreads());
    m.put("state_store_peak_bytes", r.search().peakBytes());
    m.put("limit", r.verdict() instanceof Verdict.LimitReached l ? l.limit().label() : null);
    // a swallowed failure's job going on after the violation (not counted in length), only where there is one
    shown.filter(t -> !t.after().isEmpty()).ifPresent(t -> m.set("after", steps(t.after())));
    return m;
  }

  /** The trace a report shows: its counterexample, else its overlap witness. */
  public static Optional<Trace> shown(CheckReport r) {
    return r.counterexample().or(() -> r.overlap().flatMap(OverlapAnswer::witness));
  }

  /** Whether {@code others} lists every other kind: the checked counts were searched exhaustively, no search was cut. */
  public static boolean othersComplete(CheckReport r) {
    return r.search().exhaustive() && r.stoppedSearches() == 0;
  }

  /** The violation's message, or null when {@code v} is not a violation. */
  public static String message(Verdict v) {
    return v instanceof Verdict.Unsafe u ? u.violation().message() : null;
  }

  /**
   * A trace's steps, one object each ({@code i}, {@code thread}, {@code step}, {@code phase}, bytes, and {@code without}
   * for a kernel's begin that ran without missing buffers).
   */
  public static ArrayNode steps(Trace t) {
    return steps(t.steps());
  }

  private static ArrayNode steps(List<TraceStep> steps) {
    ArrayNode l = JsonTrees.array();
    for (TraceStep s : steps) {
      ObjectNode e = l.addObject();
      e.put("i", s.index());
      e.put("thread", s.thread());
      e.put("step", s.step().text());
      e.put("phase", s.phase().map(p -> p.label()).orElse(null));
      e.put("used", s.used());
      e.put("cached", s.cached());
      s.free().ifPresent(f -> e.put("free", f));
      if (!s.without().isEmpty()) {
        ArrayNode w = e.putArray("without");
        s.without().forEach(w::add);
      }
    }
    return l;
  }
}
