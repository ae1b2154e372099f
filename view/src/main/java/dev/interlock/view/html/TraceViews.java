package dev.interlock.view.html;

import dev.interlock.impl.engine.Event;
import dev.interlock.impl.engine.MissingUse;
import dev.interlock.impl.engine.RunReport;
import dev.interlock.model.design.Design;
import dev.interlock.model.design.Semaphore;
import dev.interlock.model.design.Sizes;
import dev.interlock.model.design.SpawnTree;
import dev.interlock.model.state.LiveBuffer;
import dev.interlock.model.state.Model;
import dev.interlock.model.state.Phase;
import dev.interlock.model.state.ThreadView;
import dev.interlock.model.state.Violation;
import dev.interlock.model.state.ViolationKind;
import dev.interlock.model.step.Alloc;
import dev.interlock.model.step.Interval;
import dev.interlock.model.step.Kernel;
import dev.interlock.model.step.OnOom;
import dev.interlock.model.step.Steps;
import dev.interlock.model.step.Step;
import dev.interlock.model.trace.Outcome;
import dev.interlock.model.trace.Parameters;
import dev.interlock.model.trace.ReplayResult;
import dev.interlock.model.trace.Replayer;
import dev.interlock.model.trace.Trace;
import dev.interlock.model.trace.TraceStep;
import dev.interlock.view.html.TraceView.Axis;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Builds {@link TraceView}s by stepping the model along a trace or a run's events: the model says which buffers are
 * live and who holds which lock after each transition; the recorded used and cached bytes are kept as recorded.
 */
public final class TraceViews {
  private TraceViews() {}

  /**
   * One transition as recorded, from a trace step or an engine event; {@code without}: the missing buffers a kernel's
   * begin ran without, as recorded; {@code after}: a step after the trace's violation (a swallowed failure's job).
   */
  private record Row(int index, long x, String thread, Step step, Optional<Phase> phase, long used, long cached,
      Optional<Long> free, Optional<Violation> failure, List<String> without, boolean after) {
    Row(int index, long x, String thread, Step step, Optional<Phase> phase, long used, long cached, Optional<Long> free,
        Optional<Violation> failure) {
      this(index, x, thread, step, phase, used, cached, free, failure, List.of(), false);
    }

    TraceStep traceStep() {
      return new TraceStep(index, thread, step, phase, used, cached, free, without);
    }
  }

  /**
   * A trace on one column per transition; {@code design} is the trace's design as parsed (the trace's parameters are
   * applied here).
   */
  public static TraceView ofTrace(String title, Trace trace, Design design) {
    List<Row> rows = new ArrayList<>();
    for (TraceStep s : trace.steps()) {
      Optional<Violation> failure = s.index() == trace.length() && trace.outcome() instanceof Outcome.Violated v
          ? Optional.of(v.violation()) : Optional.empty();
      rows.add(new Row(s.index(), s.index(), s.thread(), s.step(), s.phase(), s.used(), s.cached(), s.free(), failure,
          s.without(), false));
    }
    for (TraceStep s : trace.after()) {
      rows.add(new Row(s.index(), s.index(), s.thread(), s.step(), s.phase(), s.used(), s.cached(), s.free(),
          Optional.empty(), s.without(), true));
    }
    Design applied;
    try {
      applied = trace.params().applyTo(design);
    } catch (IllegalArgumentException e) {
      applied = design;
    }
    ReplayResult r = Replayer.replay(trace, design);
    Optional<TraceView.Divergence> divergence = r instanceof ReplayResult.Diverged d
        ? Optional.of(new TraceView.Divergence(d.index(), Math.max(1, Math.min(d.index(), trace.length())), d.reason()))
        : Optional.empty();
    return build(title, subtitle(trace.design(), trace.source(), trace.params()), Axis.TRANSITION, applied, rows,
        trace.outcome(), trace.length(), divergence);
  }

