package dev.interlock.junit.api;

import dev.interlock.impl.api.Pipeline;
import dev.interlock.model.design.Design;
import dev.interlock.model.design.DesignException;
import dev.interlock.model.design.DesignParser;
import dev.interlock.model.design.Sizes;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.function.Supplier;

/**
 * Checks a Java {@link Pipeline} of your own against the design it implements: the checks this repository runs on its
 * own pipelines, made public.
 *
 * <p>Written as one fluent, immutable chain, for example
 * {@code PipelineConformance.of(Path.of("designs/my.design"), MyPipeline::new).randomSchedules(200).check()}.
 * Each method that configures returns a new instance; the three checks ({@link #check()},
 * {@link #replaysCounterexamples()}, {@link #linearizable()}) throw {@link AssertionError} when the pipeline does not
 * conform, so they are assertions in a JUnit test. The pipeline runs on the engine with a simulated device (the model's
 * memory rules, no GPU). The factory is called once per role of each run, so every run starts from fresh pipelines;
 * a pipeline of several roles dispatches on {@code worker.role()}.
 *
 * <p>Dependencies: {@link #check()} and {@link #replaysCounterexamples()} need only interlock-junit (which brings
 * interlock-model and interlock-impl); {@link #linearizable()} also needs Lincheck on the test class path.
 *
 * <p>Random schedules are reproducible: every run prints its seed, a failure names it and the schedule's index, and
 * the same seed with the same configuration runs the same schedules again. The seed is the one given to
 * {@link #seed(long)}, else the system property {@value #SEED_PROPERTY} when set (to reproduce a failure without
 * editing the test), else {@value #DEFAULT_SEED}.
 */
public final class PipelineConformance {
  /** The system property that gives the seed when {@link #seed(long)} was not called. */
  public static final String SEED_PROPERTY = "interlock.seed";

  /** The seed when neither {@link #seed(long)} nor {@value #SEED_PROPERTY} gives one: runs are deterministic by default. */
  public static final long DEFAULT_SEED = 16;

  /** Random schedules {@link #check()} runs unless {@link #randomSchedules(int)} says otherwise. */
  public static final int DEFAULT_SCHEDULES = 100;

  /** States the checker explores for {@link #replaysCounterexamples()} unless {@link #maxStates(long)} says otherwise. */
  public static final long DEFAULT_MAX_STATES = 20_000_000;

  /** The Lincheck version this release is built and tested with (the parent pom's {@code lincheck.version}). */
  static final String LINCHECK_VERSION = "3.7";

  private final Design design;
  private final String source;
  private final Supplier<Pipeline> factory;
  private final int schedules;
  private final OptionalLong seed;
  private final long maxStates;

  private PipelineConformance(Design design, String source, Supplier<Pipeline> factory, int schedules,
      OptionalLong seed, long maxStates) {
    this.design = design;
    this.source = source;
    this.factory = factory;
    this.schedules = schedules;
    this.seed = seed;
    this.maxStates = maxStates;
  }

  /**
   * The pipeline {@code factory} makes, against the design in file {@code design}.
   *
   * @throws IllegalArgumentException with the design's {@code FILE:LINE:COL: message} when the file is not a design
   */
  public static PipelineConformance of(Path design, Supplier<Pipeline> factory) {
    Objects.requireNonNull(design, "design");
    try {
      return of(DesignParser.parse(design), design.toString(), factory);
    } catch (DesignException e) {
      throw new IllegalArgumentException(e.getMessage(), e);
    }
  }

  /**
   * The pipeline {@code factory} makes, against the design whose text is {@code designText} (reported as
   * {@code <text>.design}).
   *
   * @throws IllegalArgumentException with the design's {@code FILE:LINE:COL: message} when the text is not a design
   */
  public static PipelineConformance of(String designText, Supplier<Pipeline> factory) {
    Objects.requireNonNull(designText, "designText");
    String source = "<text>.design";
    try {
      return of(DesignParser.parse(source, designText), source, factory);
    } catch (DesignException e) {
      throw new IllegalArgumentException(e.getMessage(), e);
    }
  }

