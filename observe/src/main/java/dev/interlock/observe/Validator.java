package dev.interlock.observe;

import dev.interlock.model.design.Design;
import dev.interlock.model.design.Role;
import dev.interlock.model.design.Sizes;
import dev.interlock.model.state.Model;
import dev.interlock.model.state.Phase;
import dev.interlock.model.state.ThreadView;
import dev.interlock.model.state.Violation;
import dev.interlock.model.state.ViolationKind;
import dev.interlock.model.step.Acquire;
import dev.interlock.model.step.Alloc;
import dev.interlock.model.step.Choose;
import dev.interlock.model.step.Free;
import dev.interlock.model.step.IfFree;
import dev.interlock.model.step.Interval;
import dev.interlock.model.step.Lock;
import dev.interlock.model.step.Release;
import dev.interlock.model.step.Step;
import dev.interlock.model.step.Steps;
import dev.interlock.model.step.Sync;
import dev.interlock.model.step.SyncStream;
import dev.interlock.model.step.Trim;
import dev.interlock.model.step.Unlock;
import dev.interlock.model.trace.Outcome;
import dev.interlock.model.trace.Trace;
import dev.interlock.model.trace.TraceRecorder;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Checks that a captured run is a behaviour of a design: maps each OS thread onto a design thread and steps the
 * {@link Model} with every observed event the design mentions, as that thread's transition.
 *
 * <p>The model decides what each step does; this class only decides which design step an observed event stands
 * for. Design steps the capture cannot show (a cpu interval without an NVTX range, a lock of a mutex that never
 * appears, spawn, join, signal, wait) are taken silently when the thread gets there.
 */
public final class Validator {
  private final Design original;
  private final String designSource;
  private TraceRecorder recorder;
  private final DesignLines lines;
  private final Capture capture;
  private final Mapping map;
  private CaptureNames names;
  private final Set<String> observedObjects = new HashSet<>();
  private final Set<String> observedRanges = new HashSet<>();
  private final Set<Class<?>> observedKinds = new HashSet<>();

  private Model model;
  private long[] state;
  private final Map<Long, Integer> threadOf = new LinkedHashMap<>();
  private final Map<Long, Owner> live = new HashMap<>();
  private final Map<Long, Map<String, Deque<String>>> ranges = new HashMap<>();
  private final Map<Integer, Integer> pendingPermits = new HashMap<>();
  private int matched;

  private final Map<Integer, Allocating> allocating = new HashMap<>();
  /** Lines for the verdict: each allocation that ran out of memory where the design handles or ignores it. */
  private final List<String> failures = new ArrayList<>();
  /** Per design thread, its buffers missing after an ignored failure, with their line in {@link #failures}. */
  private final Map<Integer, Map<String, Integer>> missing = new HashMap<>();
  private final Map<Integer, Freeing> freeing = new HashMap<>();

  /**
   * A live observed allocation: the design thread and buffer it stands for, and for a part of a mapping group the live
   * pointers of all its parts (one set, shared by them), else null.
   */
  private record Owner(int thread, String buffer, Set<Long> parts) {}

  /** A thread's group whose parts are being allocated: the design's alloc step is taken at the last one. */
  private record Allocating(GroupParts parts, Alloc step) {}

  /** A thread's group whose parts are being freed: the design's free step is taken when {@code left} is empty. */
  private record Freeing(Mapping.Group group, Free step, Set<Long> left, int firstLine) {}

  private Validator(Design design, String designSource, String designText, Capture capture, Mapping map) {
    this.original = design;
    this.designSource = designSource;
    this.lines = new DesignLines(designSource, designText, design);
    this.capture = capture;
    this.map = map;
  }

  /** Validates {@code capture} against {@code design} (read from {@code designSource}, text {@code designText}). */
  public static Validation validate(Design design, String designSource, String designText, Capture capture, Mapping map) {
    return validateRun(design, designSource, designText, capture, map).validation();
  }

  /** As {@link #validate}, with the model trace of the transitions the validator took: what the views are drawn from. */
  public static Validated validateRun(Design design, String designSource, String designText, Capture capture, Mapping map) {
    try {
      map.checkAgainst(design);
    } catch (CaptureFormatException e) {
      // the CLI checks first, for exit 2 (Mapping.checkAgainst); a caller that did not gets the same message
      throw new IllegalArgumentException(e.getMessage(), e);
    }
    return new Validator(design, designSource, designText, CaptureSteps.of(map.withoutIgnoredThreads(capture)), map).run();
  }

  /**
   * A verdict and the model trace it stepped: every transition taken (matched events and the steps the capture cannot
   * show), ending in the run's real OOM, {@code Completed} when every design thread finished, or {@code Stopped} (with
   * the verdict as its reason) for the conforming prefix of a run that diverges or stops before the design's end.
   *
   * @param validation the verdict
   * @param trace      the transitions, from the design file as given
   */
  public record Validated(Validation validation, Trace trace) {
    public Validated {
      java.util.Objects.requireNonNull(validation, "validation");
      java.util.Objects.requireNonNull(trace, "trace");
    }
  }

  private Validated run() {
    collectNames();
    assignThreads();
    state = model.initial();
    recorder = new TraceRecorder(model);
    for (CaptureEvent e : SyncOrder.of(capture.events(), kernelNames())) {
      Validation v = apply(e);
      if (v instanceof Validation.Diverges) {
        return new Validated(v, recorder.finish(designSource, Optional.empty(), new Outcome.Stopped(v.summary())));
      }
      if (v != null) {
        return new Validated(v, recorder.finish(designSource, Optional.empty(), oom));
      }
    }
    for (int t : threadOf.values()) {
      advance(t);
    }
    Validation v = new Validation.Conforms(matched, threadOf.size(), 0, failures);
    Outcome end = model.allFinished(state) ? new Outcome.Completed()
        : new Outcome.Stopped(v.summary() + "; the capture ends before the design does");
    return new Validated(v, recorder.finish(designSource, Optional.empty(), end));
  }

