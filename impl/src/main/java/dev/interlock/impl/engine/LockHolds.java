package dev.interlock.impl.engine;

import dev.interlock.model.step.Acquire;
import dev.interlock.model.step.Alloc;
import dev.interlock.model.step.Cpu;
import dev.interlock.model.step.Wait;
import dev.interlock.model.step.Signal;
import dev.interlock.model.step.Join;
import dev.interlock.model.step.Spawn;
import dev.interlock.model.step.IfFree;
import dev.interlock.model.step.SyncStream;
import dev.interlock.model.step.Free;
import dev.interlock.model.step.Kernel;
import dev.interlock.model.step.Lock;
import dev.interlock.model.step.Release;
import dev.interlock.model.step.Step;
import dev.interlock.model.step.Sync;
import dev.interlock.model.step.Trim;
import dev.interlock.model.step.Unlock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * How long a run's threads held each mutex and semaphore, and how long they waited for it, from the run's events.
 *
 * <p>Why: a design that serializes the GPU section shows as one lock held for most of each partition while the
 * other workers wait; these figures say so without a timeline. A hold runs while the thread holds the lock: from the
 * step that takes its first permit ({@code lock M}, {@code acquire S n}) to the one that gives back its last
 * ({@code unlock M}, {@code release S n}), as the model counts a thread's permits, so {@code acquire s 1; acquire s 1;
 * release s 2} is one hold. Every taking step has a wait before it, from the thread's previous event to the taking one (the engine records a lock when it is taken, so that gap is the time spent blocked plus
 * the engine's own step overhead). Failed events take and give back nothing; a hold the log does not close is left
 * out.
 */
public final class LockHolds {
  /** One lock's holds and waits in milliseconds, in the order they ended (holds) or began (waits). */
  public record Figures(String lock, List<Double> heldMillis, List<Double> waitedMillis) {
    public Figures {
      Objects.requireNonNull(lock, "lock");
      heldMillis = List.copyOf(heldMillis);
      waitedMillis = List.copyOf(waitedMillis);
    }

    /** The median hold in milliseconds (0 when none ended). */
    public double medianHeld() {
      return median(heldMillis);
    }

    /** The median wait in milliseconds (0 when none). */
    public double medianWaited() {
      return median(waitedMillis);
    }
  }

  /** Whether an interval is a hold of the lock or the wait before taking it. */
  public enum Kind {
    HOLD,
    WAIT
  }

  /**
   * One hold or wait of {@code lock} by {@code thread}, from {@code startNanos} to {@code endNanos} on the run's clock
   * (as {@link Event#nanos()}): what the figures and a timeline's lock tracks are made of.
   */
  public record Interval(String lock, String thread, Kind kind, long startNanos, long endNanos) {
    public Interval {
      Objects.requireNonNull(lock, "lock");
      Objects.requireNonNull(thread, "thread");
      Objects.requireNonNull(kind, "kind");
      if (endNanos < startNanos) {
        throw new IllegalArgumentException("an interval ends before it starts: " + startNanos + " to " + endNanos);
      }
    }

    /** Its length in milliseconds. */
    public double millis() {
      return (endNanos - startNanos) / 1e6;
    }
  }

  private LockHolds() {}

  /**
   * Every wait and every closed hold of the run, in the order they ended (a wait ends where its hold starts, so it
   * comes before that hold).
   */
  public static List<Interval> intervals(List<Event> events) {
    List<Interval> out = new ArrayList<>();
    Map<String, Long> lastEvent = new HashMap<>();
    Map<List<String>, Long> takenAt = new HashMap<>();
    Map<List<String>, Integer> held = new HashMap<>();
    for (Event e : events) {
      Optional<Use> use = e.failure().isEmpty() ? e.step().accept(USE) : Optional.empty();
      if (use.isPresent()) {
        String name = use.get().lock();
        List<String> key = List.of(e.thread(), name);
        int before = held.getOrDefault(key, 0);
        int after = Math.max(0, before + use.get().permits());
        held.put(key, after);
        if (use.get().permits() > 0) {
          Long previous = lastEvent.get(e.thread());
          out.add(new Interval(name, e.thread(), Kind.WAIT, previous == null ? e.nanos() : previous, e.nanos()));
          if (before == 0) {
            takenAt.put(key, e.nanos());
          }
        } else if (after == 0) {
          Long at = takenAt.remove(key);
          if (at != null) {
            out.add(new Interval(name, e.thread(), Kind.HOLD, at, e.nanos()));
          }
        }
      }
      lastEvent.put(e.thread(), e.nanos());
    }
    return out;
  }

