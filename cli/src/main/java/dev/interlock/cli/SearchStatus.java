package dev.interlock.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.interlock.model.check.SearchListener;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;

/**
 * What a running check is doing, as its searches report it, in the words of a progress line and of the statistics an
 * interrupted check prints. Searching threads write it; the progress and interrupt threads read it.
 */
final class SearchStatus implements SearchListener {
  private static final long MIB = 1L << 20;

  /** The breadth-first search of one configuration, where it was when it last reported. */
  private record Search(Map<String, Integer> threads, boolean checked, long startNanos, int depth, long states,
      long transitions, long queue) {
    String label() {
      List<String> parts = new ArrayList<>();
      threads.forEach((k, v) -> parts.add(k + "=" + v));
      return String.join(" ", parts) + (checked ? " (the checked counts)" : " (fewer threads, to minimize)");
    }
  }

  /** Random schedules run so far. */
  private record Random(long run, long transitions) {}

  /** The parameterized analysis of --threads ROLE=any, before its searches. */
  private record Analysis(String stage, long elements, long expanded) {
    String label() {
      return stage + ": " + elements + " elements, " + expanded + " expanded";
    }
  }

  /** The search's estimate of its whole size, made at the end of a level, as the progress line shows it. */
  private record Estimate(long states, int totalDepth) {}

  private final long startNanos = System.nanoTime();
  /** Where the one warning that a search will not fit goes (stderr), or nowhere. */
  private final Consumer<String> warn;
  private volatile Estimate estimate;
  private boolean warned;
  private volatile Search search;
  private volatile Random random;
  private volatile Analysis analysis;
  /** The figures of the last progress line, for the rate over the interval since it (progress thread only). */
  private Search lastSearch;
  private long lastRun;
  private long lastNanos = startNanos;

  /** A status that says nothing when a search will not fit. */
  SearchStatus() {
    this(line -> {});
  }

  /** A status that hands {@code warn} one line, once, when a search of the checked counts is estimated not to fit. */
  SearchStatus(Consumer<String> warn) {
    this.warn = warn;
  }

  @Override
  public void configuration(Map<String, Integer> threads, boolean checked) {
    estimate = null;
    search = new Search(Collections.unmodifiableMap(new LinkedHashMap<>(threads)), checked, System.nanoTime(), 0, 0, 0, 0);
  }

  @Override
  public void progress(int depth, long states, long transitions, long queue) {
    Search s = search;
    if (s != null) {
      search = new Search(s.threads(), s.checked(), s.startNanos(), depth, states, transitions, queue);
    }
  }

  @Override
  public void schedules(long run, long transitions) {
    random = new Random(run, transitions);
  }

  @Override
  public void analysis(String stage, long elements, long expanded) {
    analysis = new Analysis(stage, elements, expanded);
  }

  @Override
  public void estimate(long states, long bytes, int depth, int totalDepth, boolean fits) {
    estimate = new Estimate(states, totalDepth);
    Search s = search;
    boolean first;
    synchronized (this) {
      first = !fits && !warned && s != null && s.checked();
      warned |= first;
    }
    if (first) {
      warn.accept(String.format(Locale.ROOT, "this search looks too large to finish: about %s states%s estimated at"
          + " depth %d of about %d, past its limits (--max-states, the heap); expect LIMIT. The estimate is rough"
          + " (docs/cli.md); --threads ROLE=any, --random N or fewer workers may answer instead",
          approximately(states), bytes < 0 ? "" : " (" + bytes / MIB + " MiB of state store)", depth, totalDepth));
    }
  }

  /** Two significant figures: 61,000,000 as 6.1e7. */
  private static String approximately(long n) {
    return n < 100_000 ? Long.toString(n) : String.format(Locale.ROOT, "%.1e", (double) n).replace("e+0", "e").replace("e+", "e");
  }

  /** Seconds since the check began. */
  double seconds() {
    return (System.nanoTime() - startNanos) / 1e9;
  }

  /**
   * The progress line: elapsed time, then the current search's configuration, depth, states, states per second (over
   * the interval since the last line, or since this configuration's search began), queue, and the Java heap in use.
   */
  synchronized String progressLine() {
    long now = System.nanoTime();
    Search s = search;
    Random r = random;
    String what;
    if (r != null) {
      double rate = (r.run() - lastRun) / Math.max((now - lastNanos) / 1e9, 1e-9);
      what = String.format(Locale.ROOT, "%d random schedules, %.0f schedules/s, %d transitions", r.run(), rate, r.transitions());
      lastRun = r.run();
    } else if (s != null) {
      boolean same = lastSearch != null && lastSearch.startNanos() == s.startNanos();
      long fromStates = same ? lastSearch.states() : 0;
      long fromNanos = same ? lastNanos : s.startNanos();
      double rate = (s.states() - fromStates) / Math.max((now - fromNanos) / 1e9, 1e-9);
      what = String.format(Locale.ROOT, "%s: depth %d, %d states, %.0f states/s, queue %d", s.label(), s.depth(), s.states(),
          rate, s.queue());
      Estimate e = estimate;
      if (e != null) {
        what += String.format(Locale.ROOT, ", about %s states estimated (depth about %d)", approximately(e.states()),
            e.totalDepth());
      }
      lastSearch = s;
    } else if (analysis != null) {
      what = "analysis for every number of threads, " + analysis.label();
    } else {
      what = "starting";
    }
    lastNanos = now;
    Runtime rt = Runtime.getRuntime();
    return String.format(Locale.ROOT, "progress  %.1f s, %s, heap %d MiB used", (now - startNanos) / 1e9, what,
        (rt.totalMemory() - rt.freeMemory()) / MIB);
  }

  /** What an interrupted check had done, for a person: elapsed time and the current search's (or schedules') counts. */
  String statisticsLine() {
    Search s = search;
    Random r = random;
    String what;
    if (r != null) {
      what = String.format(Locale.ROOT, "%d random schedules run, %d transitions", r.run(), r.transitions());
    } else if (s != null) {
      what = String.format(Locale.ROOT, "searching %s: depth %d, %d states, %d transitions", s.label(), s.depth(), s.states(),
          s.transitions());
    } else if (analysis != null) {
      what = "no search had started; the analysis for every number of threads was at " + analysis.label();
    } else {
      what = "no search had started";
    }
    return String.format(Locale.ROOT, "interrupted after %.3f s, no verdict: %s", seconds(), what);
  }

  /** The same statistics as one JSON object: under {@code error} the line, then the counts. */
  ObjectNode statisticsJson() {
    ObjectNode m = Json.object();
    m.put("error", statisticsLine());
    m.put("interrupted", true);
    Search s = search;
    Random r = random;
    if (r != null) {
      m.put("schedules_run", r.run());
      m.put("searched_transitions", r.transitions());
    } else if (s != null) {
      m.set("threads", Json.counts(s.threads()));
      m.put("checked_counts", s.checked());
      m.put("depth", s.depth());
      m.put("searched_states", s.states());
      m.put("searched_transitions", s.transitions());
    }
    m.put("seconds", Json.seconds(seconds()));
    return m;
  }
}