  /**
   * The first synchronization the design does not write that was left out while the model held cached bytes, or null:
   * after it the model may have less free memory than the run had.
   */
  private String skippedSync;

  /**
   * Where a synchronization was left out with bytes cached, whether the model's out-of-memory at {@code d} rests on
   * those bytes (its live bytes and the request fit): then the run's out-of-memory is not shown to be the design's.
   */
  private String restsOnSkippedSync(Alloc d) {
    if (skippedSync == null || model.live(state) + d.bytes() > model.design().vram()) {
      return null;
    }
    return "; the design runs out of memory there only with " + Sizes.format(model.cached(state)) + " of freed bytes "
        + "still cached, which the synchronization at " + skippedSync + " (not a step of the design) may have released";
  }

  /** The outcome of a run that really ran out of memory where the model does too. */
  private Outcome oom;

  private void collectNames() {
    names = CaptureNames.of(capture, map);
    for (CaptureEvent e : capture.events()) {
      if (e instanceof CaptureEvent.Acquire a) {
        observedObjects.add(resolve(a.obj()));
      } else if (e instanceof CaptureEvent.Release r) {
        observedObjects.add(resolve(r.obj()));
      } else if (e instanceof CaptureEvent.RangePush p) {
        observedRanges.add(p.name());
      }
      observedKinds.add(e.getClass());
    }
  }

  /** The design name of a capture object: the mapping file's, else its NVTX name (itself mapped), else the object. */
  private String resolve(String obj) {
    return names.object(obj);
  }

  /** Whether the mapping leaves out capture object {@code obj} ({@code ignore mutex NAME}), by the object or its name. */
  private boolean ignoredObject(String obj) {
    return map.ignoresObject(obj) || map.ignoresObject(resolve(obj));
  }

  private boolean designObject(String name) {
    return original.mutexIndex(name) >= 0 || original.semaphoreIndex(name) >= 0;
  }

  /** Whether {@code e} can tell which design thread its OS thread is: the design names what it touches. */
  private boolean assigning(CaptureEvent e) {
    if (e instanceof CaptureEvent.Acquire a) {
      return a.taken() && designObject(resolve(a.obj())) && !ignoredObject(a.obj());
    }
    if (e instanceof CaptureEvent.Release r) {
      return designObject(resolve(r.obj())) && !ignoredObject(r.obj());
    }
    if (e instanceof CaptureEvent.RangePush p) {
      return intervalNames().contains(p.name());
    }
    if (e instanceof CaptureEvent.Alloc a) {
      return (a.rc() == 0 || a.outOfMemory()) && !map.ignoredSizes().contains(a.bytes());
    }
    return false;
  }

  private Set<String> intervalNames() {
    Set<String> names = new HashSet<>();
    for (Role r : original.roles()) {
      Steps.forEach(r.body(), s -> {
        if (s instanceof Interval i) {
          names.add(intervalName(i));
        }
      });
    }
    return names;
  }

  /** The names of the design's kernel intervals: the NVTX ranges a device-wide sync waits for. */
  private Set<String> kernelNames() {
    Set<String> names = new HashSet<>();
    for (Role r : original.roles()) {
      Steps.forEach(r.body(), s -> {
        if (s instanceof dev.interlock.model.step.Kernel k) {
          names.add(k.name());
        }
      });
    }
    return names;
  }

  private static String intervalName(Interval i) {
    return i instanceof dev.interlock.model.step.Kernel k ? k.name() : ((dev.interlock.model.step.Cpu) i).name();
  }

  /** Picks each OS thread's role and index, then builds the model with as many threads and enough jobs. */
  private void assignThreads() {
    List<Role> roles = original.roles();
    Map<Long, Integer> roleOfTid = new LinkedHashMap<>();
    Map<Long, Integer> indexOfTid = new HashMap<>();
    Map<Long, Integer> eventsOfTid = new HashMap<>();
    for (CaptureEvent e : capture.events()) {
      if (!assigning(e)) {
        continue;
      }
      eventsOfTid.merge(e.tid(), 1, Integer::sum);
      if (roleOfTid.containsKey(e.tid())) {
        continue;
      }
      String named = names.thread(e.tid()).orElse(null);
      int role = -1;
      if (named != null) {
        int hash = named.lastIndexOf('#');
        String roleName = hash > 0 ? named.substring(0, hash) : named;
        for (int r = 0; r < roles.size(); r++) {
          if (roles.get(r).name().equals(roleName)) {
            role = r;
            if (hash > 0) {
              try {
                indexOfTid.put(e.tid(), Integer.parseInt(named.substring(hash + 1)));
              } catch (NumberFormatException ignored) {
                // a thread name that only looks like role#i: its index is picked below
              }
            }
          }
        }
      }
      roleOfTid.put(e.tid(), role >= 0 ? role : bestRole(e.tid()));
    }
    int[] counts = new int[roles.size()];
    int[] jobs = new int[roles.size()];
    Map<Integer, Set<Integer>> taken = new HashMap<>();
    indexOfTid.forEach((tid, i) -> taken.computeIfAbsent(roleOfTid.get(tid), k -> new HashSet<>()).add(i));
    for (Map.Entry<Long, Integer> en : roleOfTid.entrySet()) {
      int r = en.getValue();
      Set<Integer> used = taken.computeIfAbsent(r, k -> new HashSet<>());
      if (!indexOfTid.containsKey(en.getKey())) {
        int i = 0;
        while (used.contains(i)) {
          i++;
        }
        used.add(i);
        indexOfTid.put(en.getKey(), i);
      }
      counts[r] = Math.max(counts[r], indexOfTid.get(en.getKey()) + 1);
      jobs[r] = Math.max(jobs[r], eventsOfTid.get(en.getKey()) + 1);
    }
    Design d = original;
    for (int r = 0; r < roles.size(); r++) {
      Role role = roles.get(r);
      d = d.withThreads(role.name(), Math.max(1, counts[r])).withJobs(role.name(), Math.max(role.jobs(), jobs[r]));
    }
    model = new Model(d);
    for (Map.Entry<Long, Integer> en : roleOfTid.entrySet()) {
      threadOf.put(en.getKey(), model.threadIndex(roles.get(en.getValue()).name() + "#" + indexOfTid.get(en.getKey())));
    }
  }