  /** Per lock name, in the order the locks were first taken: the figures of {@link #intervals}. */
  public static Map<String, Figures> of(List<Event> events) {
    Map<String, List<Double>> held = new LinkedHashMap<>();
    Map<String, List<Double>> waited = new LinkedHashMap<>();
    for (Interval i : intervals(events)) {
      held.computeIfAbsent(i.lock(), k -> new ArrayList<>()); // every taken lock has a wait first
      (i.kind() == Kind.HOLD ? held : waited).computeIfAbsent(i.lock(), k -> new ArrayList<>()).add(i.millis());
    }
    Map<String, Figures> out = new LinkedHashMap<>();
    held.forEach((name, h) -> out.put(name, new Figures(name, h, waited.getOrDefault(name, List.of()))));
    return out;
  }

  /** A step's use of a mutex or semaphore: it takes {@code lock}, or gives it back. */
  /** A step's use of a lock: the permits it takes (positive) or gives back (negative); a mutex is one permit. */
  private record Use(String lock, int permits) {}

  /** What a step does to a lock, if anything. */
  private static final Step.Visitor<Optional<Use>> USE = new Step.Visitor<>() {
    @Override
    public Optional<Use> lock(Lock s) {
      return Optional.of(new Use(s.mutex(), 1));
    }

    @Override
    public Optional<Use> unlock(Unlock s) {
      return Optional.of(new Use(s.mutex(), -1));
    }

    @Override
    public Optional<Use> acquire(Acquire s) {
      return Optional.of(new Use(s.semaphore(), s.permits()));
    }

    @Override
    public Optional<Use> release(Release s) {
      return Optional.of(new Use(s.semaphore(), -s.permits()));
    }

    @Override
    public Optional<Use> alloc(Alloc s) {
      return Optional.empty();
    }

    @Override
    public Optional<Use> free(Free s) {
      return Optional.empty();
    }

    @Override
    public Optional<Use> trim(Trim s) {
      return Optional.empty();
    }

    @Override
    public Optional<Use> sync(Sync s) {
      return Optional.empty();
    }

    @Override
    public Optional<Use> kernel(Kernel s) {
      return Optional.empty();
    }

    @Override
    public Optional<Use> cpu(Cpu s) {
      return Optional.empty();
    }

    @Override
    public Optional<Use> syncStream(SyncStream s) {
      return Optional.empty();
    }

    @Override
    public Optional<Use> ifFree(IfFree s) {
      return Optional.empty();
    }

    @Override
    public Optional<Use> choose(dev.interlock.model.step.Choose s) {
      return Optional.empty();
    }

    @Override
    public Optional<Use> spawn(Spawn s) {
      return Optional.empty();
    }

    @Override
    public Optional<Use> join(Join s) {
      return Optional.empty();
    }

    @Override
    public Optional<Use> signal(Signal s) {
      return Optional.empty();
    }

    @Override
    public Optional<Use> await(Wait s) {
      return Optional.empty();
    }
  };

  private static double median(List<Double> values) {
    if (values.isEmpty()) {
      return 0;
    }
    List<Double> sorted = new ArrayList<>(values);
    sorted.sort(null);
    return sorted.get(sorted.size() / 2);
  }
}
