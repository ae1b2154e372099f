package dev.interlock.impl.engine;

import dev.interlock.impl.api.Device;
import dev.interlock.impl.api.Pipeline;
import dev.interlock.model.check.Schedules;
import dev.interlock.model.design.Design;
import dev.interlock.model.design.Role;
import dev.interlock.model.state.Phase;
import dev.interlock.model.state.Violation;
import dev.interlock.model.state.ViolationKind;
import dev.interlock.model.step.Choose;
import dev.interlock.model.step.Alloc;
import dev.interlock.model.step.IfFree;
import dev.interlock.model.step.Step;
import dev.interlock.model.step.Steps;
import dev.interlock.model.trace.Outcome;
import dev.interlock.model.trace.ReplayResult;
import dev.interlock.model.trace.Trace;
import dev.interlock.model.trace.TraceStep;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/** Runs the engine under a {@link ControlledScheduler}: replaying a trace, or a seeded random schedule. */
public final class Scheduled {
  private Scheduled() {}

  /** A replay on the engine: the verdict and the engine's own report of the run. */
  public record Replay(ReplayResult result, RunReport report) {
    public Replay {
      Objects.requireNonNull(result, "result");
      Objects.requireNonNull(report, "report");
    }
  }

  /**
   * Replays {@code trace}'s interleaving on real threads: grants each transition's thread in
   * order, then compares the engine's trace with the recorded one transition by transition.
   */
  public static Replay replay(Design design, String source, Trace trace, Device device, Function<Role, Pipeline> pipelines) {
    ControlledScheduler sched = new ControlledScheduler(Engine.threadNames(design));
    Engine.Run run = new Engine(device, sched).start(design, source, pipelines);
    ReplayResult control = drive(sched, run, trace);
    sched.end("replay finished");
    RunReport report = run.await();
    if (control instanceof ReplayResult.Diverged) {
      return new Replay(control, report);
    }
    return new Replay(compare(trace, report.trace(), device.figureTolerance()), report);
  }

  private static ReplayResult drive(ControlledScheduler sched, Engine.Run run, Trace trace) {
    sched.awaitReady();
    for (TraceStep ts : trace.steps()) {
      int i = ts.index();
      if (!sched.waiting().contains(ts.thread())) {
        return new ReplayResult.Diverged(i, ts.thread() + " is not waiting to take a step (" + sched.describe() + ")");
      }
      Step at = sched.stepOf(ts.thread());
      if (!samePosition(ts, at, sched.phaseOf(ts.thread()))) {
        return new ReplayResult.Diverged(i, ts.thread() + " is at '" + at.text() + "'" + sched.phaseOf(ts.thread()).map(p -> " (" + p.label() + ")").orElse("")
            + ", the trace has '" + ts.step().text() + "'" + ts.phase().map(p -> " (" + p.label() + ")").orElse(""));
      }
      ControlledScheduler.Result r = sched.grant(ts.thread(), at instanceof Choose && ts.phase().equals(Optional.of(Phase.ELSE))
          ? Phase.ELSE : Phase.THEN);
      switch (r) {
        case BLOCKED:
          return new ReplayResult.Diverged(i, ts.thread() + " blocks at '" + ts.step().text() + "' on the engine");
        case FAILED:
          if (i != trace.length()) {
            return new ReplayResult.Diverged(i, "the engine fails here with " + sched.failure().orElseThrow().kind() + ", the trace goes on");
          }
          return new ReplayResult.Confirmed(i, trace.outcome());
        default:
          break;
      }
    }
    if (trace.outcome() instanceof Outcome.Violated v && v.violation().kind() == ViolationKind.DEADLOCK) {
      for (String t : sched.waiting()) {
        if (sched.grant(t) != ControlledScheduler.Result.BLOCKED) {
          return new ReplayResult.Diverged(trace.length() + 1, t + " can still move on the engine: no deadlock");
        }
      }
      run.log().recordViolation(v.violation());
    }
    return new ReplayResult.Confirmed(trace.length(), trace.outcome());
  }

  /**
   * Whether a thread waiting at step {@code at} (phase {@code phase} at the gate) is where trace step
   * {@code ts} has it: the same step and phase. An {@code if free} or {@code choose} step is compared by its first
   * line, which is all a trace holds of it, and its branch only once it has read the device or been granted a path;
   * likewise an alloc with {@code on oom} by its alloc line ({@link Steps#header}), and whether it failed (phase oom)
   * once it has run.
   */
  private static boolean samePosition(TraceStep ts, Step at, Optional<Phase> phase) {
    if (at instanceof IfFree || at instanceof Choose) {
      return ts.step().getClass() == at.getClass() && ts.step().text().equals(at.text());
    }
    if (at instanceof Alloc a && a.fallible()) {
      return ts.step().equals(Steps.header(at)) && (ts.phase().isEmpty() || ts.phase().equals(Optional.of(Phase.OOM)));
    }
    return ts.step().equals(Steps.header(at)) && ts.phase().equals(phase);
  }