  /** The role whose observable steps, repeated job after job, match the longest prefix of the thread's events. */
  private int bestRole(long tid) {
    List<CaptureEvent> mine = new ArrayList<>();
    Set<Long> ptrs = new HashSet<>();
    for (CaptureEvent e : capture.events()) {
      if (e.tid() != tid || mine.size() >= 256) {
        continue;
      }
      if (e instanceof CaptureEvent.Alloc a && assigning(a)) {
        ptrs.add(a.ptr());
      }
      if (assigning(e) || designHasKind(e) || e instanceof CaptureEvent.Free f && ptrs.remove(f.ptr())) {
        mine.add(e);
      }
    }
    int best = 0;
    int bestLength = -1;
    for (int r = 0; r < original.roles().size(); r++) {
      List<Step> steps = new ArrayList<>();
      for (Step s : Steps.flatten(original.roles().get(r).body())) {
        // a semaphore step of N permits is N observed calls; a grouped buffer's alloc or free is one a part
        int calls = s instanceof Acquire a ? a.permits() : s instanceof Release q ? q.permits()
            : s instanceof Alloc d ? map.group(d.buffer()).map(g -> g.parts().size()).orElse(1)
            : s instanceof Free f ? map.group(f.buffer()).map(g -> g.parts().size()).orElse(1) : 1;
        for (int i = 0; observableStatically(s) && i < calls; i++) {
          steps.add(s);
        }
      }
      int n = 0;
      while (!steps.isEmpty() && n < mine.size()) {
        Step s = steps.get(n % steps.size());
        CaptureEvent e = mine.get(n);
        if (!(matchesStatically(e, s) || matchesKind(e, s) || e instanceof CaptureEvent.Free && s instanceof Free)) {
          break;
        }
        n++;
      }
      if (n > bestLength) {
        best = r;
        bestLength = n;
      }
    }
    return best;
  }

  /** Whether the capture could show step {@code s} at all. */
  private boolean observableStatically(Step s) {
    if (s instanceof Lock l) {
      return observedObjects.contains(l.mutex());
    } else if (s instanceof Unlock u) {
      return observedObjects.contains(u.mutex());
    } else if (s instanceof Acquire a) {
      return observedObjects.contains(a.semaphore());
    } else if (s instanceof Release r) {
      return observedObjects.contains(r.semaphore());
    } else if (s instanceof Alloc || s instanceof Free) {
      return true;
    } else if (s instanceof Interval i) {
      return observedRanges.contains(intervalName(i));
    } else if (s instanceof Trim) {
      return observedKinds.contains(CaptureEvent.Trim.class);
    } else if (s instanceof Sync) {
      return observedKinds.contains(CaptureEvent.Sync.class);
    } else if (s instanceof SyncStream) {
      return observedKinds.contains(CaptureEvent.SyncStream.class);
    } else if (s instanceof IfFree) {
      return observedKinds.contains(CaptureEvent.MemInfo.class);
    }
    return false;
  }

  /** Whether thread t's next step can be seen in the capture from state s. */
  private boolean observable(int t, Step s) {
    if (freesMissing(t, s)) {
      return false;
    }
    if (s instanceof Alloc a && a.keep() && model.view(state, t).buffers().containsKey(a.buffer())) {
      return false;
    }
    if (s instanceof Free f && !model.view(state, t).buffers().containsKey(f.buffer())) {
      // a kept buffer freed at job end by the model, or a bad free: the model decides, the capture shows nothing
      return !(isKept(f.buffer()));
    }
    return observableStatically(s);
  }

  private boolean isKept(String buffer) {
    for (Role r : original.roles()) {
      for (Step s : Steps.flatten(r.body())) {
        if (s instanceof Alloc a && a.keep() && a.buffer().equals(buffer)) {
          return true;
        }
      }
    }
    return false;
  }

  /** Kind and name (not state) of an event against a step: used to pick a role. */
  private boolean matchesStatically(CaptureEvent e, Step s) {
    if (e instanceof CaptureEvent.Acquire a) {
      String n = resolve(a.obj());
      return s instanceof Lock l && l.mutex().equals(n) || s instanceof Acquire q && q.semaphore().equals(n);
    }
    if (e instanceof CaptureEvent.Release r) {
      String n = resolve(r.obj());
      return s instanceof Unlock u && u.mutex().equals(n) || s instanceof Release q && q.semaphore().equals(n);
    }
    if (e instanceof CaptureEvent.RangePush p) {
      return s instanceof Interval i && intervalName(i).equals(p.name());
    }
    if (e instanceof CaptureEvent.Alloc a) {
      return s instanceof Alloc d && partOf(a.bytes(), d) && a.async() == d.async();
    }
    return false;
  }

