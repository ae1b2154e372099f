package dev.interlock.view.html;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * What one trace or run looks like on the page, before any drawing: lanes, marks, interval boxes, lock holds, the
 * device memory after each transition and the violation. Built by {@link TraceViews} from the model, drawn by
 * {@link HtmlPage}; x positions are transition indices or nanoseconds, as {@link #axis} says.
 *
 * @param title      the heading, e.g. {@code model counterexample}
 * @param subtitle   design, source and parameters in one line
 * @param axis       what x means
 * @param vram       device bytes
 * @param lanes      one per thread, role threads followed by their task threads
 * @param marks      one per transition, in order
 * @param boxes      cpu and kernel intervals
 * @param locks      the mutexes and semaphores, in design order: one lane each
 * @param holds      who held which lock from when to when
 * @param series     the live buffers (owner and name) the memory samples refer to by index
 * @param samples    device memory after each transition, in order (one per mark)
 * @param highlight  the violation or overlap the trace ends in, if any
 * @param divergence where the model could not follow the trace or run, if it could not
 */
public record TraceView(String title, String subtitle, Axis axis, long vram, List<Lane> lanes, List<Mark> marks,
    List<Box> boxes, List<String> locks, List<Hold> holds, List<Series> series, List<Sample> samples,
    Optional<Highlight> highlight, Optional<Divergence> divergence) {
  public TraceView {
    Objects.requireNonNull(title, "title");
    Objects.requireNonNull(subtitle, "subtitle");
    Objects.requireNonNull(axis, "axis");
    lanes = List.copyOf(lanes);
    marks = List.copyOf(marks);
    boxes = List.copyOf(boxes);
    locks = List.copyOf(locks);
    holds = List.copyOf(holds);
    series = List.copyOf(series);
    samples = List.copyOf(samples);
    Objects.requireNonNull(highlight, "highlight");
    Objects.requireNonNull(divergence, "divergence");
    if (samples.size() != marks.size()) {
      throw new IllegalArgumentException(marks.size() + " marks but " + samples.size() + " memory samples");
    }
  }

  /** What x is: one column per transition (traces, and runs shown beside them), or the run's clock. */
  public enum Axis {
    TRANSITION,
    TIME
  }

  /** A thread's lane and the role thread it belongs to (itself for a role thread); a task thread's lane is drawn under its role thread's. */
  public record Lane(String thread, String roleThread) {
    public Lane {
      Objects.requireNonNull(thread, "thread");
      Objects.requireNonNull(roleThread, "roleThread");
      if (!thread.startsWith(roleThread)) {
        throw new IllegalArgumentException(thread + " is not a thread of " + roleThread);
      }
    }

    /** Whether this is a task thread's lane. */
    public boolean task() {
      return !thread.equals(roleThread);
    }
  }

  /**
   * One transition.
   *
   * @param x      its column (the transition index) or its time in nanoseconds
   * @param lane   index into {@link #lanes}
   * @param index  1-based transition index
   * @param step   the step's text
   * @param category what kind of step it is, from its type: the mark's colour
   * @param phase  begin, end, then, else, or empty
   * @param used   device bytes in use after it, as the trace or run recorded them
   * @param cached pool-cached bytes after it, as recorded
   * @param failed whether the step failed (the violating transition of a trace, a failed event of a run)
   * @param oom    for an allocation that failed and whose {@code on oom} took over (phase oom): what the design does
   *               then, {@link Oom#HANDLED} (its handler runs next) or {@link Oom#IGNORED} (the job goes on without
   *               the buffer); {@link Oom#NONE} otherwise
   * @param without for a kernel's begin, the buffers it uses that are missing (an ignored failed allocation): it ran
   *               without them
   * @param after  whether the transition comes after the trace's violation (a swallowed failure's job going on)
   */
  public record Mark(long x, int lane, int index, String step, StepCategory category, String phase, long used, long cached,
      boolean failed, Oom oom, List<String> without, boolean after) {
    public Mark {
      Objects.requireNonNull(oom, "oom");
      without = List.copyOf(without);
    }

    /** A transition that is no failed allocation, ran with its buffers and comes before any violation. */
    public Mark(long x, int lane, int index, String step, StepCategory category, String phase, long used, long cached,
        boolean failed) {
      this(x, lane, index, step, category, phase, used, cached, failed, Oom.NONE, List.of(), false);
    }
  }

  /** What a failed allocation's {@code on oom} does, as the design says: the mark of a phase oom transition. */
  public enum Oom {
    /** Not a failed allocation that an {@code on oom} took over. */
    NONE,
    /** {@code on oom ... end}: the handler runs next. */
    HANDLED,
    /** {@code on oom ignore}: the job goes on without the buffer. */
    IGNORED,
    /** An {@code on oom} took over, but the design does not say which (the step is not found, or found with both). */
    UNKNOWN;

    /** The name the page's script uses, e.g. {@code handled}; empty for {@link #NONE}. */
    public String key() {
      return this == NONE ? "" : name().toLowerCase(java.util.Locale.ROOT);
    }
  }

  /**
   * A cpu or kernel interval of a lane from begin to end (or to the end of the trace, {@code open}); {@code without}:
   * the buffers a kernel ran without (missing at its begin).
   */
  public record Box(int lane, String name, boolean kernel, long from, long to, boolean open, List<String> without) {
    public Box {
      without = List.copyOf(without);
    }

    /** An interval that ran with all its buffers. */
    public Box(int lane, String name, boolean kernel, long from, long to, boolean open) {
      this(lane, name, kernel, from, to, open, List.of());
    }
  }

  /** A lock held by a thread: a mutex ({@code permits} 1) or permits of a semaphore, from take to give back. */
  public record Hold(int lock, String holder, int permits, long from, long to, boolean open) {}

  /**
   * A live buffer, as the model names it ({@link dev.interlock.model.state.LiveBuffer}): the role thread that owns it
   * (empty for the design's resident buffers), its name in the design, its label in the model's messages, and whether
   * it is kept across jobs.
   */
  public record Series(String worker, String buffer, String label, boolean kept) {
    public Series {
      Objects.requireNonNull(worker, "worker");
      Objects.requireNonNull(buffer, "buffer");
      Objects.requireNonNull(label, "label");
    }
  }

  /**
   * Device memory after a transition.
   *
   * @param live   live bytes per series index, in stacking order; empty where the model could not follow
   * @param other  live bytes no series accounts for (all of them where the model could not follow)
   * @param cached pool-cached bytes
   */
  public record Sample(Map<Integer, Long> live, long other, long cached) {
    public Sample {
      live = Map.copyOf(live);
    }

    /** All live bytes. */
    public long liveTotal() {
      return other + live.values().stream().mapToLong(Long::longValue).sum();
    }
  }

  /**
   * The violation or overlap a trace ends in.
   *
   * @param verdict     e.g. {@code OOM}, {@code OVERLAP}
   * @param index       the transition it happens at (the last one for a violation of the final state)
   * @param x           that transition's x
   * @param fromX       for an overlap, where both intervals are first open together; else {@code x}
   * @param message     the violation's message
   * @param requested   for a failed allocation, the bytes it asked for
   * @param live        live bytes just before the transition, empty where the model could not follow
   * @param free        free bytes (vram minus live and cached) just before it, likewise
   * @param liveBuffers the buffers live just before it, as the model's messages list them ({@code label=SIZE})
   * @param missing     for a {@code SWALLOWED_OOM}, the buffer the job goes on without
   * @param runWithout  for a {@code SWALLOWED_OOM}, the steps that run without it, as the model names them
   *                    ({@code THREAD: STEP}), whether or not the trace goes on to them
   */
  public record Highlight(String verdict, int index, long x, long fromX, String message, Optional<Long> requested,
      Optional<Long> live, Optional<Long> free, List<String> liveBuffers, Optional<String> missing, List<String> runWithout) {
    public Highlight {
      Objects.requireNonNull(verdict, "verdict");
      Objects.requireNonNull(message, "message");
      liveBuffers = List.copyOf(liveBuffers);
      Objects.requireNonNull(missing, "missing");
      runWithout = List.copyOf(runWithout);
    }

    /** A highlight that is no swallowed failure. */
    public Highlight(String verdict, int index, long x, long fromX, String message, Optional<Long> requested,
        Optional<Long> live, Optional<Long> free, List<String> liveBuffers) {
      this(verdict, index, x, fromX, message, requested, live, free, liveBuffers, Optional.empty(), List.of());
    }
  }

  /** The model could not follow from transition {@code index} on (at x), for {@code reason}. */
  public record Divergence(int index, long x, String reason) {}
}
