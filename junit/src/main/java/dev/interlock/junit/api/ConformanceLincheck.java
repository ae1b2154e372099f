package dev.interlock.junit.api;

import static org.jetbrains.lincheck.datastructures.ManagedStrategyGuaranteeKt.forClasses;

import dev.interlock.impl.api.Pipeline;
import dev.interlock.impl.device.SimulatedDevice;
import dev.interlock.impl.engine.SharedEngine;
import dev.interlock.impl.lincheck.ModelJobSpec;
import dev.interlock.model.design.Design;
import dev.interlock.model.design.Sizes;
import dev.interlock.model.step.Names;
import java.util.Objects;
import java.util.function.Supplier;
import org.jetbrains.lincheck.LincheckAssertionError;
import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;
import org.jetbrains.lincheck.datastructures.Operation;

/**
 * {@link PipelineConformance#linearizable()}: Lincheck's model checking of the pipeline's jobs on a shared engine,
 * with the model as the sequential specification. The one class of this package that touches Lincheck, so that it is
 * loaded only when that check runs.
 *
 * <p>Lincheck makes its test and specification objects itself, by their no-argument constructors; they find the design
 * and the pipeline factory of the check in progress in {@link #current}. One check runs at a time.
 */
final class ConformanceLincheck {
  /** The system properties of the budget: {@code interlock.lincheck.iterations} and so on. */
  static final String PREFIX = "interlock.lincheck.";

  /** The engine's package-private step-text parser and cache. */
  private static final String STEP_TEXTS = "dev.interlock.impl.engine.StepTexts";

  /** Jobs run one after another, on the model and on the pipeline, before Lincheck runs. */
  private static final int SEQUENTIAL_JOBS = 4;

  /** The design and pipeline factory of the check in progress. */
  private static volatile Setup current;

  private record Setup(Design design, Supplier<Pipeline> factory) {
    Setup {
      Objects.requireNonNull(design, "design");
      Objects.requireNonNull(factory, "factory");
    }

    String role() {
      return design.roles().get(0).name();
    }
  }

  private ConformanceLincheck() {}

  /** Runs the check; throws {@link AssertionError} with Lincheck's report when it finds a failure. */
  static synchronized void check(Design design, Supplier<Pipeline> factory) {
    current = new Setup(design, factory);
    try {
      sequentialJobsAgree(design);
      int iterations = property("iterations", 1);
      int invocations = property("invocations", 50);
      int threads = property("threads", 3);
      int actors = property("actors", 1);
      String name = "pipeline conformance of design " + design.name();
      System.out.printf("[lincheck] %s: model checking jobs of role %s, iterations=%d invocations=%d threads=%d"
          + " actors=%d (override with -D%s{iterations,invocations,threads,actors})%n", name, current.role(),
          iterations, invocations, threads, actors, PREFIX);
      ModelCheckingOptions options = new ModelCheckingOptions()
          .addGuarantee(forClasses(Names.class.getName(), Sizes.class.getName(), STEP_TEXTS).allMethods().ignore())
          .iterations(iterations)
          .invocationsPerIteration(invocations)
          .threads(threads)
          .actorsPerThread(actors)
          .actorsBefore(0)
          .actorsAfter(0)
          .sequentialSpecification(Spec.class);
      try {
        options.check(Target.class);
      } catch (LincheckAssertionError e) {
        System.out.printf("[lincheck] %s: not linearizable%n", name);
        throw new AssertionError(name + ": Lincheck found jobs that do not end as the model says they would one after"
            + " another:\n" + e.getMessage(), e);
      }
      System.out.printf("[lincheck] %s: no violation of linearizability found%n", name);
    } finally {
      current = null;
    }
  }

  /** Jobs one after another must already end alike on the model and on the pipeline, or Lincheck's report misleads. */
  private static void sequentialJobsAgree(Design design) {
    Spec spec = new Spec();
    Target target = new Target();
    for (int i = 0; i < SEQUENTIAL_JOBS; i++) {
      String model = spec.runJob();
      String pipeline = target.runJob();
      if (!model.equals(pipeline)) {
        throw new AssertionError("pipeline conformance of design " + design.name() + ": job " + i + " of role "
            + current.role() + ", run alone after the ones before, ends '" + pipeline + "' on the pipeline and '"
            + model + "' on the model");
      }
    }
  }

  private static int property(String name, int fallback) {
    String v = System.getProperty(PREFIX + name);
    if (v == null || v.isBlank()) {
      return fallback;
    }
    int n;
    try {
      n = Integer.parseInt(v.strip());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("-D" + PREFIX + name + " must be an integer, got '" + v + "'", e);
    }
    if (n < 1) {
      throw new IllegalArgumentException("-D" + PREFIX + name + " must be positive, got " + n);
    }
    return n;
  }

  private static Setup setup() {
    Setup s = current;
    if (s == null) {
      throw new IllegalStateException("no PipelineConformance.linearizable() check is running");
    }
    return s;
  }

  /** Lincheck's test object: a shared engine running the pipeline on a fresh simulated device; one operation. */
  public static final class Target {
    private final SharedEngine engine;
    private final String role;

    /** A fresh engine for the check in progress. */
    public Target() {
      Setup s = setup();
      engine = new SharedEngine(s.design(), new SimulatedDevice(s.design().vram()), r -> s.factory().get());
      role = s.role();
    }

    /** A job of the first role on the calling thread: "ok", or the violation and its step. */
    @Operation
    public String runJob() {
      return engine.runJob(role);
    }
  }

  /** The sequential specification: the model of the design, one thread per role, a job per call. */
  public static final class Spec extends ModelJobSpec {
    private final String role;

    /** The model of the check in progress. */
    public Spec() {
      super(setup().design());
      role = setup().role();
    }

    /** A job of the first role on the model: "ok", or the violation and its step. */
    public String runJob() {
      return runJob(role);
    }
  }
}