  /**
   * Whether an observed allocation of {@code bytes} can begin design step {@code d}: it is d's size, or, for a grouped
   * buffer, the group's first part (and, for a group of one part, d's size too, as the tolerance applies to the sum).
   */
  private boolean startsAllocation(long bytes, Alloc d) {
    Optional<Mapping.Group> g = map.group(d.buffer());
    if (g.isEmpty()) {
      return map.sizeMatches(bytes, d.bytes());
    }
    return map.sizeMatches(bytes, g.get().parts().get(0)) && (g.get().parts().size() > 1 || map.sizeMatches(bytes, d.bytes()));
  }

  /** Whether an observed allocation of {@code bytes} can be design step {@code d} or, for a grouped buffer, one of its parts. */
  private boolean partOf(long bytes, Alloc d) {
    Optional<Mapping.Group> g = map.group(d.buffer());
    return g.isEmpty() ? map.sizeMatches(bytes, d.bytes()) : g.get().parts().stream().anyMatch(p -> map.sizeMatches(bytes, p));
  }

  /** Applies one observed event; a verdict when the run ends here (diverges, or a real OOM), else null. */
  private Validation apply(CaptureEvent e) {
    String popped = null;
    if (e instanceof CaptureEvent.RangePush p) {
      ranges.computeIfAbsent(e.tid(), k -> new HashMap<>()).computeIfAbsent(p.domain(), k -> new ArrayDeque<>()).push(p.name());
    } else if (e instanceof CaptureEvent.RangePop p) {
      Deque<String> stack = ranges.computeIfAbsent(e.tid(), k -> new HashMap<>()).get(p.domain());
      popped = stack == null || stack.isEmpty() ? null : stack.pop();
    }
    if (!relevant(e, popped)) {
      return null;
    }
    Integer t = threadOf.get(e.tid());
    if (t == null) {
      return null;
    }
    if (e instanceof CaptureEvent.MemInfo && !allocating.containsKey(t) && !freeing.containsKey(t)) {
      // a read of the free size changes nothing: it is the design's if free only where the thread's next step is one
      advance(t);
      Optional<Step> next = model.nextStep(state, t);
      if (next.isPresent() && !(next.get() instanceof IfFree) && !(next.get() instanceof Choose)) {
        return null;
      }
    }
    if ((e instanceof CaptureEvent.Sync || e instanceof CaptureEvent.SyncStream) && !allocating.containsKey(t)
        && !freeing.containsKey(t)) {
      // a synchronization is the design's sync step only where the thread's next step is one: real engines synchronize
      // far more often than a design says. One left out keeps freed bytes cached in the model that the run released:
      // the model then has less free memory than the run had, which could make a real out-of-memory or the low side of
      // an if free match wrongly; so from then on those are checked against what the run saw (skippedSync)
      advance(t);
      Optional<Step> next = model.nextStep(state, t);
      if (next.isEmpty() || !matchesKind(e, next.get()) && !(next.get() instanceof Choose)) {
        if (model.cached(state) > 0 && skippedSync == null) {
          skippedSync = capture.source() + ":" + e.line();
        }
        return null;
      }
    }
    String who = "thread " + e.tid() + " (" + model.threadName(t) + "): " + describe(e, popped) + " at " + capture.source() + ":" + e.line();
    Step step;
    if (allocating.containsKey(t) || freeing.containsKey(t)) {
      Validation cut = groupCut(e, t, who);
      if (cut != null) {
        return cut;
      }
      String part = allocating.containsKey(t) ? "part " + (allocating.get(t).parts().seen() + 1) + " of group "
          + allocating.get(t).step().buffer() : "the last part of group " + freeing.get(t).group().buffer();
      Optional<Step> whole = takePart(e, t);
      if (whole.isEmpty()) {
        matched++;
        return null;
      }
      step = whole.get();
      who += " (" + part + ")";
    } else {
      advance(t);
      if (model.nextStep(state, t).orElse(null) instanceof Choose c) {
        List<Move> path = choosePath(state, t, e, popped, 0);
        if (path == null) {
          return diverge(e, who + "; neither path of '" + c.text() + "' (" + where(t, c) + ") of " + model.threadName(t)
              + " leads to a step this event can be: " + mismatch(e, t, firstObservable(t, c)));
        }
        for (Move m : path) {
          recorder.record(m.before(), m.move(), m.after());
          state = m.after();
        }
      }
      Optional<Step> next = model.nextStep(state, t);
      if (next.isEmpty()) {
        return diverge(e, who + "; the design's " + model.threadName(t) + " has finished all its jobs");
      }
      step = next.get();
      if (!observable(t, step)) {
        return diverge(e, who + "; the design's " + model.threadName(t) + " is stuck at '" + step.text() + "' (" + where(t, step)
            + "), which the capture does not show: " + whyBlocked(t, step));
      }
      Optional<Phase> phase = model.nextPhase(state, t);
      if (!matches(e, popped, t, step, phase)) {
        return diverge(e, who + "; " + mismatch(e, t, step));
      }
      if (countsTowardPermits(e, t, step)) {
        matched++;
        return null;
      }
      if (startsGroup(e, t, step)) {
        matched++;
        return null;
      }
    }
    long[] out = new long[model.width()];
    Optional<Phase> stepPhase = model.nextPhase(state, t);
    if (skippedSync != null && step instanceof IfFree f && e instanceof CaptureEvent.MemInfo m
        && (f.atLeast() ? m.free() >= f.bytes() : m.free() < f.bytes()) != (stepPhase.orElse(null) == Phase.THEN)) {
      return diverge(e, who + " read " + Sizes.format(m.free()) + " free, but the design's '" + step.text() + "' ("
          + where(t, step) + ") takes its other branch with " + Sizes.format(model.free(state)) + " free, after the "
          + "synchronization at " + skippedSync + " (not a step of the design) left freed bytes cached in the model");
    }
    int code = model.step(state, t, out);
    boolean realOom = e instanceof CaptureEvent.Alloc a && a.outOfMemory();
    // a real out-of-memory that the model matches (handled, ignored or not) only through bytes a left-out sync released
    String rests = realOom && step instanceof Alloc d ? restsOnSkippedSync(d) : null;
    if (step instanceof Alloc d && d.fallible()) {
      boolean modelFails = stepPhase.orElse(null) == Phase.OOM;
      if (realOom && modelFails) {
        if (rests != null) {
          return diverge(e, who + " ran out of memory" + rests);
        }
        return failedAsDesigned(e, t, d, out);
      }
      if (!realOom && modelFails) {
        return diverge(e, who + " succeeded, but the design runs out of memory at '" + step.text() + "' (" + where(t, step)
            + ") and takes its on oom: " + model.explain(state, t, ViolationKind.OOM));
      }
    }
    if (code == Model.MOVED) {
      if (realOom) {
        return diverge(e, who + " ran out of memory, but the design has room for '" + step.text() + "' (" + where(t, step)
            + "): used " + Sizes.format(model.used(state)) + " of " + Sizes.format(model.design().vram()));
      }
      noteMissing(t, step);
      recorder.record(state, t, out);
      state = out;
      matched++;
      track(e, t, step);
      advance(t);
      return null;
    }
    if (code == Model.BLOCKED) {
      return diverge(e, who + "; the design does not let " + model.threadName(t) + " take '" + step.text() + "' ("
          + where(t, step) + ") now: " + whyBlocked(t, step));
    }
    ViolationKind kind = Model.violation(code);
    if (kind == ViolationKind.OOM && realOom && rests != null) {
      return diverge(e, who + " ran out of memory" + rests);
    }
    if (kind == ViolationKind.OOM && realOom) {
      matched++;
      recorder.record(state, t, out);
      oom = new Outcome.Violated(new Violation(kind, model.explain(state, t, kind)));
      return new Validation.Conforms(matched, threadOf.size(), e.line(), failures);
    }
    if (kind == ViolationKind.OOM) {
      return diverge(e, who + " succeeded, but the design runs out of memory at '" + step.text() + "' (" + where(t, step)
          + "): " + model.explain(state, t, kind));
    }
    return diverge(e, who + "; the design fails at '" + step.text() + "' (" + where(t, step) + ") with " + kind + ": "
        + model.explain(state, t, kind));
  }

