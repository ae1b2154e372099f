package dev.interlock.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.interlock.model.check.CheckReport;
import dev.interlock.model.check.Checker;
import dev.interlock.model.check.Counterexample;
import dev.interlock.model.check.OverlapAnswer;
import dev.interlock.model.check.OverlapQuery;
import dev.interlock.model.check.Schedules;
import dev.interlock.model.check.Verdict;
import dev.interlock.model.design.Design;
import dev.interlock.model.design.Role;
import dev.interlock.model.design.Sizes;
import dev.interlock.model.param.AnyChecker;
import dev.interlock.model.param.AnyReport;
import dev.interlock.model.param.Parameterized;
import dev.interlock.model.state.Model;
import dev.interlock.model.trace.Outcome;
import dev.interlock.model.trace.Trace;
import dev.interlock.model.trace.TraceFormat;
import dev.interlock.properties.shrink.ScheduleShrinker;
import dev.interlock.properties.shrink.ShrunkSchedule;
import dev.interlock.view.json.CheckReportJson;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.function.Function;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code interlock check FILE}: exhaustive check, overlap query or random schedules of a design. */
@Command(name = "check", mixinStandardHelpOptions = true,
    description = "Check a lock design: SAFE (exit 0) or a shortest counterexample (exit 1); 2 on bad input, at --max-states or UNKNOWN.")
final class CheckCommand implements Callable<Integer> {
  @Spec
  CommandSpec spec;

  @Parameters(index = "0", paramLabel = "FILE", description = "The .design file.")
  Path file;

  @Mixin
  DesignOptions design = new DesignOptions();

  @Option(names = "--max-states", paramLabel = "N", description = "Stop after N distinct states (default: ${DEFAULT-VALUE}); never reported SAFE then.")
  long maxStates = DEFAULT_MAX_STATES;

  /** The states a check may store unless --max-states says otherwise. */
  static final long DEFAULT_MAX_STATES = 20_000_000;

  @Option(names = "--overlap", arity = "2", paramLabel = "INTERVAL",
      description = "Can a thread be inside the first interval while a thread of another worker (a role thread with its tasks) is inside the second?")
  List<String> overlap;

  @Option(names = "--overlap-same-worker", description = "With --overlap: count pairs within one worker too (a role thread and its own tasks).")
  boolean overlapSameWorker;

  @Option(names = "--random", paramLabel = "N", description = "Run N random schedules instead of the exhaustive search.")
  Integer random;

  @Option(names = "--seed", paramLabel = "S", description = "Seed of --random (default: from the clock, printed).")
  Long seed;

  @Option(names = "--no-shrink", negatable = false, description = "With --random: show the violating schedule as found, not shrunk.")
  boolean noShrink;

  @Option(names = "--trace-out", paramLabel = "PATH", description = "Write the counterexample (or witness) trace there.")
  Path traceOut;

  @Option(names = "--force", description = "Let --trace-out or --html replace an existing file.")
  boolean force;

  @Option(names = "--html", paramLabel = "OUT.html", description = "Write the counterexample (or witness) as a self-contained HTML view there.")
  Path html;

  @Option(names = "--no-minimize", negatable = false, description = "Do not search smaller thread counts: rank every violation kind at the checked counts.")
  boolean noMinimize;

  @Option(names = "--all-violations",
      description = "Search the checked counts exhaustively for every violation kind, and print each other kind's trace too.")
  boolean allViolations;

  @Option(names = "--no-symmetry", description = "Turn symmetry reduction off (to measure what it saves).")
  boolean noSymmetry;

  @Option(names = "--no-por", description = "Turn partial-order reduction off (to measure what it saves).")
  boolean noPor;

  @Option(names = "--search-threads", paramLabel = "N",
      description = "Threads of the exhaustive search (default: the available processors); the answer does not depend on it.")
  Integer searchThreads;

  @Option(names = "--max-memory", paramLabel = "SIZE",
      description = "Stop when the state store would take more than SIZE (e.g. 2GiB), like --max-states; never reported SAFE then.")
  String maxMemory;

  @Option(names = "--json", description = "Print one JSON object instead of text.")
  boolean json;

  @Option(names = "--random-threads", paramLabel = "T",
      description = "With --random: run the schedules on T threads (default: the available processors); the result does not depend on T.")
  Integer randomThreads;

  @Option(names = "--progress", negatable = true,
      description = "Print a progress line on stderr every --progress-interval seconds once the check has run 2 s (default: when there is a console).")
  Boolean progress;

  @Option(names = "--progress-interval", paramLabel = "S", description = "Seconds between progress lines (default: ${DEFAULT-VALUE}).")
  double progressInterval = 5;