  private static PipelineConformance of(Design design, String source, Supplier<Pipeline> factory) {
    Objects.requireNonNull(factory, "factory");
    return new PipelineConformance(design, source, factory, DEFAULT_SCHEDULES, OptionalLong.empty(), DEFAULT_MAX_STATES);
  }

  /** This check with {@code n} random schedules for {@link #check()} (default {@value #DEFAULT_SCHEDULES}). */
  public PipelineConformance randomSchedules(int n) {
    if (n < 1) {
      throw new IllegalArgumentException("random schedules must be positive, got " + n);
    }
    return new PipelineConformance(design, source, factory, n, seed, maxStates);
  }

  /** This check with the random schedules of seed {@code seed}, whatever {@value #SEED_PROPERTY} says. */
  public PipelineConformance seed(long seed) {
    return new PipelineConformance(design, source, factory, schedules, OptionalLong.of(seed), maxStates);
  }

  /** This check with the design's {@code vram} replaced, e.g. {@code "24GiB"}. */
  public PipelineConformance vram(String size) {
    Objects.requireNonNull(size, "size");
    long bytes;
    try {
      bytes = Sizes.parseOrThrow(size);
    } catch (RuntimeException e) {
      throw new IllegalArgumentException("vram: " + e.getMessage(), e);
    }
    return with(design.withVram(bytes));
  }

  /** This check with {@code n} threads of role {@code role} instead of the design's count. */
  public PipelineConformance threads(String role, int n) {
    requireRole(role);
    return with(design.withThreads(role, n));
  }

  /** This check with {@code n} jobs per thread of role {@code role} instead of the design's count. */
  public PipelineConformance jobs(String role, int n) {
    requireRole(role);
    return with(design.withJobs(role, n));
  }

  /** This check with the checker of {@link #replaysCounterexamples()} stopping at {@code n} states. */
  public PipelineConformance maxStates(long n) {
    if (n < 1) {
      throw new IllegalArgumentException("max states must be positive, got " + n);
    }
    return new PipelineConformance(design, source, factory, schedules, seed, n);
  }

  private PipelineConformance with(Design d) {
    return new PipelineConformance(d, source, factory, schedules, seed, maxStates);
  }

  private void requireRole(String role) {
    Objects.requireNonNull(role, "role");
    if (design.role(role).isEmpty()) {
      throw new IllegalArgumentException("design " + design.name() + " has no role " + role + " (roles: "
          + design.roles().stream().map(r -> r.name()).toList() + ")");
    }
  }

  /**
   * Runs the pipeline under controlled random schedules and asserts that the model accepts every run.
   *
   * <p>Each schedule lets one thread of the engine take its next step at a time, chosen at random; the run's trace
   * (every step the pipeline named through its probe, with the device's bytes after it) is then replayed on the model.
   * A run conforms when the model confirms it step for step and ends the same way, violations included: a run that
   * ends in an out-of-memory the model also reaches there conforms, one that takes a step the design does not allow
   * there, allocates other sizes than it names, or throws does not. Runs must also leave no kernel running.
   *
   * @return how the runs ended
   * @throws AssertionError at the first run that does not conform, naming the seed, the schedule's index, the
   *     transition where it diverges, what the model allows there, and the engine's trace as text
   */
  public ScheduleSummary check() {
    return new ConformanceSchedules(design, source, factory).run(schedules, seed());
  }

  /**
   * Checks the design, then drives the pipeline along each counterexample the checker finds (the primary one and
   * one per other violation kind), asserting that it fails the same way: the same violation at the same transition.
   *
   * <p>A SAFE design has none: the summary then says so ({@link ReplaySummary#replayed()} empty, verdict SAFE), as
   * it does when the checker stopped at {@link #maxStates(long)} (verdict LIMIT).
   *
   * @return the checker's verdict and the counterexamples replayed
   * @throws AssertionError at the first counterexample the pipeline does not follow, with both traces
   */
  public ReplaySummary replaysCounterexamples() {
    return new ConformanceReplays(design, source, factory).run(maxStates);
  }

