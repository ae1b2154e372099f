package dev.interlock.impl.engine;

import dev.interlock.impl.api.MemoryInfo;
import dev.interlock.model.design.Design;
import dev.interlock.model.state.Phase;
import dev.interlock.model.state.Violation;
import dev.interlock.model.step.Kernel;
import dev.interlock.model.step.Step;
import dev.interlock.model.trace.Outcome;
import dev.interlock.model.trace.Parameters;
import dev.interlock.model.trace.Trace;
import dev.interlock.model.trace.TraceStep;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Records every transition of a run, in order. Cheap enough to stay on in production: one short
 * uncontended critical section per step.
 *
 * <p>Besides the events it keeps the first violation (a failed step, a leak at job end, or a
 * deadlock found by the watchdog or scheduler), which ends the run's trace. With {@link Retention#COUNTS} it keeps
 * no event, only counts them (and notes the rest) in its {@link RunTally}.
 */
public final class EventLog {
  private final List<Event> events = new ArrayList<>();
  private final boolean keep;
  private final RunTally tally;
  /** Transitions recorded: the last one's {@link Event#seq()}. */
  private long recorded;
  private final long start = System.nanoTime();
  private Violation firstViolation;
  private long stepsAtViolation;
  /** The ignored allocation failures ({@code on oom ignore}) and the kernels that ran without a missing buffer. */
  private final List<Violation> swallowed = new ArrayList<>();
  private final List<MissingUse> missingUses = new ArrayList<>();
  /** Per thread, the kernels whose begin is recorded and whose end is not (the model's kernels in flight). */
  private final Map<String, Integer> kernelsInFlight = new HashMap<>();

  /** A log that keeps every event, with a tally of its own. */
  public EventLog() {
    this(Retention.ALL, new RunTally(0));
  }

  /** A log that keeps what {@code retention} says and counts every transition and note in {@code tally}. */
  public EventLog(Retention retention, RunTally tally) {
    this.keep = retention == Retention.ALL;
    this.tally = tally;
  }

  /** Where this log counts. */
  public RunTally tally() {
    return tally;
  }

  /**
   * Records a transition that succeeded; {@code after} is read inside the log's monitor, so the
   * device bytes agree with every event recorded before and after this one.
   */
  public synchronized void record(String thread, int job, Step step, Optional<Phase> phase, Supplier<MemoryInfo> after) {
    record(thread, job, step, phase, Optional.empty(), after);
  }

  /**
   * Records a transition that succeeded, with the free bytes an {@code if free} step read ({@code phase}: the
   * branch it took); as {@link #record(String, int, Step, Optional, Supplier)} otherwise.
   */
  public synchronized void record(String thread, int job, Step step, Optional<Phase> phase, Optional<Long> free,
      Supplier<MemoryInfo> after) {
    recorded++;
    tally.transition();
    if (keep) {
      MemoryInfo m = after.get();
      events.add(new Event(recorded, thread, job, step, phase, m.used(), m.cached(), System.nanoTime() - start,
          Optional.empty(), free));
    }
    if (step instanceof Kernel && phase.isPresent()) {
      kernelsInFlight.merge(thread, phase.get() == Phase.BEGIN ? 1 : -1, Integer::sum);
      kernelsInFlight.remove(thread, 0);
      if (kernelsInFlight.isEmpty()) {
        notifyAll();
      }
    }
  }

  /**
   * Forgets the kernels in flight of a thread that records no more (its job failed or its run was
   * aborted): their ends will never be recorded, and {@link #awaitNoKernelInFlight} must not wait for them.
   */
  public synchronized void abandon(String thread) {
    if (kernelsInFlight.remove(thread) != null && kernelsInFlight.isEmpty()) {
      notifyAll();
    }
  }

  /**
   * Waits, inside the log's monitor, until no recorded kernel is in flight, so that the caller's next
   * transition, recorded before it leaves the monitor, comes where the model allows a device-wide
   * synchronization. The caller must hold the monitor.
   */
  public void awaitNoKernelInFlight() throws InterruptedException {
    assert Thread.holdsLock(this);
    while (!kernelsInFlight.isEmpty()) {
      wait();
    }
  }

  /** Records a transition that failed with {@code v}; the device is as {@code at} shows. */
  public synchronized void recordFailure(String thread, int job, Step step, Optional<Phase> phase, MemoryInfo at, Violation v) {
    recorded++;
    tally.transition();
    if (keep) {
      events.add(new Event(recorded, thread, job, step, phase, at.used(), at.cached(), System.nanoTime() - start,
          Optional.of(v)));
    }
    noteViolation(v);
  }

  /**
   * Notes that the transition just recorded was an allocation whose failure the design ignores: the violation
   * {@code v} ({@code SWALLOWED_OOM}), which ends the run's trace at that transition when it is the first, while the
   * job goes on. Call it in the same monitor hold as the {@link #record} of that transition.
   */
  public synchronized void recordSwallowed(Violation v) {
    tally.swallowed(v);
    if (keep) {
      swallowed.add(v);
    }
    noteViolation(v);
  }

  /**
   * Notes that the transition just recorded, a kernel's begin by {@code thread} in {@code job}, launched it without
   * the missing {@code buffers}; returns the note. Call it in the same monitor hold as the {@link #record} of it.
   */
  public synchronized MissingUse recordMissingUse(String thread, int job, Step step, List<String> buffers) {
    MissingUse m = new MissingUse(recorded, thread, job, step.text(), buffers);
    tally.ranWithout(m);
    if (keep) {
      missingUses.add(m);
    }
    return m;
  }

  /** The ignored allocation failures so far, in order (none kept with {@link Retention#COUNTS}). */
  public synchronized List<Violation> swallowed() {
    return List.copyOf(swallowed);
  }

  /** The kernels launched without a missing buffer so far, in order (none kept with {@link Retention#COUNTS}). */
  public synchronized List<MissingUse> missingUses() {
    return List.copyOf(missingUses);
  }

  /** Records a violation that is not a step of its own (a leak at job end, a deadlock). */
  public synchronized void recordViolation(Violation v) {
    noteViolation(v);
  }

  private void noteViolation(Violation v) {
    if (firstViolation == null) {
      firstViolation = v;
      stepsAtViolation = recorded;
    }
  }

  /** The run clock's zero: the {@link System#nanoTime()} that {@link Event#nanos()} counts from. */
  public long start() {
    return start;
  }

  /** The events so far, in order (none with {@link Retention#COUNTS}). */
  public synchronized List<Event> events() {
    return List.copyOf(events);
  }

  /** Whether this log keeps its events ({@link Retention#ALL}). */
  public boolean keepsEvents() {
    return keep;
  }

  public synchronized Optional<Violation> firstViolation() {
    return Optional.ofNullable(firstViolation);
  }

  /** Transitions recorded so far, kept or not. */
  public synchronized int size() {
    return Math.toIntExact(recorded);
  }

  /**
   * The run as a model trace: every transition up to the first violation, ending in it; or all
   * transitions ending in COMPLETED. With {@link Retention#COUNTS} only the outcome: no steps.
   */
  public synchronized Trace trace(Design design, String source) {
    int n = !keep ? 0 : firstViolation == null ? events.size() : Math.toIntExact(stepsAtViolation);
    List<TraceStep> steps = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      Event e = events.get(i);
      steps.add(new TraceStep(i + 1, e.thread(), e.step(), e.phase(), e.used(), e.cached(), e.free()));
    }
    Outcome o = firstViolation == null ? new Outcome.Completed() : new Outcome.Violated(firstViolation);
    return new Trace(design.name(), source, Parameters.of(design), Optional.empty(), o, steps);
  }
}