  /** The exit status of an interrupted check: 128 + SIGINT, what the JVM exits with on Ctrl-C. */
  static final int INTERRUPTED = 130;

  /** A finished search's report: writes its files and prints it, and returns the exit status. */
  @FunctionalInterface
  private interface Report {
    int print();
  }

  @Option(names = "--bounded-up-to", paramLabel = "K",
      description = "With --threads ROLE=any: search DEADLOCK and LEAK exhaustively up to K threads per any role (default: 6).")
  Integer boundedUpTo;

  /** Threads per any role up to which DEADLOCK and LEAK are searched when --bounded-up-to is not given. */
  static final int BOUNDED_UP_TO = 6;

  /** The answer for every number of threads, when a role's threads are any. */
  private AnyReport any;

  @Override
  public Integer call() {
    Design d = design.load(file, true);
    String source = file.toString();
    if (maxStates < 1) {
      throw new CliError("--max-states must be positive, got " + maxStates);
    }
    if (allViolations && random != null) {
      throw new CliError("--all-violations needs the exhaustive search; leave out --random");
    }
    if (randomThreads != null && random == null) {
      throw new CliError("--random-threads needs --random N");
    }
    if (!(progressInterval > 0)) {
      throw new CliError("--progress-interval must be positive, got " + progressInterval);
    }
    TraceFiles.checkWritable(traceOut, force); // before the search, which may take minutes
    TraceFiles.checkWritable(html, force);
    boolean loops = d.roles().stream().anyMatch(Role::loops);
    if (random != null && (loops || !design.anyRoles().isEmpty())) {
      throw new CliError("--random needs numbers of threads and jobs, not any");
    }
    if (random != null) {
      return random(d, source);
    }
    Checker.Options opts = new Checker.Options(maxStates, Optional.empty(), !noMinimize, !noSymmetry, allViolations)
        .withSearch(!noPor, searchThreads(), maxMemoryBytes());
    if (overlapSameWorker && overlap == null) {
      throw new CliError("--overlap-same-worker needs --overlap A B");
    }
    if (overlap != null) {
      Model model = new Model(d);
      for (String name : overlap) {
        if (!model.intervalNames().contains(name)) {
          throw new CliError(file + ": --overlap: no interval '" + name + "' in design " + d.name()
              + " (intervals: " + String.join(", ", model.intervalNames()) + ")");
        }
      }
      opts = opts.withOverlap(new OverlapQuery(overlap.get(0), overlap.get(1), overlapSameWorker));
    }
    if (boundedUpTo != null && design.anyRoles().isEmpty()) {
      throw new CliError("--bounded-up-to needs --threads ROLE=any");
    }
    int upTo = boundedUpTo == null ? BOUNDED_UP_TO : boundedUpTo;
    if (!design.anyRoles().isEmpty() && (overlap != null || upTo < 1)) {
      throw new CliError(overlap != null ? "--overlap needs numbers of threads, not any" : "--bounded-up-to needs at least 1, got " + upTo);
    }
    Checker.Options checkerOptions = opts;
    return monitored(status -> {
      CheckReport r;
      try {
        any = design.anyRoles().isEmpty() ? null
            : AnyChecker.check(d, design.anyRoles(), upTo, source, checkerOptions, Parameterized.Limits.defaults(), status);
        r = any != null ? any.report() : Checker.check(d, source, checkerOptions, status);
      } catch (OutOfMemoryError e) {
        throw new CliError("out of Java heap: lower --max-states, or give Java more memory (INTERLOCK_JAVA_OPTS=-Xmx16g)");
      } catch (IllegalArgumentException e) {
        throw new CliError(file + ": " + e.getMessage());
      }
      return () -> report(r, d);
    });
  }

  /**
   * Runs {@code search} with progress lines when asked for (or on a console) and an {@link Interruption} hook, then
   * prints its report unless the check was interrupted.
   */
  private int monitored(Function<SearchStatus, Report> search) {
    PrintWriter err = spec.commandLine().getErr();
    SearchStatus status = new SearchStatus(line -> {
      err.println("interlock: warning: " + line);
      err.flush();
    });
    boolean show = progress != null ? progress : System.console() != null;
    ProgressPrinter printer = show ? ProgressPrinter.start(status, err, progressInterval) : ProgressPrinter.none();
    try (Interruption interruption = new Interruption(() -> {
      printer.close();
      interrupted(status);
    })) {
      Report report;
      try {
        report = search.apply(status);
      } finally {
        printer.close();
      }
      if (!interruption.report()) {
        return INTERRUPTED;
      }
      try {
        int exit = report.print();
        interruption.done(exit);
        return exit;
      } catch (RuntimeException e) {
        interruption.done(2);
        throw e;
      }
    }
  }

