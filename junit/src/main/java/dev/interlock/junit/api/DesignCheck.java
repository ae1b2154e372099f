package dev.interlock.junit.api;

import dev.interlock.model.check.CheckReport;
import dev.interlock.model.check.Checker;
import dev.interlock.model.check.OverlapQuery;
import dev.interlock.model.design.Design;
import dev.interlock.model.design.DesignException;
import dev.interlock.model.design.Role;
import dev.interlock.model.design.Sizes;
import dev.interlock.model.expect.DesignExpectations;
import dev.interlock.model.param.AnyChecker;
import dev.interlock.model.param.AnyReport;
import dev.interlock.model.param.Parameterized;
import dev.interlock.model.state.Model;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The exhaustive check of one design, configured fluently and run by {@link #run()}. Immutable: every method returns
 * a new check, so that a configured check can be shared and varied.
 *
 * <p>Each method checks its arguments against the design at once: an unknown role, semaphore or interval, a bad size
 * or a count out of range is an {@link IllegalArgumentException} whose message starts with the design's file name.
 */
public final class DesignCheck {
  /** The state limit of each search unless {@link #maxStates} says otherwise (the CLI's default too). */
  public static final long DEFAULT_MAX_STATES = 20_000_000;

  /** Threads per {@link #threadsAny} role up to which DEADLOCK and LEAK are searched (the CLI's default). */
  static final int BOUNDED_UP_TO = 6;

  private final String source;
  private final String text;
  private final Design parsed;
  private final Design design;
  private final List<String> anyRoles;
  private final long maxStates;
  private final Optional<OverlapQuery> overlap;

  private DesignCheck(String source, String text, Design parsed, Design design, List<String> anyRoles, long maxStates,
      Optional<OverlapQuery> overlap) {
    this.source = source;
    this.text = text;
    this.parsed = parsed;
    this.design = design;
    this.anyRoles = List.copyOf(anyRoles);
    this.maxStates = maxStates;
    this.overlap = overlap;
  }

  static DesignCheck of(String source, String text) {
    Design d = Interlock.parse(source, text);
    return new DesignCheck(source, text, d, d, List.of(), DEFAULT_MAX_STATES, Optional.empty());
  }

  /**
   * This check with the device memory {@code size}, e.g. {@code "24GiB"} (units B, KiB, MiB, GiB).
   *
   * @throws IllegalArgumentException when {@code size} is not a size
   */
  public DesignCheck vram(String size) {
    Sizes.Parsed p = Sizes.parse(size);
    return vram(p.bytes().orElseThrow(() -> error("vram: " + p.error())));
  }

  /**
   * This check with {@code bytes} of device memory.
   *
   * @throws IllegalArgumentException when {@code bytes} is not positive
   */
  public DesignCheck vram(long bytes) {
    if (bytes < 1) {
      throw error("vram: must be positive, got " + bytes);
    }
    return with(design.withVram(bytes), anyRoles, maxStates, overlap);
  }

  /**
   * This check with {@code n} threads of {@code role}.
   *
   * @throws IllegalArgumentException when the design has no such role or {@code n} is less than 1
   */
  public DesignCheck threads(String role, int n) {
    role(role, "threads");
    atLeast("threads " + role, n, 1);
    List<String> any = new ArrayList<>(anyRoles);
    any.remove(role);
    return with(design.withThreads(role, n), any, maxStates, overlap);
  }

  /**
   * This check for every number of threads of {@code role} (the CLI's {@code --threads ROLE=any}): the parameterized
   * analysis answers the kinds that more threads can only make worse (OOM among them) for every number, and DEADLOCK
   * and LEAK are searched exhaustively up to 6 threads of the role; a violation is shown at the fewest threads that
   * show it. The verdict may be UNKNOWN where the analysis cannot decide. Not with {@link #overlap}.
   *
   * @throws IllegalArgumentException when the design has no such role, or an overlap query is asked
   */
  public DesignCheck threadsAny(String role) {
    role(role, "threadsAny");
    if (overlap.isPresent()) {
      throw error("threadsAny " + role + ": an overlap query needs numbers of threads, not any");
    }
    List<String> any = new ArrayList<>(anyRoles);
    if (!any.contains(role)) {
      any.add(role);
    }
    return with(design.withThreads(role, 1), any, maxStates, overlap);
  }

  /**
   * This check with each thread of {@code role} running its body {@code n} times.
   *
   * @throws IllegalArgumentException when the design has no such role or {@code n} is less than 1
   */
  public DesignCheck jobs(String role, int n) {
    role(role, "jobs");
    atLeast("jobs " + role, n, 1);
    return with(design.withJobs(role, n), anyRoles, maxStates, overlap);
  }

  /**
   * This check with semaphore {@code semaphore} starting with {@code n} permits.
   *
   * @throws IllegalArgumentException when the design has no such semaphore or {@code n} is negative
   */
  public DesignCheck permits(String semaphore, int n) {
    if (design.semaphoreIndex(semaphore) < 0) {
      throw error("permits: no semaphore '" + semaphore + "' in design " + design.name() + " (semaphores: "
          + String.join(", ", design.semaphores().stream().map(s -> s.name()).toList()) + ")");
    }
    atLeast("permits " + semaphore, n, 0);
    return with(design.withPermits(semaphore, n), anyRoles, maxStates, overlap);
  }

  /**
   * This check with each search stopped after {@code n} distinct states; a stopped search answers LIMIT, never SAFE.
   *
   * @throws IllegalArgumentException when {@code n} is less than 1
   */
  public DesignCheck maxStates(long n) {
    if (n < 1) {
      throw error("maxStates: must be positive, got " + n);
    }
    return with(design, anyRoles, n, overlap);
  }

  /**
   * This check asking the overlap query as well: can a thread be inside interval {@code a} (a {@code cpu} or
   * {@code kernel} step's name) while a thread of another worker is inside interval {@code b}?
   *
   * @throws IllegalArgumentException when the design has no such interval, or a role's threads are any
   */
  public DesignCheck overlap(String a, String b) {
    List<String> intervals = new Model(design).intervalNames();
    for (String name : List.of(a, b)) {
      if (!intervals.contains(name)) {
        throw error("overlap: no interval '" + name + "' in design " + design.name() + " (intervals: "
            + String.join(", ", intervals) + ")");
      }
    }
    if (!anyRoles.isEmpty()) {
      throw error("overlap: an overlap query needs numbers of threads, not any (threadsAny " + anyRoles.get(0) + ")");
    }
    return with(design, anyRoles, maxStates, Optional.of(new OverlapQuery(a, b)));
  }

  /**
   * Runs the check: an exhaustive search of every schedule, the counterexample minimized to the fewest threads (then
   * transitions) that show a violation. It may take long for a large design: {@link #maxStates} bounds it.
   *
   * @throws IllegalArgumentException when the design cannot be checked as configured
   */
  public CheckResult run() {
    try {
      if (anyRoles.isEmpty()) {
        return new CheckResult(this, Checker.check(design, source, options()), Optional.empty());
      }
      AnyReport any = AnyChecker.check(design, anyRoles, BOUNDED_UP_TO, source, options(), Parameterized.Limits.defaults());
      return new CheckResult(this, any.report(), Optional.of(any));
    } catch (IllegalArgumentException e) {
      throw error(e.getMessage());
    }
  }

  /** The check of this design against its {@code # expect:} line, whose overlap query (if any) it asks. */
  DesignExpectations.Result runAgainstExpectation() throws DesignException {
    if (!anyRoles.isEmpty()) {
      throw error("an expect line is checked at numbers of threads, not any");
    }
    try {
      return DesignExpectations.check(source, text, d -> design, options());
    } catch (IllegalArgumentException e) {
      throw error(e.getMessage());
    }
  }

  /** This check asking the overlap query {@code q} instead of its own. */
  DesignCheck withOverlap(OverlapQuery q) {
    return overlap(q.a(), q.b());
  }

  private Checker.Options options() {
    int threads = Math.max(1, Runtime.getRuntime().availableProcessors());
    return new Checker.Options(maxStates, overlap, true, true, false).withSearch(true, threads, Long.MAX_VALUE);
  }

  private DesignCheck with(Design d, List<String> any, long states, Optional<OverlapQuery> q) {
    return new DesignCheck(source, text, parsed, d, any, states, q);
  }

  private void role(String role, String method) {
    if (role == null || design.role(role).isEmpty()) {
      throw error(method + ": no role '" + role + "' in design " + design.name() + " (roles: "
          + String.join(", ", design.roles().stream().map(Role::name).toList()) + ")");
    }
  }

  private void atLeast(String what, int n, int least) {
    if (n < least) {
      throw error(what + ": needs at least " + least + ", got " + n);
    }
  }

  private IllegalArgumentException error(String detail) {
    return new IllegalArgumentException(source + ": " + detail);
  }

  String source() {
    return source;
  }

  String text() {
    return text;
  }

  /** The design as parsed, before this check's parameters: what a trace's parameters apply to. */
  Design parsed() {
    return parsed;
  }

  /** The design as checked. */
  Design design() {
    return design;
  }

  boolean anyThreads() {
    return !anyRoles.isEmpty();
  }

  /** The design, its parameters and the state limit, as a message shows them. */
  @Override
  public String toString() {
    return "check of " + source + " (" + design.parametersLine()
        + (anyRoles.isEmpty() ? "" : ", threads any: " + String.join(", ", anyRoles)) + ", max states " + maxStates
        + overlap.map(q -> ", overlap " + q.a() + " " + q.b()).orElse("") + ")";
  }
}