  /**
   * A run's events: on the run's clock ({@link Axis#TIME}), or one column per event ({@link Axis#TRANSITION}, for a
   * run beside the trace it replays). {@code design} is the design the run ran ({@code source} its file).
   */
  public static TraceView ofRun(String title, Design design, String source, RunReport report, Axis axis) {
    List<Event> events = report.events();
    List<Row> rows = new ArrayList<>();
    long t0 = events.isEmpty() ? 0 : events.get(0).nanos();
    // the kernels the engine launched without a missing buffer, by their begin's 1-based event number
    Map<Long, MissingUse> missing = new HashMap<>();
    report.withoutBuffers().forEach(m -> missing.put(m.seq(), m));
    for (int i = 0; i < events.size(); i++) {
      Event e = events.get(i);
      MissingUse m = missing.get((long) i + 1);
      List<String> without = m != null && m.thread().equals(e.thread()) ? m.buffers() : List.of();
      rows.add(new Row(i + 1, axis == Axis.TIME ? e.nanos() - t0 : i + 1, e.thread(), e.step(), e.phase(), e.used(),
          e.cached(), e.free(), e.failure(), without, false));
    }
    int firstFailure = rows.stream().filter(x -> x.failure().isPresent()).mapToInt(Row::index).findFirst().orElse(0);
    List<Row> followed = firstFailure == 0 ? rows : rows.subList(0, firstFailure);
    // a run that went on past an ignored failure has no failed event; its report's outcome names the failure
    Outcome swallowed = report.trace().outcome() instanceof Outcome.Violated sv
        && sv.violation().kind() == ViolationKind.SWALLOWED_OOM ? sv : new Outcome.Completed();
    Outcome outcome = firstFailure == 0 ? swallowed
        : new Outcome.Violated(rows.get(firstFailure - 1).failure().orElseThrow());
    Optional<TraceView.Divergence> divergence = Optional.empty();
    if (!rows.isEmpty()) {
      Trace asTrace = new Trace(design.name(), source, Parameters.of(design), Optional.empty(), outcome,
          followed.stream().map(Row::traceStep).toList());
      if (Replayer.replay(asTrace, design) instanceof ReplayResult.Diverged d && d.index() <= followed.size()) {
        divergence = Optional.of(new TraceView.Divergence(d.index(), rows.get(d.index() - 1).x(), d.reason()));
      } else if (firstFailure != 0 && firstFailure < rows.size()
          && rows.get(firstFailure - 1).failure().orElseThrow().kind() != ViolationKind.SWALLOWED_OOM) {
        // an ignored failure's job goes on, and so does the model; after any other violation it stops
        divergence = Optional.of(new TraceView.Divergence(firstFailure + 1, rows.get(firstFailure).x(),
            "the model stops at the first violation (transition " + firstFailure + "); the run went on"));
      }
    }
    return build(title, subtitle(design.name(), source, Parameters.of(design)), axis, design, rows,
        report.trace().outcome(), report.trace().length(), divergence);
  }

  private static String subtitle(String design, String source, Parameters p) {
    List<String> parts = new ArrayList<>();
    parts.add("design " + design + " (" + source + ")");
    parts.add("vram " + Sizes.format(p.vram()));
    p.threads().forEach((role, n) -> parts.add(role + " x" + n + " jobs " + p.jobs().get(role)));
    p.permits().forEach((sem, n) -> parts.add(sem + " " + n + " permits"));
    return String.join(", ", parts);
  }

  private static TraceView build(String title, String subtitle, Axis axis, Design design, List<Row> rows, Outcome outcome,
      int outcomeAt, Optional<TraceView.Divergence> divergence) {
    return new Builder(design, rows, divergence.map(TraceView.Divergence::index).orElse(Integer.MAX_VALUE))
        .build(title, subtitle, axis, outcome, outcomeAt, divergence);
  }