  /**
   * A real out-of-memory at an allocation whose failure the design handles or ignores, where the model runs out of memory
   * too: the transition of phase oom (to the handler, or on without the buffer), and a line for the verdict.
   */
  private Validation failedAsDesigned(CaptureEvent e, int t, Alloc d, long[] out) {
    boolean ignored = d.onOom() instanceof dev.interlock.model.step.OnOom.Ignore;
    recorder.record(state, t, out);
    state = out;
    matched++;
    String line = capture.source() + ":" + e.line() + ": " + model.threadName(t) + " '" + d.text() + "' (" + where(t, d)
        + ") ran out of memory, " + (ignored ? "ignored (on oom ignore)" : "handled (on oom)");
    failures.add(line);
    if (ignored) {
      missing.computeIfAbsent(t, k -> new LinkedHashMap<>()).put(d.buffer(), failures.size() - 1);
    }
    advance(t);
    return null;
  }

  /** Notes a step thread t takes from the current state while a buffer of its ignored failure is missing. */
  private void noteMissing(int t, Step s) {
    Map<String, Integer> m = missing.get(t);
    if (m == null || m.isEmpty()) {
      return;
    }
    List<String> users = s instanceof dev.interlock.model.step.Kernel && model.nextPhase(state, t).orElse(null) == Phase.BEGIN
        ? model.missingUses(state, t) : List.of();
    for (String b : users) {
      Integer i = m.get(b);
      if (i != null) {
        failures.set(i, failures.get(i) + (failures.get(i).contains(" ran without ") ? ", " : "; ran without " + b + ": ")
            + "'" + s.text() + "' (" + where(t, s) + ")");
      }
    }
    if (s instanceof Free f && m.containsKey(f.buffer()) || s instanceof Alloc a && m.containsKey(a.buffer())) {
      String b = s instanceof Free f ? f.buffer() : ((Alloc) s).buffer();
      int i = m.remove(b);
      if (s instanceof Free) {
        failures.set(i, failures.get(i) + (failures.get(i).contains(" ran without ") ? ", " : "; ran without " + b + ": ")
            + "'" + s.text() + "' (" + where(t, s) + ", frees nothing)");
      }
    }
  }

  /** Whether {@code s} frees a buffer of thread t whose allocation failed and was ignored: nothing shows in the capture. */
  private boolean freesMissing(int t, Step s) {
    return s instanceof Free f && missing.getOrDefault(t, Map.of()).containsKey(f.buffer());
  }