  /**
   * Whether two trace steps are the same transition; an {@code if free} step is compared by its first line. Device
   * bytes (used, cached, the free bytes an {@code if} read) agree within {@code tolerance}: what a real device's
   * figures may differ by from the model's (its pool rounds its growth up; 0 on the simulated device).
   */
  private static boolean sameTransition(TraceStep e, TraceStep a, long tolerance) {
    boolean sameFree = e.free().isPresent() == a.free().isPresent()
        && (e.free().isEmpty() || Math.abs(e.free().get() - a.free().get()) <= tolerance);
    return e.index() == a.index() && e.thread().equals(a.thread()) && e.step().text().equals(a.step().text())
        && e.step().getClass() == a.step().getClass() && e.phase().equals(a.phase())
        && Math.abs(e.used() - a.used()) <= tolerance && Math.abs(e.cached() - a.cached()) <= tolerance && sameFree;
  }

  /** Compares the engine's trace with the expected one: same transitions, same device bytes, same ending. */
  static ReplayResult compare(Trace expected, Trace actual, long figureTolerance) {
    int n = Math.min(expected.length(), actual.length());
    for (int k = 0; k < n; k++) {
      TraceStep e = expected.steps().get(k);
      TraceStep a = actual.steps().get(k);
      if (!sameTransition(e, a, figureTolerance)) {
        return new ReplayResult.Diverged(k + 1, "engine: " + describe(a) + "; trace: " + describe(e));
      }
    }
    if (expected.length() != actual.length()) {
      return new ReplayResult.Diverged(n + 1, "the engine's trace has " + actual.length() + " transitions, the recorded one " + expected.length());
    }
    Outcome eo = expected.outcome();
    Outcome ao = actual.outcome();
    boolean same = eo instanceof Outcome.Violated ev
        ? ao instanceof Outcome.Violated av && av.violation().kind() == ev.violation().kind()
        : !(ao instanceof Outcome.Violated);
    if (!same) {
      return new ReplayResult.Diverged(n + 1, "the engine ends in " + label(ao) + ", the trace in " + label(eo));
    }
    return new ReplayResult.Confirmed(expected.length(), eo);
  }

  private static String label(Outcome o) {
    return o instanceof Outcome.Violated v ? v.violation().kind().name() : o instanceof Outcome.Overlapped ? "OVERLAP"
        : o instanceof Outcome.Stopped ? "STOPPED" : "COMPLETED";
  }

  private static String describe(TraceStep s) {
    return s.thread() + " " + s.step().text() + s.phase().map(p -> " (" + p.label() + ")").orElse("")
        + s.free().map(f -> " read=" + f).orElse("") + " used=" + s.used() + " cached=" + s.cached();
  }

  /** A step a thread tried and could not take: after {@code transitions} transitions of the run. */
  public record BlockedAttempt(int transitions, String thread, Step step) {}

  /** A random run: the engine's report and the attempts that blocked. */
  public record RandomRun(RunReport report, List<BlockedAttempt> blocked) {
    public RandomRun {
      Objects.requireNonNull(report, "report");
      blocked = List.copyOf(blocked);
    }
  }

  /**
   * Runs the engine on a random schedule: at each point {@code chooser} picks one of the threads
   * that are waiting and not known to be blocked (and, at a {@code choose}, its path); a thread that blocks is known blocked until some
   * thread moves. When every unfinished thread is known blocked, the run is a deadlock.
   */
  public static RandomRun random(Design design, String source, Device device, Function<Role, Pipeline> pipelines, Schedules.Chooser chooser) {
    ControlledScheduler sched = new ControlledScheduler(Engine.threadNames(design));
    Engine.Run run = new Engine(device, sched).start(design, source, pipelines);
    List<BlockedAttempt> blocked = new ArrayList<>();
    Set<String> knownBlocked = new HashSet<>();
    sched.awaitReady();
    while (sched.failure().isEmpty()) {
      List<String> waiting = sched.waiting();
      List<String> candidates = new ArrayList<>(waiting);
      candidates.removeAll(knownBlocked);
      if (candidates.isEmpty()) {
        if (!waiting.isEmpty()) {
          run.log().recordViolation(new Violation(ViolationKind.DEADLOCK, "no thread can move: " + sched.describe()));
        }
        break;
      }
      String t = candidates.get(chooser.choose(candidates.size()));
      Step step = sched.stepOf(t);
      ControlledScheduler.Result r = sched.grant(t, step instanceof Choose && chooser.choose(2) == 1 ? Phase.ELSE : Phase.THEN);
      if (r == ControlledScheduler.Result.BLOCKED) {
        knownBlocked.add(t);
        blocked.add(new BlockedAttempt(run.log().size(), t, step));
      } else {
        knownBlocked.clear();
      }
    }
    sched.end("random schedule finished");
    return new RandomRun(run.await(), blocked);
  }
}
