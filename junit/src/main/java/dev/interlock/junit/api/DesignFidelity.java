package dev.interlock.junit.api;

import dev.interlock.fidelity.Fidelity;
import dev.interlock.fidelity.FidelityDevice;
import dev.interlock.fidelity.FidelityOptions;
import dev.interlock.impl.api.Device;
import dev.interlock.model.design.Design;
import java.util.Objects;
import java.util.function.LongFunction;
import java.util.function.Supplier;

/**
 * The fidelity comparison of one design (does the device do what the model says?), configured fluently and run by
 * {@link #run()}; what {@code interlock fidelity} does for one file. Immutable: every method returns a new comparison.
 *
 * <p>Each method checks its argument at once: a count out of range is an {@link IllegalArgumentException} whose message
 * starts with the design's file name.
 */
public final class DesignFidelity {
  private final String source;
  private final Design design;
  private final FidelityOptions options;

  private DesignFidelity(String source, Design design, FidelityOptions options) {
    this.source = source;
    this.design = design;
    this.options = options;
  }

  static DesignFidelity of(String source, String text) {
    return new DesignFidelity(source, Interlock.parse(source, text), FidelityOptions.defaults());
  }

  /**
   * This comparison with {@code n} free runs of a SAFE design (default
   * {@value dev.interlock.fidelity.FidelityOptions#DEFAULT_RUNS}, the CLI's).
   *
   * @throws IllegalArgumentException when {@code n} is less than 1
   */
  public DesignFidelity runs(int n) {
    return with(() -> options.withRuns(n));
  }

  /**
   * This comparison with the first free run's jitter seed {@code s} (default
   * {@value dev.interlock.fidelity.FidelityOptions#DEFAULT_SEED}); run i uses {@code s + i}.
   */
  public DesignFidelity seed(long s) {
    return with(() -> options.withSeed(s));
  }

  /**
   * This comparison with at most {@code us} microseconds of random pause before each step of a free run (default
   * {@value dev.interlock.fidelity.FidelityOptions#DEFAULT_JITTER_MICROS}).
   *
   * @throws IllegalArgumentException when {@code us} is negative
   */
  public DesignFidelity jitterMicros(int us) {
    return with(() -> options.withJitterMicros(us));
  }

  /**
   * This comparison with the model's search stopped after {@code n} distinct states (default
   * {@value dev.interlock.fidelity.FidelityOptions#DEFAULT_MAX_STATES}); a verdict stopped there is LIMIT, which is
   * not compared and does not agree.
   *
   * @throws IllegalArgumentException when {@code n} is less than 1
   */
  public DesignFidelity maxStates(long n) {
    return with(() -> options.withMaxStates(n));
  }

  /**
   * This comparison on the device {@code open} gives for the design's vram (default: the simulated device), named
   * {@code name} in the report; e.g. {@code device("gpu", CudaDevice::open)} with {@code interlock-gpu}. An OOM on a
   * device that reports driver errors ({@link Device#reportsDriverErrors()}) must carry the driver's own.
   *
   * @throws IllegalArgumentException when {@code name} is blank
   */
  public DesignFidelity device(String name, LongFunction<? extends Device> open) {
    Objects.requireNonNull(open, "open");
    return with(() -> options.withDevice(new FidelityDevice(Objects.requireNonNull(name, "name"), open)));
  }

  /**
   * Runs the comparison: the model's exhaustive search, then the counterexample's replay or the free runs on a fresh
   * device, which is closed again.
   */
  public FidelityResult run() {
    return new FidelityResult(this, Fidelity.compare(design, source, options));
  }

  private DesignFidelity with(Supplier<FidelityOptions> changed) {
    try {
      return new DesignFidelity(source, design, changed.get());
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(source + ": " + e.getMessage(), e);
    }
  }

  String source() {
    return source;
  }

  Design design() {
    return design;
  }

  FidelityOptions options() {
    return options;
  }

  /** The design, the device and the options, as a message shows them. */
  @Override
  public String toString() {
    return "fidelity of " + source + " (" + design.parametersLine() + ") on the " + options.device().name()
        + " device: " + options.runs() + " free runs per SAFE design, jitter seed " + options.seed() + " up to "
        + options.jitterMicros() + " us, max states " + options.maxStates();
  }
}