  /** The statistics of an interrupted check: a JSON object on stdout under --json, else a line on stderr. */
  private void interrupted(SearchStatus status) {
    if (json) {
      PrintWriter out = spec.commandLine().getOut();
      out.println(Json.write(status.statisticsJson()));
      out.flush();
    } else {
      PrintWriter err = spec.commandLine().getErr();
      err.println("interlock: " + status.statisticsLine());
      err.flush();
    }
  }

  /** Writes the exhaustive check's trace files and prints its report; returns the exit status. */
  private int report(CheckReport r, Design d) {
    Optional<Trace> toWrite = r.counterexample().or(() -> r.overlap().flatMap(OverlapAnswer::witness));
    if (traceOut != null && toWrite.isPresent()) {
      TraceFiles.write(toWrite.get(), traceOut, force);
    }
    html(toWrite, d, r.counterexample().isPresent() ? "counterexample" : "overlap witness");
    PrintWriter out = spec.commandLine().getOut();
    if (json) {
      out.println(Json.write(json(r)));
    } else {
      text(out, r);
    }
    out.flush();
    return any != null ? any.verdict().exitStatus() : r.verdict().exitStatus();
  }

  private int searchThreads() {
    int n = searchThreads != null ? searchThreads : Runtime.getRuntime().availableProcessors();
    if (n < 1 || n > 1024) {
      throw new CliError("--search-threads must be in 1..1024, got " + n);
    }
    return n;
  }

  private long maxMemoryBytes() {
    if (maxMemory == null) {
      return Long.MAX_VALUE;
    }
    Sizes.Parsed p = Sizes.parse(maxMemory);
    long bytes = p.bytes().orElseThrow(() -> new CliError("--max-memory: " + p.error()));
    if (bytes < 1) {
      throw new CliError("--max-memory must be positive, got " + maxMemory);
    }
    return bytes;
  }

  private int random(Design d, String source) {
    if (random < 1) {
      throw new CliError("--random needs at least 1 schedule, got " + random);
    }
    if (overlap != null) {
      throw new CliError("--overlap needs the exhaustive search; leave out --random");
    }
    int threads = randomThreads != null ? randomThreads : Runtime.getRuntime().availableProcessors();
    if (threads < 1) {
      throw new CliError("--random-threads must be positive, got " + threads);
    }
    long s = seed != null ? seed : System.currentTimeMillis();
    return monitored(status -> {
      Schedules.RandomResult rr = Schedules.random(new Model(d), source, s, random, threads, status);
      long shrinkStart = System.nanoTime();
      Optional<ShrunkSchedule> shrunk = noShrink ? Optional.empty() : rr.violating().map(t -> new ScheduleShrinker().shrink(d, t));
      double shrinkSeconds = (System.nanoTime() - shrinkStart) / 1e9;
      return () -> randomReport(d, source, s, rr, shrunk, shrinkSeconds);
    });
  }