  private Validation diverge(CaptureEvent e, String message) {
    return new Validation.Diverges(e.line(), message, matched);
  }

  /** Whether the design mentions what {@code e} does. */
  private boolean relevant(CaptureEvent e, String popped) {
    if (e instanceof CaptureEvent.RangePop) {
      return popped != null && intervalNames().contains(popped);
    }
    if (e instanceof CaptureEvent.Free f) {
      return live.containsKey(f.ptr());
    }
    if ((e instanceof CaptureEvent.Sync || e instanceof CaptureEvent.SyncStream) && insideKernel(e.tid())) {
      return false;
    }
    if (e instanceof CaptureEvent.Trim || e instanceof CaptureEvent.Sync || e instanceof CaptureEvent.SyncStream
        || e instanceof CaptureEvent.MemInfo) {
      return Steps.flatten(model.design().roles().stream().flatMap(r -> r.body().stream()).toList()).stream()
          .anyMatch(s -> matchesKind(e, s));
    }
    return assigning(e);
  }

  /**
   * Whether thread {@code tid} is inside the NVTX range of one of the design's kernels: a synchronization there waits for
   * that kernel, so it is part of the kernel's interval (its end is the range's pop), not a step of its own.
   */
  private boolean insideKernel(long tid) {
    Set<String> kernels = new HashSet<>();
    for (Role r : original.roles()) {
      Steps.forEach(r.body(), s -> {
        if (s instanceof dev.interlock.model.step.Kernel k) {
          kernels.add(k.name());
        }
      });
    }
    return ranges.getOrDefault(tid, Map.of()).values().stream().flatMap(Deque::stream).anyMatch(kernels::contains);
  }

  /** Whether some step of the design is of the kind of a trim, sync, stream sync or cuMemGetInfo record. */
  private boolean designHasKind(CaptureEvent e) {
    return original.roles().stream().flatMap(r -> Steps.flatten(r.body()).stream()).anyMatch(s -> matchesKind(e, s));
  }

  private static boolean matchesKind(CaptureEvent e, Step s) {
    return e instanceof CaptureEvent.Trim && s instanceof Trim || e instanceof CaptureEvent.Sync && s instanceof Sync
        || e instanceof CaptureEvent.SyncStream && s instanceof SyncStream
        || e instanceof CaptureEvent.MemInfo && s instanceof IfFree;
  }

  private boolean matches(CaptureEvent e, String popped, int t, Step s, Optional<Phase> phase) {
    if (e instanceof CaptureEvent.RangePush) {
      return matchesStatically(e, s) && phase.orElse(null) == Phase.BEGIN;
    }
    if (e instanceof CaptureEvent.RangePop) {
      return s instanceof Interval i && intervalName(i).equals(popped) && phase.orElse(null) == Phase.END;
    }
    if (e instanceof CaptureEvent.Alloc a) {
      return s instanceof Alloc d && startsAllocation(a.bytes(), d) && d.async() == a.async();
    }
    if (e instanceof CaptureEvent.Free f) {
      Owner o = live.get(f.ptr());
      return s instanceof Free d && o.thread() == t && o.buffer().equals(d.buffer());
    }
    if (e instanceof CaptureEvent.Acquire || e instanceof CaptureEvent.Release) {
      return matchesStatically(e, s);
    }
    return matchesKind(e, s);
  }

  /** A semaphore step of N permits is N observed calls: true while this one is not the last. */
  private boolean countsTowardPermits(CaptureEvent e, int t, Step s) {
    int permits = s instanceof Acquire a ? a.permits() : s instanceof Release r ? r.permits() : 1;
    int seen = pendingPermits.merge(t, callPermits(e), Integer::sum);
    if (seen < permits) {
      return true;
    }
    pendingPermits.remove(t);
    return false;
  }

  /**
   * Permits one observed semaphore call stands for: N when it lies inside an NVTX range named {@code acquire SEM N} or
   * {@code release SEM N} (one NVTX sync-user call for N permits, as the test engine's reservation does), else 1.
   */
  private int callPermits(CaptureEvent e) {
    String verb;
    String obj;
    if (e instanceof CaptureEvent.Acquire a) {
      verb = "acquire";
      obj = a.obj();
    } else if (e instanceof CaptureEvent.Release r) {
      verb = "release";
      obj = r.obj();
    } else {
      return 1;
    }
    List<String> open = ranges.getOrDefault(e.tid(), Map.of()).values().stream().flatMap(Deque::stream).toList();
    return SemaphoreRanges.permits(verb, resolve(obj), open);
  }

  private void track(CaptureEvent e, int t, Step s) {
    if (e instanceof CaptureEvent.Alloc a && s instanceof Alloc d && map.group(d.buffer()).isEmpty()) {
      live.put(a.ptr(), new Owner(t, d.buffer(), null));
    } else if (e instanceof CaptureEvent.Free f) {
      live.remove(f.ptr());
    }
  }

  /**
   * Starts a mapping group at its first part: an allocation of a grouped buffer (the model's step waits for the last
   * part), or the free of one part of a group with more parts live (the step waits for the last free). False when the
   * event is the whole step: a group of one part, or a part that ran out of memory.
   */
  private boolean startsGroup(CaptureEvent e, int t, Step step) {
    if (e instanceof CaptureEvent.Alloc a && step instanceof Alloc d && !a.outOfMemory()) {
      Optional<Mapping.Group> g = map.group(d.buffer());
      if (g.isEmpty()) {
        return false;
      }
      GroupParts parts = new GroupParts(g.get(), e.line(), d.async());
      parts.add(a.ptr(), a.bytes(), true);
      live.put(a.ptr(), new Owner(t, d.buffer(), parts.ptrs()));
      if (parts.complete()) {
        return false;
      }
      allocating.put(t, new Allocating(parts, d));
      return true;
    }
    if (e instanceof CaptureEvent.Free f && step instanceof Free d) {
      Owner o = live.get(f.ptr());
      if (o.parts() == null || o.parts().size() < 2) {
        return false;
      }
      o.parts().remove(f.ptr());
      live.remove(f.ptr());
      freeing.put(t, new Freeing(map.group(d.buffer()).orElseThrow(), d, o.parts(), e.line()));
      return true;
    }
    return false;
  }

