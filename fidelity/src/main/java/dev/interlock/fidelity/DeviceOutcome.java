package dev.interlock.fidelity;

import dev.interlock.impl.api.DriverError;
import dev.interlock.model.state.ViolationKind;
import java.util.Objects;
import java.util.Optional;

/** What the device did with a design: the device's side of a comparison. */
public sealed interface DeviceOutcome permits DeviceOutcome.Replayed, DeviceOutcome.Diverged,
    DeviceOutcome.RunsComplete, DeviceOutcome.RunFailed, DeviceOutcome.NotCompared {

  /** As a report shows it, e.g. {@code OOM at 9 (CUDA_ERROR_OUT_OF_MEMORY)} or {@code 20/20 runs complete, ...}. */
  String text();

  /**
   * The counterexample replayed on the device to the same outcome at the same transition, with the same device bytes
   * after every transition.
   *
   * @param kind        the violation it ended in
   * @param length      its transitions
   * @param driverError the driver's error of the failed job, where the device's driver reported one
   */
  record Replayed(ViolationKind kind, int length, Optional<DriverError> driverError) implements DeviceOutcome {
    public Replayed {
      Objects.requireNonNull(kind, "kind");
      Objects.requireNonNull(driverError, "driverError");
      if (length < 0) {
        throw new IllegalArgumentException("negative length " + length);
      }
    }

    @Override
    public String text() {
      return kind.name() + " at " + length + driverError.map(d -> " (" + d.name() + ")").orElse("");
    }
  }

  /**
   * The replay left the counterexample.
   *
   * @param index  the transition where it left (as the replay counts)
   * @param reason why
   */
  record Diverged(int index, String reason) implements DeviceOutcome {
    public Diverged {
      Objects.requireNonNull(reason, "reason");
    }

    @Override
    public String text() {
      return "diverges at " + index + ": " + reason;
    }
  }

  /**
   * Every free run completed every job, without a deadlock and with nothing live at shutdown.
   *
   * @param runs the free runs, at least 1
   */
  record RunsComplete(int runs) implements DeviceOutcome {
    public RunsComplete {
      if (runs < 1) {
        throw new IllegalArgumentException("runs must be positive, got " + runs);
      }
    }

    @Override
    public String text() {
      return runs + "/" + runs + " runs complete, nothing live";
    }
  }

  /**
   * A free run went wrong; the runs after it were not made.
   *
   * @param run     which run, from 1
   * @param seed    its jitter seed
   * @param problem what went wrong: a deadlock, a failed or aborted job, buffers live at shutdown
   */
  record RunFailed(int run, long seed, String problem) implements DeviceOutcome {
    public RunFailed {
      Objects.requireNonNull(problem, "problem");
      if (run < 1) {
        throw new IllegalArgumentException("runs count from 1, got " + run);
      }
    }

    @Override
    public String text() {
      return "run " + run + " (seed " + seed + "): " + problem;
    }
  }

  /** Nothing ran: the model has no verdict to compare with (LIMIT or UNKNOWN). */
  record NotCompared() implements DeviceOutcome {
    @Override
    public String text() {
      return "not compared: the model has no verdict";
    }
  }
}