  /** The stepping state of one build. */
  private static final class Builder {
    private final Design design;
    private final Model model;
    private final List<Row> rows;
    /** The first transition the model does not take (the divergence, or after the first failure). */
    private int follow;
    private final List<String> locks = new ArrayList<>();
    private final Map<String, Integer> laneOf = new LinkedHashMap<>();
    private final List<TraceView.Lane> lanes = new ArrayList<>();
    private final List<TraceView.Mark> marks = new ArrayList<>();
    private final List<TraceView.Box> boxes = new ArrayList<>();
    private final List<TraceView.Hold> holds = new ArrayList<>();
    private final List<TraceView.Series> series = new ArrayList<>();
    private final Map<String, Integer> seriesOf = new HashMap<>();
    private final List<TraceView.Sample> samples = new ArrayList<>();
    /** Open intervals per lane: begin x. */
    private final Map<Integer, Long> openBox = new HashMap<>();
    private final Map<Integer, Row> openBoxRow = new HashMap<>();
    /** The buffers the open interval of a lane ran without. */
    private final Map<Integer, List<String>> boxWithout = new HashMap<>();
    /** Open holds per (lock, thread): from x and permits. */
    private final Map<List<Object>, long[]> openHold = new LinkedHashMap<>();
    private TraceView.Highlight failed;

    Builder(Design design, List<Row> rows, int follow) {
      this.design = design;
      this.model = new Model(design);
      this.rows = rows;
      this.follow = follow;
      locks.addAll(design.mutexes());
      design.semaphores().stream().map(Semaphore::name).forEach(locks::add);
    }

    TraceView build(String title, String subtitle, Axis axis, Outcome outcome, int outcomeAt,
        Optional<TraceView.Divergence> divergence) {
      makeLanes();
      long[] s = model.initial();
      long[] out = new long[s.length];
      boolean following = true;
      for (Row r : rows) {
        int lane = laneOf.get(r.thread());
        interval(r, lane);
        following &= r.index() < follow;
        int t = following ? model.threadIndex(r.thread()) : -1;
        int code = Model.BLOCKED;
        ThreadView before = null;
        if (t >= 0) {
          before = model.view(s, t);
          // a choose's second path is its own move: the recorded phase (else) picks it
          code = model.step(s, model.moveOf(s, t, r.phase()), out);
        }
        ViolationKind v = Model.violation(code);
        // a deadlocked final state: its last step moved, the state is the violation
        boolean fails = r.failure().isPresent() && !(v == null && r.failure().get().kind() == ViolationKind.DEADLOCK)
            || v == ViolationKind.SWALLOWED_OOM; // an engine's ignored failure is an event like any other
        // the kernel's begin ran without these: the model's missing buffers where it follows, else as recorded
        List<String> without = before != null && code != Model.BLOCKED ? model.missingUses(s, t) : r.without();
        TraceView.Oom oom = r.phase().equals(Optional.of(Phase.OOM)) ? oomOf(r.step(), before) : TraceView.Oom.NONE;
        marks.add(new TraceView.Mark(r.x(), lane, r.index(), r.step().text(), StepCategory.of(r.step()), r.phase().map(Phase::label).orElse(""),
            r.used(), r.cached(), fails, oom, without, r.after()));
        if (!without.isEmpty()) {
          boxWithout.put(lane, without);
        }
        if (t < 0 || code == Model.BLOCKED || (v != null) != fails) {
          following = false;
          samples.add(new TraceView.Sample(Map.of(), r.used() - r.cached(), r.cached()));
          continue;
        }
        if (v == ViolationKind.SWALLOWED_OOM) {
          // the job goes on without the buffer: the model's moved state, from which the steps after it are followed;
          // the first swallowed failure is the one the verdict names
          if (failed == null) {
            failed = highlightOf(r, v, s);
          }
        } else if (v != null) {
          failed = highlightOf(r, v, s);
          samples.add(sample(s, model.cached(out)));
          following = false;
          continue;
        }
        holds(r.x(), r.thread(), before, model.view(out, t));
        samples.add(sample(out, model.cached(out)));
        long[] tmp = s;
        s = out;
        out = tmp;
      }
      long end = rows.isEmpty() ? 0 : rows.get(rows.size() - 1).x();
      openBox.forEach((lane, from) -> boxes.add(box(lane, openBoxRow.get(lane), from, end, true, boxWithout.getOrDefault(lane, List.of()))));
      openHold.forEach((key, v) -> holds.add(new TraceView.Hold((int) key.get(0), (String) key.get(1), (int) v[1], v[0], end, true)));
      return new TraceView(title, subtitle, axis, design.vram(), lanes, marks, boxes, locks, holds, series, samples,
          highlight(outcome, outcomeAt, end), divergence);
    }