  /** Writes the random check's trace files and prints its report; returns the exit status. */
  private int randomReport(Design d, String source, long s, Schedules.RandomResult rr, Optional<ShrunkSchedule> shrunk,
      double shrinkSeconds) {
    Optional<Trace> shown = shrunk.map(ShrunkSchedule::shrunk).or(rr::violating);
    Verdict v = shown.map(t -> (Verdict) new Verdict.Unsafe(((Outcome.Violated) t.outcome()).violation()))
        .orElse(new Verdict.NoneFound(rr.schedules()));
    if (traceOut != null && shown.isPresent()) {
      TraceFiles.write(shown.get(), traceOut, force);
    }
    html(shown, d, shrunk.isPresent() ? "shrunk violating schedule" : "violating schedule");
    PrintWriter out = spec.commandLine().getOut();
    if (json) {
      ObjectNode m = Json.object();
      m.put("design", d.name());
      m.put("verdict", v.label());
      m.put("searched_transitions", rr.transitions());
      m.set("threads", Json.counts(shown.map(t -> t.params().threads()).orElseGet(() -> threadCounts(d))));
      m.putNull("searched_states");
      m.put("seconds", Json.seconds(rr.seconds()));
      m.putNull("overlap");
      m.put("seed", s);
      m.put("schedules", rr.schedules());
      m.put("schedules_run", rr.run());
      m.put("schedules_per_second", Math.round(rr.schedulesPerSecond()));
      m.put("random_threads", rr.threads());
      m.put("message", CheckReportJson.message(v));
      m.put("length", shown.map(Trace::length).orElse(0));
      m.put("original_length", rr.violating().map(Trace::length).orElse(0));
      m.set("original_threads", Json.counts(threadCounts(d)));
      m.put("shrink_attempts", shrunk.map(ShrunkSchedule::attempts).orElse(0));
      m.put("shrink_seconds", Json.seconds(shrunk.isPresent() ? shrinkSeconds : 0));
      m.set("trace", shown.map(CheckReportJson::steps).orElseGet(Json::array));
      out.println(Json.write(m));
    } else {
      out.printf(Locale.ROOT, "design    %s (%s)%n", d.name(), source);
      out.printf(Locale.ROOT, "checked   %s%n", d.parametersLine());
      out.printf(Locale.ROOT, "random    %d schedules from seed %d (rerun: --random %d --seed %d)%n", rr.schedules(), s, random, s);
      out.printf(Locale.ROOT, "verdict   %s%n", v.label());
      if (CheckReportJson.message(v) != null) {
        out.printf(Locale.ROOT, "          %s%n", CheckReportJson.message(v));
      } else {
        out.printf(Locale.ROOT, "          no violation in %d random schedules; not a proof: run without --random for that%n", rr.schedules());
      }
      out.printf(Locale.ROOT, "search    %d transitions, %.3f s, %.0f schedules/s (%d schedules run on %d thread%s)%n",
          rr.transitions(), rr.seconds(), rr.schedulesPerSecond(), rr.run(), rr.threads(), rr.threads() == 1 ? "" : "s");
      shrunk.ifPresentOrElse(x -> shrunkText(out, x, shrinkSeconds), () -> rr.violating().ifPresent(t -> {
        out.printf(Locale.ROOT, "%nviolating schedule (%d transitions, seed %d):%n", t.length(), t.seed().orElseThrow());
        out.print(TraceFormat.print(t));
      }));
    }
    out.flush();
    return v.exitStatus();
  }

  /** The schedule as found and as shrunk, in numbers, then the shrunk trace. */
  private static void shrunkText(PrintWriter out, ShrunkSchedule x, double seconds) {
    Trace found = x.original();
    Trace t = x.shrunk();
    out.printf(Locale.ROOT, "found     %d transitions, threads %s, jobs %s (the schedule of seed %d)%n", found.length(),
        counts(found.params().threads()), counts(found.params().jobs()), found.seed().orElseThrow());
    out.printf(Locale.ROOT, "shrunk    %d transitions, threads %s, jobs %s (%d schedules replayed, %.3f s; --no-shrink for the one found)%n",
        t.length(), counts(t.params().threads()), counts(t.params().jobs()), x.attempts(), seconds);
    out.printf(Locale.ROOT, "%nshrunk violating schedule (%d transitions, %s; from the schedule of seed %d):%n", t.length(),
        counts(t.params().threads()), t.seed().orElseThrow());
    out.print(TraceFormat.print(t));
  }

  /** Writes {@code shown} to --html when both are given; says on stderr when there is nothing to show. */
  private void html(Optional<Trace> shown, Design d, String title) {
    if (html == null) {
      return;
    }
    if (shown.isEmpty()) {
      spec.commandLine().getErr().printf(Locale.ROOT, "interlock: no counterexample or witness: nothing written to %s%n", html);
      return;
    }
    HtmlViews.trace(html, force, title, shown.get(), d);
  }

  /** The shared report object ({@link CheckReportJson}) with the fields of {@code --threads ROLE=any} added. */
  private ObjectNode json(CheckReport r) {
    ObjectNode m = CheckReportJson.of(r, new CheckReportJson.Search(!noPor, searchThreads(), allViolations));
    if (any != null) {
      AnyOutput.json(m, any);
    }
    return m;
  }

  /** The other violation kinds, one line each, and what the list leaves out. */
  private static void others(PrintWriter out, CheckReport r) {
    if (r.others().isEmpty()) {
      out.printf(Locale.ROOT, "others    %s%n", CheckReportJson.othersComplete(r) ? "none" : "none found");
    }
    for (Counterexample c : r.others()) {
      out.printf(Locale.ROOT, "other     %s at %s, %d transitions%n", c.violation().kind(), counts(c.threads()), c.length());
    }
    if (r.stoppedSearches() > 0) {
      out.printf(Locale.ROOT, "          --max-states stopped %d search%s: a violation with fewer threads, or another kind, may be missing%n",
          r.stoppedSearches(), r.stoppedSearches() == 1 ? "" : "es");
    } else if (!r.search().exhaustive()) {
      out.printf(Locale.ROOT, "          may be incomplete: the checked counts were searched only as deep as this counterexample needs"
          + " (--all-violations searches them all)%n");
    }
  }