  /**
   * Lincheck's model checking of the pipeline, with the model as its sequential specification: jobs of the design's
   * first role, run concurrently on a shared engine, must each end as the model says the same jobs run one after
   * another would ("ok", or the violation and its step). A design whose jobs can fail only when they overlap (an
   * out-of-memory between two workers) is not linearizable.
   *
   * <p>Needs {@code org.jetbrains.lincheck:lincheck} (3.x) on the test class path, and, in the test JVM, the
   * arguments {@code -Djdk.attach.allowAttachSelf=true} and {@code --add-opens java.base/java.util.regex=ALL-UNNAMED}
   * (Lincheck attaches its agent at run time). Its budget comes from the system properties
   * {@code interlock.lincheck.iterations}, {@code .invocations}, {@code .threads} and {@code .actors} (defaults 1, 50,
   * 3, 1), printed with the result. The classes that use Lincheck are loaded only here.
   *
   * @throws AssertionError with Lincheck's report when an explored interleaving is not linearizable, or when jobs run
   *     one after another already end otherwise on the pipeline than on the model
   * @throws IllegalStateException when Lincheck is not on the class path, saying which dependency to add
   */
  public void linearizable() {
    requireLincheck(PipelineConformance.class.getClassLoader());
    ConformanceLincheck.check(design, factory);
  }

  /** Fails with the dependency to add when {@code loader} cannot load Lincheck. */
  static void requireLincheck(ClassLoader loader) {
    try {
      Class.forName("org.jetbrains.lincheck.datastructures.ModelCheckingOptions", false, loader);
    } catch (ClassNotFoundException | LinkageError e) {
      throw new IllegalStateException("PipelineConformance.linearizable() needs Lincheck: add "
          + "org.jetbrains.lincheck:lincheck:" + LINCHECK_VERSION + " to your test dependencies", e);
    }
  }

  /** The seed in force, printed by the check that uses it. */
  private long seed() {
    if (seed.isPresent()) {
      return seed.getAsLong();
    }
    String property = System.getProperty(SEED_PROPERTY);
    if (property == null || property.isBlank()) {
      return DEFAULT_SEED;
    }
    try {
      return Long.parseLong(property.strip());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("-D" + SEED_PROPERTY + " must be a long, got '" + property + "'", e);
    }
  }

  /**
   * How the random schedules of {@link #check()} ended; every one conformed.
   *
   * @param design    the design's name
   * @param seed      the seed of the schedules
   * @param schedules how many ran
   * @param completed how many ran every job to its end
   * @param violated  the others, by the violation they ended in (the model's too), e.g. {@code OOM=12}
   */
  public record ScheduleSummary(String design, long seed, int schedules, int completed, Map<String, Integer> violated) {
    /** Validates the counts. */
    public ScheduleSummary {
      Objects.requireNonNull(design, "design");
      violated = Map.copyOf(violated);
      if (completed < 0 || completed + violated.values().stream().mapToInt(Integer::intValue).sum() != schedules) {
        throw new IllegalArgumentException("schedules " + schedules + " are not completed " + completed + " plus "
            + violated);
      }
    }
  }

  /**
   * What {@link #replaysCounterexamples()} did; every counterexample it replayed failed the same way on the pipeline.
   *
   * @param design   the design's name
   * @param verdict  the checker's verdict: SAFE, LIMIT, or the primary violation's kind (e.g. OOM)
   * @param replayed one line per counterexample replayed, primary first: kind, transitions and thread counts, e.g.
   *                 {@code OOM in 9 transitions, threads gpu_worker=2}
   */
  public record ReplaySummary(String design, String verdict, List<String> replayed) {
    /** Validates and copies. */
    public ReplaySummary {
      Objects.requireNonNull(design, "design");
      Objects.requireNonNull(verdict, "verdict");
      replayed = List.copyOf(replayed);
    }

    /** Whether the checker found nothing to replay because the design is SAFE. */
    public boolean safe() {
      return verdict.equals("SAFE");
    }
  }
}
