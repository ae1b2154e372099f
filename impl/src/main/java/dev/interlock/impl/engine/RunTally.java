package dev.interlock.impl.engine;

import dev.interlock.model.state.Violation;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What a run counted as it went: transitions, each job's last result by kind and role, the retried attempts, the
 * ignored allocation failures and kernels run without their buffers, and the first few of each kind of failure.
 *
 * <p>Why: it is the one place a run's printed figures come from, whether the run kept its events and results
 * ({@link Retention#ALL}) or only this ({@link Retention#COUNTS}). Its memory does not grow with the run's length but
 * for two bits per job id (which jobs got a result, which were retried: 250 KB for 10^6 jobs). Thread-safe.
 */
public final class RunTally {
  /** How many failures of each kind are kept as examples: those of the lowest job ids (ignored failures: the first). */
  public static final int EXAMPLES = 20;

  /** A role's jobs by their last result. */
  public record Counts(long completed, long failed, long aborted, long faulted, long swallowed) {
    /** Jobs with a result. */
    public long total() {
      return completed + failed + aborted + faulted + swallowed;
    }
  }

  private static final int COMPLETED = 0;
  private static final int FAILED = 1;
  private static final int ABORTED = 2;
  private static final int FAULTED = 3;
  private static final int SWALLOWED = 4;

  /**
   * How many results an example map keeps beyond {@link #EXAMPLES}: each worker may have one result recorded that is
   * taken back later for a retry, and one of those may have pushed out a result that stays.
   */
  private final int slack;
  private final Map<String, long[]> byRole = new LinkedHashMap<>();
  private final BitSet withResult = new BitSet();
  private final BitSet retriedJobs = new BitSet();
  private long completedAfterRetries;
  private long retries;
  private long retriesInjected;
  private long retriesReal;
  private final TreeMap<Integer, JobResult.Failed> failed = new TreeMap<>();
  private final TreeMap<Integer, JobResult.Faulted> faulted = new TreeMap<>();
  private long transitions;
  private long swallowedCount;
  private final List<Violation> swallowed = new ArrayList<>();
  private long withoutBuffersCount;
  private final List<MissingUse> withoutBuffers = new ArrayList<>();

  /** A tally for a run of {@code workers} role threads (the most results that can be taken back at once). */
  public RunTally(int workers) {
    if (workers < 0) {
      throw new IllegalArgumentException("workers must be 0 or more, got " + workers);
    }
    this.slack = workers;
  }

  /**
   * The tally of a run given by its lists: {@code retried} (each taken back before the job's next result), then
   * {@code results}; every transition counted and every ignored failure and kernel without buffers noted.
   */
  public static RunTally of(List<JobResult> results, List<JobResult> retried, long transitions, List<Violation> swallowed,
      List<MissingUse> withoutBuffers) {
    RunTally t = new RunTally(1); // each retried attempt is taken back at once
    for (JobResult r : retried) {
      t.ended(r);
      t.retried(r);
    }
    results.forEach(t::ended);
    synchronized (t) {
      t.transitions = transitions;
    }
    swallowed.forEach(t::swallowed);
    withoutBuffers.forEach(t::ranWithout);
    return t;
  }

  private static int kind(JobResult r) {
    if (r instanceof JobResult.Completed) {
      return COMPLETED;
    }
    if (r instanceof JobResult.Failed) {
      return FAILED;
    }
    if (r instanceof JobResult.Faulted) {
      return FAULTED;
    }
    if (r instanceof JobResult.Swallowed) {
      return SWALLOWED;
    }
    return ABORTED;
  }

  /** Counts {@code r} as its job's result (for now: {@link #retried} takes it back). */
  synchronized void ended(JobResult r) {
    int id = r.job().id();
    byRole.computeIfAbsent(r.job().role(), k -> new long[5])[kind(r)]++;
    withResult.set(id);
    if (r instanceof JobResult.Completed && retriedJobs.get(id)) {
      completedAfterRetries++;
    }
    if (r instanceof JobResult.Failed f) {
      keep(failed, id, f);
    } else if (r instanceof JobResult.Faulted f) {
      keep(faulted, id, f);
    }
  }

  private <R extends JobResult> void keep(TreeMap<Integer, R> examples, int id, R r) {
    examples.put(id, r);
    if (examples.size() > EXAMPLES + slack) {
      examples.pollLastEntry();
    }
  }

  /** Takes back {@code r}, counted by {@link #ended}: an attempt that is retried, not its job's result. */
  synchronized void retried(JobResult r) {
    int id = r.job().id();
    byRole.get(r.job().role())[kind(r)]--;
    withResult.clear(id);
    if (r instanceof JobResult.Completed && retriedJobs.get(id)) {
      completedAfterRetries--;
    }
    failed.remove(id, r);
    faulted.remove(id, r);
    retriedJobs.set(id);
    retries++;
    if (r instanceof JobResult.Faulted) {
      retriesInjected++;
    } else if (r instanceof JobResult.Failed) {
      retriesReal++;
    }
  }

  /** Counts a recorded transition. */
  synchronized void transition() {
    transitions++;
  }

  /** Counts an allocation failure the design ignored. */
  synchronized void swallowed(Violation v) {
    if (swallowedCount++ < EXAMPLES) {
      swallowed.add(v);
    }
  }

  /** Counts a kernel that ran without a buffer whose allocation failed and was ignored. */
  synchronized void ranWithout(MissingUse m) {
    if (withoutBuffersCount++ < EXAMPLES) {
      withoutBuffers.add(m);
    }
  }

  /** Transitions recorded. */
  public synchronized long transitions() {
    return transitions;
  }

  /** The jobs of {@code role} by their last result (all 0 for a role none of whose jobs ended). */
  public synchronized Counts role(String role) {
    long[] c = byRole.getOrDefault(role, new long[5]);
    return new Counts(c[COMPLETED], c[FAILED], c[ABORTED], c[FAULTED], c[SWALLOWED]);
  }

  /** Every job by its last result. */
  public synchronized Counts jobs() {
    long[] sum = new long[5];
    for (long[] c : byRole.values()) {
      for (int i = 0; i < sum.length; i++) {
        sum[i] += c[i];
      }
    }
    return new Counts(sum[COMPLETED], sum[FAILED], sum[ABORTED], sum[FAULTED], sum[SWALLOWED]);
  }

  /** Distinct jobs with a result: the run's jobs unless one was lost. */
  public synchronized long jobsWithResult() {
    return withResult.cardinality();
  }

  /** Attempts run again, all causes. */
  public synchronized long retries() {
    return retries;
  }

  /** Attempts run again after an injected fault ({@link JobResult.Faulted}). */
  public synchronized long retriesAfterInjected() {
    return retriesInjected;
  }

  /** Attempts run again after a real failure ({@link JobResult.Failed}, with {@code retryReal}). */
  public synchronized long retriesAfterReal() {
    return retriesReal;
  }

  /** Distinct jobs run more than once. */
  public synchronized long jobsRetried() {
    return retriedJobs.cardinality();
  }

  /** Jobs that completed after at least one retry. */
  public synchronized long completedAfterRetries() {
    return completedAfterRetries;
  }

  /** The real failures of the lowest job ids, at most {@link #EXAMPLES}, by job id. */
  public synchronized List<JobResult.Failed> failedExamples() {
    return first(failed);
  }

  /** The jobs an injected fault ended, of the lowest job ids, at most {@link #EXAMPLES}, by job id. */
  public synchronized List<JobResult.Faulted> faultedExamples() {
    return first(faulted);
  }

  private static <R> List<R> first(TreeMap<Integer, R> examples) {
    return examples.values().stream().limit(EXAMPLES).toList();
  }

  /** Allocation failures the design ignored ({@code on oom ignore}). */
  public synchronized long swallowedCount() {
    return swallowedCount;
  }

  /** The first {@link #EXAMPLES} allocation failures the design ignored, in order. */
  public synchronized List<Violation> swallowedExamples() {
    return List.copyOf(swallowed);
  }

  /** Kernels that ran without a buffer whose allocation failed and was ignored. */
  public synchronized long withoutBuffersCount() {
    return withoutBuffersCount;
  }

  /** The first {@link #EXAMPLES} kernels that ran without such a buffer, in order. */
  public synchronized List<MissingUse> withoutBuffersExamples() {
    return List.copyOf(withoutBuffers);
  }
}