  private void text(PrintWriter out, CheckReport r) {
    Design d = r.design();
    out.printf(Locale.ROOT, "design    %s (%s)%n", d.name(), file);
    out.printf(Locale.ROOT, "checked   %s%n", any == null ? d.parametersLine() : AnyOutput.parameters(d.parametersLine(), any.anyRoles()));
    out.printf(Locale.ROOT, "verdict   %s%n", any == null ? r.verdict().label() : AnyOutput.verdict(any));
    Verdict v = r.verdict();
    if (v instanceof Verdict.Unsafe u) {
      out.printf(Locale.ROOT, "          %s%n", u.violation().message());
      out.printf(Locale.ROOT, "minimal   %s (fewest threads in total, then transitions, of any violation kind; %d smaller"
          + " configurations searched in %.3f s)%n", counts(r.threads()), r.smallerConfigs(), r.minimizeSeconds());
      others(out, r);
    } else if (v instanceof Verdict.LimitReached l && l.limit() == Verdict.Limit.HEAP) {
      out.printf(Locale.ROOT, "          stopped when the Java heap (%d MiB) ran out before the search was exhaustive: NOT a proof of safety;"
          + " give Java more memory (INTERLOCK_JAVA_OPTS=-Xmx16g) or set --max-states or --max-memory%n",
          Runtime.getRuntime().maxMemory() / Sizes.MIB);
    } else if (v instanceof Verdict.LimitReached l && l.memoryLimit().isPresent()) {
      out.printf(Locale.ROOT, "          stopped at --max-memory %s (the state store) before the search was exhaustive: NOT a proof of safety%n",
          Sizes.format(l.memoryLimit().getAsLong()));
    } else if (v instanceof Verdict.Unknown) {
      out.printf(Locale.ROOT, "          not a proof of safety for every number of threads%n");
    } else if (v instanceof Verdict.LimitReached l) {
      out.printf(Locale.ROOT, "          stopped at --max-states %d before the search was exhaustive: NOT a proof of safety%n", l.maxStates());
    } else if (any == null) {
      out.printf(Locale.ROOT, "          no reachable state violates (exhaustive search)%n");
    }
    if (any != null) {
      AnyOutput.text(out, any);
    }
    r.overlap().ifPresent(o -> out.printf(Locale.ROOT, "overlap   %s %s%s: %s%n", o.query().a(), o.query().b(),
        o.query().sameWorker() ? " (same worker included)" : "", o.reachability()));
    out.printf(Locale.ROOT, "search    %d states, %d transitions, %.3f s, %.0f states/s, state store %.1f MiB at the peak"
        + " (breadth-first%s%s, %d search thread%s)%n",
        r.search().states(), r.search().transitions(), r.search().seconds(), r.search().statesPerSecond(),
        r.search().peakBytes() / (double) Sizes.MIB, noSymmetry ? "" : ", symmetry-reduced",
        r.search().reduced() ? ", partial-order reduced" : "", searchThreads(), searchThreads() == 1 ? "" : "s");
    r.counterexample().ifPresent(t -> {
      out.printf(Locale.ROOT, "%ncounterexample (%d transitions, %s):%n", t.length(), counts(r.threads()));
      out.print(TraceFormat.print(t));
    });
    if (allViolations) {
      for (Counterexample c : r.others()) {
        out.printf(Locale.ROOT, "%nother counterexample: %s (%d transitions, %s):%n", c.violation().kind(), c.length(), counts(c.threads()));
        out.print(TraceFormat.print(c.trace()));
      }
    }
    r.overlap().flatMap(OverlapAnswer::witness).ifPresent(t -> {
      out.printf(Locale.ROOT, "%nwitness (%d transitions):%n", t.length());
      out.print(TraceFormat.print(t));
    });
    if (traceOut != null) {
      out.printf(Locale.ROOT, "%s%n", r.counterexample().isPresent() || r.overlap().flatMap(OverlapAnswer::witness).isPresent()
          ? "trace written to " + traceOut : "no trace to write to " + traceOut);
    }
  }

  private static Map<String, Integer> threadCounts(Design d) {
    Map<String, Integer> m = new LinkedHashMap<>();
    d.roles().forEach(r -> m.put(r.name(), r.threads()));
    return m;
  }

  private static String counts(Map<String, Integer> m) {
    List<String> parts = new ArrayList<>();
    m.forEach((k, v) -> parts.add(k + "=" + v));
    return String.join(" ", parts);
  }
}
