package dev.interlock.junit.api;

import dev.interlock.fidelity.FidelityOptions;
import dev.interlock.fidelity.FidelityReport;
import java.util.Locale;
import java.util.Objects;

/**
 * What a {@link DesignFidelity} found: the model's verdict, what the device did and whether they agree. Immutable;
 * assert on it with {@link InterlockAssertions#assertThat(FidelityResult)}.
 */
public final class FidelityResult {
  private final DesignFidelity fidelity;
  private final FidelityReport report;

  FidelityResult(DesignFidelity fidelity, FidelityReport report) {
    this.fidelity = Objects.requireNonNull(fidelity, "fidelity");
    this.report = Objects.requireNonNull(report, "report");
  }

  /** The design file as it was named ({@value Interlock#STRING_SOURCE} for text). */
  public String source() {
    return fidelity.source();
  }

  /** The design's name (its {@code design} line). */
  public String design() {
    return fidelity.design().name();
  }

  /** The model's verdict label: {@code SAFE}, a {@link Violation} name, or {@code LIMIT} (not compared). */
  public String verdict() {
    return report.model().verdict().label();
  }

  /** The model's side as the CLI prints it: {@code OOM at 9}, {@code SAFE}, {@code LIMIT}. */
  public String model() {
    return report.model().text();
  }

  /**
   * The device's side as the CLI prints it: {@code OOM at 9}, with the driver's error on a device that reports one
   * ({@code OOM at 9 (CUDA_ERROR_OUT_OF_MEMORY)}), {@code diverges at I: REASON}, {@code K/K runs complete, nothing
   * live}, {@code run R (seed S): PROBLEM} or {@code not compared: the model has no verdict}.
   */
  public String device() {
    return report.device().text();
  }

  /** Whether the device did what the model says; a LIMIT never agrees. */
  public boolean agrees() {
    return report.agrees();
  }

  /** The comparison as text: the design, what was compared on which device, the model's and the device's side. */
  public String report() {
    FidelityOptions o = fidelity.options();
    StringBuilder b = new StringBuilder();
    line(b, "design", design() + " (" + source() + ")");
    line(b, "checked", fidelity.design().parametersLine() + " on the " + o.device().name() + " device: " + o.runs()
        + " free runs per SAFE design, jitter seed " + o.seed() + " up to " + o.jitterMicros() + " us, max states "
        + o.maxStates());
    line(b, "model", model());
    line(b, "device", device());
    line(b, "fidelity", agrees() ? "agree" : "DISAGREE");
    return b.toString().replace(System.lineSeparator(), "\n");
  }

  private static void line(StringBuilder b, String key, String value) {
    b.append(String.format(Locale.ROOT, "%-9s %s%n", key, value));
  }

  /** The comparison as text, as {@link #report()}. */
  @Override
  public String toString() {
    return report();
  }
}