  /**
   * Thread t's event while one of its groups is incomplete: null when it is the group's next part (for the last one, its
   * parts add up to the design's size within the tolerance), else a divergence that names the group: any other event
   * the design mentions.
   */
  private Validation groupCut(CaptureEvent e, int t, String who) {
    Allocating open = allocating.get(t);
    if (open != null) {
      GroupParts parts = open.parts();
      Alloc d = open.step();
      if (!(e instanceof CaptureEvent.Alloc a && parts.next(map, a.bytes(), a.async()))) {
        return diverge(e, who + "; group " + d.buffer() + " is incomplete: " + parts.progress(capture.source()) + ", and its next part is "
            + parts.nextPart() + "; the design takes '" + d.text() + "' ("
            + where(t, d) + ") when all " + parts.group().parts().size()
            + " parts are allocated, by one thread, with no step of the design between them");
      }
      if (parts.last() && !a.outOfMemory() && !map.sizeMatches(parts.observed() + a.bytes(), d.bytes())) {
        return diverge(e, who + "; group " + d.buffer() + "'s parts add up to " + Sizes.format(parts.observed() + a.bytes())
            + ", which is not '" + d.text() + "' (" + where(t, d) + ") within the tolerance");
      }
      return null;
    }
    Freeing f = freeing.get(t);
    if (!(e instanceof CaptureEvent.Free x && live.get(x.ptr()).parts() == f.left())) {
      return diverge(e, who + "; group " + f.group().buffer() + " is partly freed: " + (f.group().parts().size() - f.left().size())
          + " of " + f.group().parts().size() + " parts (from " + capture.source() + ":" + f.firstLine() + ") of '" + f.group().text()
          + "' (" + f.group().where() + "); the design takes '" + f.step().text() + "' (" + where(t, f.step())
          + ") when the last part is freed, with no step of the design between them");
    }
    return null;
  }

  /** Takes the part {@code e} of thread t's open group: the design step when the group is now whole (or a part ran out of memory). */
  private Optional<Step> takePart(CaptureEvent e, int t) {
    Allocating open = allocating.get(t);
    if (open != null) {
      CaptureEvent.Alloc a = (CaptureEvent.Alloc) e;
      open.parts().add(a.ptr(), a.bytes(), !a.outOfMemory());
      if (!a.outOfMemory()) {
        live.put(a.ptr(), new Owner(t, open.step().buffer(), open.parts().ptrs()));
      }
      if (open.parts().complete() || a.outOfMemory()) {
        allocating.remove(t);
        return Optional.of(open.step());
      }
      return Optional.empty();
    }
    Freeing f = freeing.get(t);
    CaptureEvent.Free x = (CaptureEvent.Free) e;
    f.left().remove(x.ptr());
    if (f.left().isEmpty()) {
      // the last part: track() forgets its pointer when the model has taken the free
      freeing.remove(t);
      return Optional.of(f.step());
    }
    live.remove(x.ptr());
    return Optional.empty();
  }

  /** One transition taken on the way through a {@code choose}: the state before, the move, the state after. */
  private record Move(long[] before, int move, long[] after) {}

  /**
   * From state {@code s}, where thread t's next step is a {@code choose}: the transitions through the path (the first
   * tried first) and the silent steps after it, up to a step that event {@code e} can be; nested chooses likewise.
   * Null when no path gets there.
   */
  private List<Move> choosePath(long[] s, int t, CaptureEvent e, String popped, int depth) {
    if (depth > 16) {
      return null;
    }
    for (int move : new int[] {t, t + model.threads()}) {
      long[] out = new long[model.width()];
      if (model.step(s, move, out) != Model.MOVED) {
        continue;
      }
      List<Move> path = new ArrayList<>(List.of(new Move(s, move, out)));
      long[] cur = out;
      long[] saved = state;
      try {
        state = cur;
        while (true) {
          Optional<Step> next = model.nextStep(cur, t);
          if (next.isPresent() && next.get() instanceof Choose) {
            List<Move> rest = choosePath(cur, t, e, popped, depth + 1);
            if (rest != null) {
              path.addAll(rest);
              return path;
            }
            break;
          }
          if (next.isPresent() && !observable(t, next.get())) {
            long[] o = new long[model.width()];
            if (model.step(cur, t, o) != Model.MOVED) {
              break;
            }
            path.add(new Move(cur, t, o));
            cur = o;
            state = cur;
            continue;
          }
          if (next.isPresent() && matches(e, popped, t, next.get(), model.nextPhase(cur, t))) {
            return path;
          }
          break;
        }
      } finally {
        state = saved;
      }
    }
    return null;
  }

  /** The first step of a choose's first path the capture could show, for a message; the choose itself if none. */
  private Step firstObservable(int t, Choose c) {
    for (Step s : Steps.flatten(c.first())) {
      if (observableStatically(s)) {
        return s;
      }
    }
    return c;
  }