    /** Lanes of the threads that move, in the model's thread order: each role thread followed by its task threads. */
    private void makeLanes() {
      List<String> names = new ArrayList<>();
      rows.forEach(r -> {
        if (!names.contains(r.thread())) {
          names.add(r.thread());
        }
      });
      names.sort(Comparator.comparingInt((String n) -> {
        int t = model.threadIndex(n);
        return t < 0 ? Integer.MAX_VALUE : t;
      }));
      for (String n : names) {
        laneOf.put(n, lanes.size());
        lanes.add(new TraceView.Lane(n, SpawnTree.roleThreadOf(n)));
      }
    }

    private void interval(Row r, int lane) {
      if (!(r.step() instanceof Interval) || r.phase().isEmpty()) {
        return;
      }
      if (r.phase().get() == Phase.BEGIN) {
        openBox.put(lane, r.x());
        openBoxRow.put(lane, r);
        boxWithout.remove(lane);
      } else if (r.phase().get() == Phase.END && openBox.containsKey(lane)) {
        boxes.add(box(lane, r, openBox.remove(lane), r.x(), false, boxWithout.getOrDefault(lane, List.of())));
        openBoxRow.remove(lane);
        boxWithout.remove(lane);
      }
    }

    private static TraceView.Box box(int lane, Row r, long from, long to, boolean open, List<String> without) {
      Interval i = (Interval) r.step();
      return new TraceView.Box(lane, i.name(), i instanceof Kernel, from, to, open, without);
    }

    /**
     * What the {@code on oom} of a failed allocation does: the model's next step of the thread, where it follows (the
     * design's step at that position, with its {@code on oom}); else the design's allocations with the trace step's
     * text, if they all say the same.
     */
    private TraceView.Oom oomOf(Step recorded, ThreadView before) {
      Step step = Steps.header(recorded); // a trace holds the header; an engine's event may hold the whole alloc
      if (before != null && before.next().orElse(null) instanceof Alloc a && a.header().equals(step)) {
        return oomKind(a.onOom());
      }
      java.util.Set<TraceView.Oom> found = new java.util.HashSet<>();
      design.roles().forEach(role -> collect(role.body(), step, found));
      design.tasks().forEach(task -> collect(task.body(), step, found));
      return found.size() == 1 ? found.iterator().next() : TraceView.Oom.UNKNOWN;
    }

    private static void collect(List<Step> body, Step header, java.util.Set<TraceView.Oom> found) {
      for (Step s : body) {
        if (s instanceof Alloc a && a.fallible() && a.header().equals(header)) {
          found.add(oomKind(a.onOom()));
        }
        Steps.nested(s).forEach(b -> collect(b, header, found));
      }
    }

    private static TraceView.Oom oomKind(OnOom o) {
      return o instanceof OnOom.Ignore ? TraceView.Oom.IGNORED : o instanceof OnOom.Handle ? TraceView.Oom.HANDLED
          : TraceView.Oom.UNKNOWN;
    }

    /** Opens and closes the holds of the thread that moved, from the model's view of it before and after. */
    private void holds(long x, String thread, ThreadView before, ThreadView after) {
      for (int l = 0; l < locks.size(); l++) {
        String lock = locks.get(l);
        int was = held(before, lock, l);
        int now = held(after, lock, l);
        if (was == now) {
          continue;
        }
        List<Object> key = List.of(l, thread);
        long[] open = openHold.remove(key);
        if (open != null) {
          holds.add(new TraceView.Hold(l, thread, (int) open[1], open[0], x, false));
        }
        if (now > 0) {
          openHold.put(key, new long[] {x, now});
        }
      }
    }

    private int held(ThreadView v, String lock, int index) {
      return index < design.mutexes().size() ? (v.mutexes().contains(lock) ? 1 : 0) : v.permits().getOrDefault(lock, 0);
    }

