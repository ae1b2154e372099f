package dev.interlock.impl.engine;

import dev.interlock.impl.sync.RunAborted;
import dev.interlock.impl.sync.StepGate;
import dev.interlock.model.state.Phase;
import dev.interlock.model.state.Violation;
import dev.interlock.model.step.Step;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A step gate that lets exactly one engine thread move at a time, chosen by the caller: real
 * threads, an exact interleaving.
 *
 * <p>Every thread is always in one of four states: running (granted, until it reaches its next step
 * boundary), at a step (waiting for a grant), blocked (its operation could not proceed; waiting to
 * retry) or done. The scheduler waits until no thread runs, then grants one. A grant ends in a
 * moved step, a block, a failure (the run ends) or the thread finishing; nothing runs unobserved,
 * because blocking primitives report to the gate instead of parking.
 */
public final class ControlledScheduler implements StepGate {
  /** How long a granted thread may take to reach its next boundary before the harness gives up. */
  private static final long STUCK_SECONDS = 30;

  /** What happened to a granted thread. */
  public enum Result {
    MOVED,
    BLOCKED,
    FAILED,
    FINISHED
  }

  private enum State {
    RUNNING,
    AT_STEP,
    BLOCKED,
    DONE
  }

  private static final class Slot {
    final String name;
    State state = State.RUNNING;
    Step step;
    Optional<Phase> phase = Optional.empty();
    boolean granted;
    /** The path a grant chose for the thread's {@code choose} step. */
    Phase path = Phase.THEN;

    Slot(String name) {
      this.name = name;
    }
  }

  private final ReentrantLock lock = new ReentrantLock();
  private final Condition changed = lock.newCondition();
  private final Map<String, Slot> slots = new LinkedHashMap<>();
  private boolean ended;
  private String endReason;
  private Violation failure;

  /**
   * A scheduler for threads with these names ({@link Engine#threadNames}); task threads join when
   * they are spawned ({@link #starting}).
   */
  public ControlledScheduler(List<String> threads) {
    for (String t : threads) {
      slots.put(t, new Slot(t));
    }
  }

  @Override
  public boolean controlled() {
    return true;
  }

  private Slot mine() {
    Slot s = slots.get(Thread.currentThread().getName());
    if (s == null) {
      throw new IllegalStateException("thread " + Thread.currentThread().getName() + " is not scheduled here");
    }
    return s;
  }

  @Override
  public void before(Step step, Optional<Phase> phase) {
    park(State.AT_STEP, step, phase);
  }

  @Override
  public void blocked() {
    lock.lock();
    try {
      Slot s = mine();
      park(State.BLOCKED, s.step, s.phase);
    } finally {
      lock.unlock();
    }
  }

  @Override
  public Phase path() {
    lock.lock();
    try {
      return mine().path;
    } finally {
      lock.unlock();
    }
  }

  private void park(State state, Step step, Optional<Phase> phase) {
    lock.lock();
    try {
      Slot s = mine();
      s.state = state;
      s.step = step;
      s.phase = phase;
      s.granted = false;
      changed.signalAll();
      while (!s.granted && !ended) {
        changed.awaitUninterruptibly();
      }
      if (!s.granted) {
        s.state = State.RUNNING;
        throw new RunAborted(endReason);
      }
      s.granted = false;
      s.state = State.RUNNING;
    } finally {
      lock.unlock();
    }
  }

  /** Adds a slot for a thread that a running thread starts (a task); it counts as running until its first boundary. */
  @Override
  public void starting(String thread) {
    lock.lock();
    try {
      if (slots.containsKey(thread)) {
        throw new IllegalStateException("a thread called " + thread + " is already scheduled here");
      }
      slots.put(thread, new Slot(thread));
      changed.signalAll();
    } finally {
      lock.unlock();
    }
  }

  @Override
  public void failed(Violation v) {
    lock.lock();
    try {
      if (failure == null) {
        failure = v;
      }
      end("run ended: " + mine().name + " failed with " + v.kind());
    } finally {
      lock.unlock();
    }
  }

  @Override
  public void finished() {
    lock.lock();
    try {
      mine().state = State.DONE;
      changed.signalAll();
    } finally {
      lock.unlock();
    }
  }

  // ---- scheduler side ----