  /** Takes thread t's steps that the capture cannot show, as long as the model lets it move. */
  private void advance(int t) {
    while (!advanceAlone(t) && advanceTasks()) {
      // t waits for a task thread (a signal, a join): the tasks went on, so t may too
    }
  }

  /**
   * Takes thread t's steps that the capture cannot show, up to its next observable step; false where t is blocked at
   * one (a wait for a task's signal, a join), true where it stopped for another reason.
   */
  private boolean advanceAlone(int t) {
    long[] out = new long[model.width()];
    for (Optional<Step> next = model.nextStep(state, t); next.isPresent() && !observable(t, next.get());
        next = model.nextStep(state, t)) {
      Step taking = next.get();
      if (taking instanceof Choose) {
        return true; // which path is decided by the thread's next event (choosePath)
      }
      if (model.step(state, t, out) != Model.MOVED) {
        return false;
      }
      noteMissing(t, taking);
      recorder.record(state, t, out);
      long[] swap = state;
      state = out;
      out = swap;
    }
    return true;
  }

  /**
   * Takes the unobservable steps of the task threads (no OS thread is mapped onto a task: assignThreads maps role
   * threads only), a task's work that the capture does not show, a CPU step or a signal: they are taken when a thread
   * waits for them. Whether any moved.
   */
  private boolean advanceTasks() {
    boolean moved = false;
    for (int u = 0; u < model.threads(); u++) {
      if (model.isTaskThread(u)) {
        long[] was = state.clone();
        advanceAlone(u);
        moved |= !java.util.Arrays.equals(was, state);
      }
    }
    return moved;
  }

  private String where(int t, Step s) {
    return lines.position(model.design().roles().get(model.roleOf(t)).name(), s);
  }

  private String whyBlocked(int t, Step s) {
    if (s instanceof Lock l) {
      for (int j = 0; j < model.threads(); j++) {
        if (model.view(state, j).mutexes().contains(l.mutex())) {
          return l.mutex() + " is held by " + model.threadName(j);
        }
      }
    }
    if (s instanceof Acquire a) {
      return a.permits() + " permits of " + a.semaphore() + " are not available";
    }
    return "it waits (" + model.view(state, t).position() + ")";
  }

  /** Why the observed event is not the design's next step for thread t. */
  private String mismatch(CaptureEvent e, int t, Step next) {
    String role = model.design().roles().get(model.roleOf(t)).name();
    String expected = "the design's next step for " + model.threadName(t) + " is '" + next.text() + "' (" + where(t, next) + ")";
    if (e instanceof CaptureEvent.Alloc a) {
      List<String> held = new ArrayList<>();
      for (Step s : Steps.flatten(model.design().roles().get(model.roleOf(t)).body())) {
        if (s instanceof Lock l) {
          held.add(l.mutex());
        } else if (s instanceof Unlock u) {
          held.remove(u.mutex());
        } else if (s instanceof Alloc d && partOf(a.bytes(), d)) {
          ThreadView v = model.view(state, t);
          List<String> missing = held.stream().filter(m -> !v.mutexes().contains(m)).toList();
          if (!missing.isEmpty()) {
            return "while not holding " + String.join(", ", missing) + "; the design allocates " + d.buffer() + " only under "
                + String.join(", ", held) + " (" + lines.position(role, d) + "); " + expected;
          }
          if (d.async() != a.async()) {
            return (a.async() ? "an async" : "a plain") + " allocation, but the design's '" + d.text() + "' ("
                + lines.position(role, d) + ") is " + (d.async() ? "async" : "plain") + "; " + expected;
          }
          Optional<Mapping.Group> g = map.group(d.buffer());
          if (g.isPresent() && next instanceof Alloc n && n.buffer().equals(d.buffer())) {
            return "group " + d.buffer() + " (" + g.get().where() + ") begins with a " + Sizes.format(g.get().parts().get(0))
                + " allocation; " + expected;
          }
          return expected;
        }
      }
      return "the design allocates no buffer of " + Sizes.format(Math.max(1, a.bytes()))
          + " (add 'ignore alloc " + a.bytes() + "' to the mapping file if it is not part of the design, or list it in a"
          + " 'group BUFFER = SIZE ...' line if it is one of several allocations that make up a design allocation, or map it"
          + " with 'device BUFFER = SIZE' if it is a device buffer of the design that the engine allocates once); " + expected;
    }
    return expected;
  }

  private String describe(CaptureEvent e, String popped) {
    if (e instanceof CaptureEvent.Alloc a) {
      return a.api() + "(" + Sizes.format(Math.max(1, a.bytes())) + ")" + (a.rc() != 0 ? " = " + a.rc() : "");
    }
    if (e instanceof CaptureEvent.Free f) {
      Owner o = live.get(f.ptr());
      return f.api() + "(" + CaptureFormat.hex(f.ptr()) + (o != null ? ", " + o.buffer() : "") + ")";
    }
    if (e instanceof CaptureEvent.Acquire a) {
      return a.kind().event() + " " + resolve(a.obj());
    }
    if (e instanceof CaptureEvent.Release r) {
      return r.kind().event() + " " + resolve(r.obj());
    }
    if (e instanceof CaptureEvent.RangePush p) {
      return "range_push " + p.name();
    }
    if (e instanceof CaptureEvent.RangePop) {
      return "range_pop " + popped;
    }
    if (e instanceof CaptureEvent.MemInfo m) {
      return "cuMemGetInfo (free " + Sizes.format(Math.max(1, m.free())) + ")";
    }
    return CaptureFormat.format(e).split(" ")[2];
  }
}
