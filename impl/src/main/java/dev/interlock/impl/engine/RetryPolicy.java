package dev.interlock.impl.engine;

/**
 * Which failed jobs the engine runs again, how often, and how long it waits first.
 *
 * <p>Why: a job hit by an injected fault is retried so that a run under faults loses nothing; a real failure (a real
 * OOM is the design's) is retried only with {@code retryReal}, since retrying would hide what Interlock exists to find.
 *
 * @param retries       how many times a job may run again after its first attempt (0: never)
 * @param backoffMillis the wait before the first retry; it doubles with each further retry of the job (up to 2^10 times)
 * @param retryReal     whether real failures ({@link JobResult.Failed}) are retried too
 */
public record RetryPolicy(int retries, long backoffMillis, boolean retryReal) {
  /** No retries. */
  public static final RetryPolicy NONE = new RetryPolicy(0, 0, false);

  public RetryPolicy {
    if (retries < 0) {
      throw new IllegalArgumentException("retries must be 0 or more, got " + retries);
    }
    if (backoffMillis < 0) {
      throw new IllegalArgumentException("backoff must be 0 or more ms, got " + backoffMillis);
    }
  }

  /** Whether a job that ended with {@code r} after {@code attempt} retries runs again. */
  public boolean retries(JobResult r, int attempt) {
    if (attempt >= retries) {
      return false;
    }
    return r instanceof JobResult.Faulted || retryReal && r instanceof JobResult.Failed;
  }

  /** The wait in ms before retry number {@code attempt} (1-based) of a job. */
  public long backoff(int attempt) {
    return backoffMillis << Math.min(Math.max(attempt - 1, 0), 10);
  }
}
