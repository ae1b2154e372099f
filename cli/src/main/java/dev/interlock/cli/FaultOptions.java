package dev.interlock.cli;

import dev.interlock.impl.engine.RetryPolicy;
import dev.interlock.impl.fault.FaultSpec;
import dev.interlock.impl.fault.FaultSpecException;
import dev.interlock.impl.fault.Faults;
import picocli.CommandLine.Option;

/**
 * The fault-injection options of {@code run} and {@code prove} (docs/faults.md): {@code --faults}, {@code --fault-seed},
 * {@code --retries}, {@code --retry-real}, {@code --backoff}.
 *
 * <p>Why one mixin: both commands inject and retry the same way, and check the options the same way before any work.
 */
final class FaultOptions {
  @Option(names = "--faults", paramLabel = "SPEC", description = "Inject faults: comma-separated KIND=RATE (probability per call) "
      + "and KIND@STEP:N (the Nth execution of step STEP); kinds alloc, kernel, stall, poison, interrupt, exception "
      + "(docs/faults.md). Runs with injected faults do not replay on the model.")
  String spec;

  @Option(names = "--fault-seed", paramLabel = "S", description = "Seed of the injected faults (default: from the clock, printed).")
  Long seed;

  @Option(names = "--stall", paramLabel = "MS", description = "How long a stall delays a kernel's completion, in ms (default: 2).")
  double stallMillis = Faults.DEFAULT_STALL_NANOS / 1e6;

  @Option(names = "--retries", paramLabel = "N", description = "Run a job (a partition) again, up to N times, after an injected "
      + "fault of any kind (default: 0). A real failure is the design's and is not retried unless --retry-real.")
  int retries;

  @Option(names = "--retry-real", description = "Retry real failures too (a real out-of-memory, say): this hides what the design does.")
  boolean retryReal;

  @Option(names = "--backoff", paramLabel = "MS", description = "Wait before a job's first retry, doubling with each further one (default: 1).")
  long backoffMillis = 1;

  /** The injector, or none when --faults is not given; bad options are errors with exit 2. */
  Faults faults() {
    if (spec == null) {
      if (seed != null) {
        throw new CliError("--fault-seed needs --faults");
      }
      return Faults.NONE;
    }
    if (!(stallMillis >= 0)) {
      throw new CliError("--stall must be 0 or more ms, got " + stallMillis);
    }
    FaultSpec parsed;
    try {
      parsed = FaultSpec.parse("--faults", spec);
    } catch (FaultSpecException e) {
      throw new CliError(e.getMessage());
    }
    return new Faults(parsed, seed != null ? seed : System.currentTimeMillis(), (long) (stallMillis * 1e6));
  }

  /** The retry policy; bad options are errors with exit 2. */
  RetryPolicy retry() {
    if (retries < 0) {
      throw new CliError("--retries must be 0 or more, got " + retries);
    }
    if (backoffMillis < 0) {
      throw new CliError("--backoff must be 0 or more ms, got " + backoffMillis);
    }
    if (retryReal && retries == 0) {
      throw new CliError("--retry-real needs --retries N");
    }
    return new RetryPolicy(retries, backoffMillis, retryReal);
  }
}
