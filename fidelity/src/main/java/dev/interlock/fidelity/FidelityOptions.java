package dev.interlock.fidelity;

import java.util.Objects;

/**
 * How designs are compared.
 *
 * @param device       the device the designs run on
 * @param runs         free runs of each SAFE design, at least 1
 * @param seed         the first free run's jitter seed; run i (from 0) uses {@code seed + i}
 * @param jitterMicros the most microseconds a free run's thread pauses before a step, 0 or more
 * @param maxStates    the model search's state limit per design, at least 1
 */
public record FidelityOptions(FidelityDevice device, int runs, long seed, int jitterMicros, long maxStates) {
  /** Free runs per SAFE design unless told otherwise. */
  public static final int DEFAULT_RUNS = 20;

  /** The first free run's jitter seed unless told otherwise. */
  public static final long DEFAULT_SEED = 1;

  /** The most microseconds of jitter before a step unless told otherwise. */
  public static final int DEFAULT_JITTER_MICROS = 200;

  /** The model search's state limit unless told otherwise (check's default). */
  public static final long DEFAULT_MAX_STATES = 20_000_000;

  public FidelityOptions {
    Objects.requireNonNull(device, "device");
    if (runs < 1) {
      throw new IllegalArgumentException("runs must be positive, got " + runs);
    }
    if (jitterMicros < 0) {
      throw new IllegalArgumentException("jitterMicros must not be negative, got " + jitterMicros);
    }
    if (maxStates < 1) {
      throw new IllegalArgumentException("maxStates must be positive, got " + maxStates);
    }
  }

  /** The defaults on the simulated device. */
  public static FidelityOptions defaults() {
    return new FidelityOptions(FidelityDevice.SIMULATED, DEFAULT_RUNS, DEFAULT_SEED, DEFAULT_JITTER_MICROS,
        DEFAULT_MAX_STATES);
  }

  /** These options on {@code d}. */
  public FidelityOptions withDevice(FidelityDevice d) {
    return new FidelityOptions(d, runs, seed, jitterMicros, maxStates);
  }

  /** These options with {@code n} free runs per SAFE design. */
  public FidelityOptions withRuns(int n) {
    return new FidelityOptions(device, n, seed, jitterMicros, maxStates);
  }

  /** These options with the first free run's seed {@code s}. */
  public FidelityOptions withSeed(long s) {
    return new FidelityOptions(device, runs, s, jitterMicros, maxStates);
  }

  /** These options with at most {@code us} microseconds of jitter before a step. */
  public FidelityOptions withJitterMicros(int us) {
    return new FidelityOptions(device, runs, seed, us, maxStates);
  }

  /** These options with the model search stopped after {@code n} states. */
  public FidelityOptions withMaxStates(long n) {
    return new FidelityOptions(device, runs, seed, jitterMicros, n);
  }
}