    /** Live bytes per buffer in state s, as the model names them; cached bytes as given. */
    private TraceView.Sample sample(long[] s, long cached) {
      Map<Integer, Long> live = new LinkedHashMap<>();
      for (LiveBuffer b : model.liveBuffers(s)) {
        live.merge(seriesIndex(b), b.bytes(), Long::sum);
      }
      long sum = live.values().stream().mapToLong(Long::longValue).sum();
      return new TraceView.Sample(live, Math.max(0, model.live(s) - sum), cached);
    }

    private int seriesIndex(LiveBuffer b) {
      return seriesOf.computeIfAbsent(b.label() + (b.kept() ? " kept" : ""), k -> {
        series.add(new TraceView.Series(b.worker(), b.buffer(), b.label(), b.kept()));
        return series.size() - 1;
      });
    }

    /** The failing transition r from state s, with the model's numbers. */
    private TraceView.Highlight highlightOf(Row r, ViolationKind v, long[] s) {
      List<String> names = model.liveBuffers(s).stream().map(LiveBuffer::describe).toList();
      int t = model.threadIndex(r.thread());
      boolean alloc = v == ViolationKind.OOM || v == ViolationKind.SWALLOWED_OOM;
      Optional<Long> requested = r.step() instanceof Alloc a && alloc ? Optional.of(a.bytes()) : Optional.empty();
      Optional<String> missing = Optional.empty();
      List<String> runWithout = List.of();
      if (v == ViolationKind.SWALLOWED_OOM && r.step() instanceof Alloc a) {
        missing = Optional.of(a.buffer());
        runWithout = model.usersAfterFailure(s, t);
      }
      String message = r.failure().map(Violation::message).orElseGet(() -> model.explain(s, t, v));
      return new TraceView.Highlight(v.name(), r.index(), r.x(), r.x(), message, requested,
          Optional.of(model.live(s)), Optional.of(model.free(s)), names, missing, runWithout);
    }

    private Optional<TraceView.Highlight> highlight(Outcome outcome, int outcomeAt, long end) {
      int last = rows.size();
      if (outcome instanceof Outcome.Violated v) {
        if (failed != null && failed.verdict().equals(v.violation().kind().name())) {
          return Optional.of(failed);
        }
        Row at = outcomeAt >= 1 && outcomeAt <= last ? rows.get(outcomeAt - 1) : rows.isEmpty() ? null : rows.get(last - 1);
        int index = at == null ? 0 : at.index();
        long x = at == null ? 0 : at.x();
        return Optional.of(new TraceView.Highlight(v.violation().kind().name(), index, x, x, v.violation().message(),
            Optional.empty(), Optional.empty(), Optional.empty(), List.of()));
      }
      if (outcome instanceof Outcome.Stopped st) {
        // a prefix that stops short: the reason after its last transition, in place of an ending it does not reach
        int index = rows.isEmpty() ? 0 : rows.get(last - 1).index();
        return Optional.of(new TraceView.Highlight("STOPPED", index, end, end, st.reason(), Optional.empty(), Optional.empty(),
            Optional.empty(), List.of()));
      }
      if (outcome instanceof Outcome.Overlapped o) {
        long from = end;
        List<String> inside = new ArrayList<>();
        for (TraceView.Box b : boxes) {
          if (b.open() && (b.name().equals(o.a()) || b.name().equals(o.b()))) {
            from = Math.min(from, b.from());
            inside.add(lanes.get(b.lane()).thread() + " in " + b.name());
          }
        }
        long start = from;
        for (TraceView.Box b : boxes) {
          if (b.open() && (b.name().equals(o.a()) || b.name().equals(o.b()))) {
            start = Math.max(start, b.from());
          }
        }
        String message = "OVERLAP " + o.a() + " " + o.b() + (o.sameWorker() ? " (same worker included)" : "") + ": "
            + String.join(" while ", inside);
        return Optional.of(new TraceView.Highlight("OVERLAP", last, end, start, message, Optional.empty(), Optional.empty(),
            Optional.empty(), List.of()));
      }
      return Optional.empty();
    }
  }
}