  /** Waits until no thread is running, so every thread's position is known. */
  private void awaitQuiescent() {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(STUCK_SECONDS);
    while (slots.values().stream().anyMatch(s -> s.state == State.RUNNING)) {
      long left = deadline - System.nanoTime();
      if (left <= 0) {
        throw new IllegalStateException("a granted thread reached no step boundary in " + STUCK_SECONDS
            + " s: it blocks outside the gate's control (" + describe() + ")");
      }
      try {
        changed.awaitNanos(left);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("scheduler interrupted", e);
      }
    }
  }

  /** Waits until every thread has reached its first step boundary, or finished. */
  public void awaitReady() {
    lock.lock();
    try {
      awaitQuiescent();
    } finally {
      lock.unlock();
    }
  }

  /**
   * Threads that may be granted now: at a step, or blocked (a retry may succeed if something changed).
   * In thread order.
   */
  public List<String> waiting() {
    lock.lock();
    try {
      awaitQuiescent();
      List<String> out = new ArrayList<>();
      for (Slot s : slots.values()) {
        if (s.state == State.AT_STEP || s.state == State.BLOCKED) {
          out.add(s.name);
        }
      }
      return out;
    } finally {
      lock.unlock();
    }
  }

  /** Whether {@code thread} is retrying a blocked operation (as opposed to starting a new step). */
  public boolean isBlocked(String thread) {
    lock.lock();
    try {
      Slot s = slots.get(thread);
      return s != null && s.state == State.BLOCKED;
    } finally {
      lock.unlock();
    }
  }

  /** The step {@code thread} is at (or blocked in), e.g. {@code lock m}; {@link #phaseOf} has its phase. */
  public Step stepOf(String thread) {
    lock.lock();
    try {
      Slot s = slots.get(thread);
      return s == null ? null : s.step;
    } finally {
      lock.unlock();
    }
  }

  /** The phase of the step {@code thread} is at. */
  public Optional<Phase> phaseOf(String thread) {
    lock.lock();
    try {
      Slot s = slots.get(thread);
      return s == null ? Optional.empty() : s.phase;
    } finally {
      lock.unlock();
    }
  }

  /** Lets {@code thread} take its step and waits for what happened; at a {@code choose}, its first path. */
  public Result grant(String thread) {
    return grant(thread, Phase.THEN);
  }

  /**
   * Lets {@code thread} take its step, at a {@code choose} the path {@code path} ({@link Phase#THEN} or
   * {@link Phase#ELSE}), and waits for what happened.
   */
  public Result grant(String thread, Phase path) {
    if (path != Phase.THEN && path != Phase.ELSE) {
      throw new IllegalArgumentException("a choose takes the then or the else path, not " + path);
    }
    lock.lock();
    try {
      awaitQuiescent();
      Slot s = slots.get(thread);
      if (ended) {
        throw new IllegalStateException("the run has ended: " + endReason);
      }
      if (s == null || (s.state != State.AT_STEP && s.state != State.BLOCKED)) {
        throw new IllegalArgumentException(thread + " is not waiting for a grant");
      }
      s.granted = true;
      s.path = path;
      changed.signalAll();
      while (s.granted && !ended) {
        changed.awaitUninterruptibly();
      }
      awaitQuiescent();
      if (failure != null) {
        return Result.FAILED;
      }
      return switch (s.state) {
        case BLOCKED -> Result.BLOCKED;
        case DONE -> Result.FINISHED;
        default -> Result.MOVED;
      };
    } finally {
      lock.unlock();
    }
  }

  /** Ends the run: every waiting thread unwinds with {@link RunAborted}. */
  public void end(String reason) {
    lock.lock();
    try {
      if (!ended) {
        ended = true;
        endReason = reason;
      }
      changed.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /** The first failure reported by a thread, if any. */
  public Optional<Violation> failure() {
    lock.lock();
    try {
      return Optional.ofNullable(failure);
    } finally {
      lock.unlock();
    }
  }

  /** Every thread's position, for reports. */
  public String describe() {
    lock.lock();
    try {
      List<String> parts = new ArrayList<>();
      for (Slot s : slots.values()) {
        parts.add(s.name + " " + s.state.name().toLowerCase(java.util.Locale.ROOT).replace('_', ' ')
            + (s.step == null || s.state == State.DONE ? "" : " '" + s.step.text() + "'" + s.phase.map(p -> " (" + p.label() + ")").orElse("")));
      }
      return String.join("; ", parts);
    } finally {
      lock.unlock();
    }
  }
}
