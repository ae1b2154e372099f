package dev.interlock.model.sim;

import dev.interlock.model.state.ViolationKind;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * One simulated run of a design: its times in seconds of simulated time.
 *
 * @param seed           the run's seed (the order of simultaneous steps, sampled times, choices)
 * @param seconds        when the last step ended (the makespan), or when the run stopped at its violation or deadlock
 * @param jobs           role jobs completed (each role thread's body run to its end)
 * @param jobSeconds     each completed job's latency: from the end of the thread's previous job (or the start) to the
 *                       end of this one, in completion order
 * @param gpuBusySeconds time in which at least one kernel ran
 * @param holdSeconds    per mutex, each hold's time, from its lock to its unlock
 * @param waitSeconds    per mutex, each lock's wait, from the first attempt that found it held (0 when it was free)
 * @param peakUsedBytes  the most device bytes in use (live plus the pool's cached bytes), device buffers included
 * @param peakLiveBytes  the most bytes in live buffers
 * @param stop           the violation or deadlock the run stopped at, if it did: then nothing after it is counted
 */
public record SimRun(long seed, double seconds, int jobs, List<Double> jobSeconds, double gpuBusySeconds,
    Map<String, List<Double>> holdSeconds, Map<String, List<Double>> waitSeconds, long peakUsedBytes,
    long peakLiveBytes, Optional<Stop> stop) {
  public SimRun {
    jobSeconds = List.copyOf(jobSeconds);
    holdSeconds = Map.copyOf(holdSeconds);
    waitSeconds = Map.copyOf(waitSeconds);
    Objects.requireNonNull(stop, "stop");
    if (seconds < 0 || jobs < 0 || jobSeconds.size() != jobs || gpuBusySeconds < 0 || gpuBusySeconds > seconds + 1e-9) {
      throw new IllegalArgumentException("inconsistent run: " + seconds + " s, " + jobs + " jobs, " + jobSeconds.size()
          + " latencies, GPU busy " + gpuBusySeconds + " s");
    }
  }

  /**
   * Where a run stopped before its end.
   *
   * @param kind    the violation, or DEADLOCK when no thread could move
   * @param seconds the simulated time it happened at
   * @param thread  the thread whose step it was (for a deadlock, the first thread left waiting)
   * @param message what happened, in the model's words
   */
  public record Stop(ViolationKind kind, double seconds, String thread, String message) {
    public Stop {
      Objects.requireNonNull(kind, "kind");
      Objects.requireNonNull(thread, "thread");
      Objects.requireNonNull(message, "message");
    }
  }

  /** Jobs completed per minute of simulated time; 0 for a run that stopped (its throughput past the stop is not one). */
  public double jobsPerMinute() {
    return stop.isPresent() || seconds == 0 ? 0 : jobs / seconds * 60;
  }
}
